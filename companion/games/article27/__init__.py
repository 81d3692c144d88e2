"""Article 27: The UN Security Council Game (3-6 players)."""
from .engine import Article27Engine

ENGINE = Article27Engine()
