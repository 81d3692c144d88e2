"""What a screendump of the booted guest shows, for scripts/pi-system-check:
the kiosk's home screen, or a text console (or anything else).

    python3 screen.py SHOT.ppm       exit 0 when it is the home screen

QEMU's monitor writes its screendump as a binary PPM (P6). A Linux console is
black with grey text; the kiosk's screens have the background
``companion.ui.widgets.palette.SCREEN`` and the home screen, its buttons in
``palette.BUTTON`` (the game and player choices) and one chosen in
``palette.BUTTON_CHOSEN``. The colours are repeated here because this runs
with the host's python3, where the app is not installed; tests/
test_pi_system_screen.py holds them to the palette's. Standard library only."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass

# palette.SCREEN, BUTTON and BUTTON_CHOSEN as 8-bit RGB (round(x * 255)).
SCREEN = (23, 26, 26)
BUTTON = (69, 79, 89)
BUTTON_CHOSEN = (217, 168, 51)
BLACK = (0, 0, 0)
TOLERANCE = 3  # per channel: Mesa's rounding, and llvmpipe's dithering

# The shares of the screen that make each verdict.
HOME_BACKGROUND = 0.30
HOME_BUTTONS = 0.02
CONSOLE_BLACK = 0.70


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    pixels: bytes  # RGB, row by row


def read_ppm(data: bytes) -> Picture:
    """A binary PPM (P6, maxval 255): its header's four fields, then the pixels."""
    fields: list[bytes] = []
    at = 0
    while len(fields) < 4:
        while at < len(data) and data[at : at + 1].isspace():
            at += 1
        if data[at : at + 1] == b"#":  # a comment, to the end of its line
            at = data.index(b"\n", at) + 1
            continue
        start = at
        while at < len(data) and not data[at : at + 1].isspace():
            at += 1
        if start == at:
            raise ValueError("a truncated PPM header")
        fields.append(data[start:at])
    if fields[0] != b"P6":
        raise ValueError(f"not a binary PPM (P6): {fields[0]!r}")
    width, height, maxval = (int(field) for field in fields[1:])
    if maxval != 255:
        raise ValueError(f"a PPM of maxval {maxval}, not 255")
    pixels = data[at + 1 : at + 1 + width * height * 3]
    if len(pixels) != width * height * 3:
        raise ValueError("a PPM shorter than its size")
    return Picture(width, height, pixels)


def near(colour: tuple[int, int, int], target: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= TOLERANCE for a, b in zip(colour, target, strict=True))


def shares(picture: Picture) -> dict[str, float]:
    """The share of the screen in each colour that tells the screens apart."""
    counts = Counter(picture.pixels[i : i + 3] for i in range(0, len(picture.pixels), 3))
    total = picture.width * picture.height
    found = dict.fromkeys(("background", "button", "chosen", "black"), 0)
    targets = {"background": SCREEN, "button": BUTTON, "chosen": BUTTON_CHOSEN, "black": BLACK}
    for raw, count in counts.items():
        colour = (raw[0], raw[1], raw[2])
        for name, target in targets.items():
            if near(colour, target):
                found[name] += count
    return {name: count / total for name, count in found.items()}


def verdict(picture: Picture) -> tuple[str, dict[str, float]]:
    """ "home", "console" or "other", with the shares it was decided on."""
    found = shares(picture)
    if (
        found["background"] >= HOME_BACKGROUND
        and found["button"] >= HOME_BUTTONS
        and found["chosen"] > 0
    ):
        return "home", found
    if found["black"] >= CONSOLE_BLACK:
        return "console", found
    return "other", found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], "rb") as file:
        picture = read_ppm(file.read())
    name, found = verdict(picture)
    described = ", ".join(f"{share:.0%} {colour}" for colour, share in found.items())
    print(f"{picture.width}x{picture.height}, {name} ({described})")
    return 0 if name == "home" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
