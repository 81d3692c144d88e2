"""Secret Hitler (5-10 players)."""
from .engine import SecretHitlerEngine

ENGINE = SecretHitlerEngine()
