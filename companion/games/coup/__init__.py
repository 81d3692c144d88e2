"""Coup (the original game) on the shared claim / challenge / block engine."""
from .engine import ClaimEngine
from .rules import COUP

ENGINE = ClaimEngine(COUP)
