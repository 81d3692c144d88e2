"""Secret Hitler's colours: the two parties (the tracks, the policy buttons,
a role known to the table) and the two votes. Blue against orange-red stays
apart in every colour-vision deficiency; Ja's green and Nein's purple differ
in hue under each (green turns olive, purple blue) as well as in lightness.
Each colour comes with its word: the track's name, the policy on its button,
the role or the vote on its panel."""

from __future__ import annotations

from ..palette import RGBA, Palette

LIBERAL: RGBA = (0.17, 0.40, 0.72, 1)
FASCIST: RGBA = (0.72, 0.20, 0.16, 1)
PILES: RGBA = (0.26, 0.27, 0.28, 1)
JA: RGBA = (0.12, 0.50, 0.30, 1)
NEIN: RGBA = (0.46, 0.20, 0.44, 1)
NIGHT: RGBA = (0.24, 0.22, 0.50, 1)  # "Read the night aloud": its words in white
# A role the table knows, as text on a seat's panel: the party's colour (Hitler is a
# fascist; the word says which).
LIBERAL_TEXT: RGBA = (0.55, 0.76, 1, 1)
FASCIST_TEXT: RGBA = (1, 0.52, 0.45, 1)
ROLE_TEXT = {"liberal": LIBERAL_TEXT, "fascist": FASCIST_TEXT, "hitler": FASCIST_TEXT}

PALETTE = Palette(
    name="secret_hitler",
    colours={
        "liberal": LIBERAL,
        "fascist": FASCIST,
        "ja": JA,
        "nein": NEIN,
        "liberal_text": LIBERAL_TEXT,
        "fascist_text": FASCIST_TEXT,
    },
    pairs=(("liberal", "fascist"), ("ja", "nein"), ("liberal_text", "fascist_text")),
)
