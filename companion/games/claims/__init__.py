"""The claim framework: the claim / challenge / block machinery of Coup and
its relatives, with no character of its own. A game on it is a ruleset
package (``companion.games.coup`` and its relatives): its characters and actions (a
``rules.Ruleset``), its engine (a ``engine.ClaimEngine`` over them), its
words (a ``words.ClaimWords``) and its icons; the kiosk shows it on the
framework's screen, :data:`SCREEN`.

Importing this package loads none of its modules (a game's spec names them
without loading its engine)."""

from pathlib import Path

SCREEN = f"{__name__}.screen:ClaimTableScreen"
# The framework's texts (its steps, claims, blocks, the general actions...),
# which every game on it lists among its spec's catalogs.
CATALOGS = Path(__file__).with_name("catalogs")
