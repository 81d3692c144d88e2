"""Colour maths for the colour and contrast tests: colour-vision deficiencies
simulated with colorspacious (Machado et al. 2009 at full severity, that is
deuteranopia, protanopia and tritanopia), distances in CAM02-UCS, WCAG 2
contrast ratios, the contrast of text read from a screenshot's pixels, and the
palettes of the stylesheets (their custom properties)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

colorspacious = pytest.importorskip("colorspacious", reason="colorspacious is in the test extra")

# colorspacious's names: at severity 100 each anomaly is the full deficiency.
DEFICIENCIES = {
    "deuteranopia": "deuteranomaly",
    "protanopia": "protanomaly",
    "tritanopia": "tritanomaly",
}
# Two colours that mean different things are at least this far apart in
# CAM02-UCS, in normal vision and under each simulated deficiency. About 1 is
# a just-noticeable difference and 10 is obvious side by side; 20 keeps two
# categories apart at a glance, across a table, on a screen in a bright café
# (the blue and the orange of the Okabe-Ito set are 50-65 apart for everyone).
MIN_DELTA_E = 20.0
# WCAG 2 AA: normal text 4.5:1, large text 3:1.
MIN_CONTRAST, MIN_CONTRAST_LARGE = 4.5, 3.0


def simulate(rgb: Sequence[float] | np.ndarray, deficiency: str | None) -> np.ndarray:
    """sRGB in 0..1 (a colour, or an image's H×W×3 array) as a person with
    ``deficiency`` (a key of DEFICIENCIES, or None for normal vision) sees it."""
    rgb = np.asarray(rgb, dtype=float)[..., :3]
    if deficiency is None:
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": DEFICIENCIES[deficiency], "severity": 100}
    return np.clip(colorspacious.cspace_convert(rgb, cvd, "sRGB1"), 0, 1)


def delta_e(a: Sequence[float], b: Sequence[float], deficiency: str | None = None) -> float:
    """CAM02-UCS distance of two sRGB colours (0..1) as seen with ``deficiency``."""
    return float(
        colorspacious.deltaE(simulate(a, deficiency), simulate(b, deficiency), input_space="sRGB1")
    )


def worst_delta_e(a: Sequence[float], b: Sequence[float]) -> tuple[float, str]:
    """The smallest distance of the two over normal vision and every deficiency."""
    return min((delta_e(a, b, d), d or "normal") for d in (None, *DEFICIENCIES))


def luminance(rgb: Sequence[float] | np.ndarray) -> np.ndarray:
    """WCAG 2 relative luminance of sRGB (0..1), for a colour or an array of them."""
    c = np.asarray(rgb, dtype=float)[..., :3]
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    la, lb = float(luminance(a)), float(luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def is_large(font_px: float, bold: bool) -> bool:
    """WCAG's large text: 18 pt (24 CSS px), or 14 pt (18.66 px) bold. A Kivy
    label's font_size is in pixels at the kiosk's density 1, as a CSS px is."""
    return font_px >= 24 or (bold and font_px >= 18.66)


@dataclass
class Reading:
    text: str
    ratio: float
    needed: float
    colour: tuple
    background: tuple

    def __str__(self) -> str:
        return (
            f"{self.text[:40]!r}: {self.ratio:.2f}:1 (needs {self.needed}), "
            f"text {self.colour} on {self.background}"
        )


def text_contrast(pixels: np.ndarray) -> tuple[float, tuple, tuple]:
    """The contrast of the text in a crop of a screenshot (H×W×3 or ×4, 0..255)
    that holds one text on its background: the background is the crop's most
    common colour; the text is the colour, among those covering a fair number of
    pixels (glyphs' cores, not a stray edge's antialiasing), that stands out
    most from it. Returns the ratio, the text's colour and the background's
    (1:1 for a crop that shows nothing but its background)."""
    rgb = [tuple(p) for p in pixels[..., :3].reshape(-1, 3).tolist()]
    counts = Counter(rgb)
    background, _ = counts.most_common(1)[0]
    others = len(rgb) - counts[background]
    if others == 0:  # no text to be seen: no contrast at all
        return 1.0, background, background
    enough = max(2, others // 200)
    candidates = [colour for colour, n in counts.items() if n >= enough and colour != background]
    if not candidates:  # a tiny text: its darkest or lightest pixel, however few
        candidates = [colour for colour in counts if colour != background]
    bg = np.array(background) / 255
    ratios = [(contrast(np.array(c) / 255, bg), c) for c in candidates]
    ratio, text = max(ratios)
    return ratio, text, background


def css_palette(css: str, block: str = ":root") -> dict[str, str]:
    """The custom properties (``--name: #rrggbb``) of the first rule ``block``
    opens after an optional media query in ``css``."""
    match = re.search(re.escape(block) + r"\s*\{([^}]*)\}", css)
    assert match, f"no {block} rule"
    return dict(re.findall(r"--([\w-]+)\s*:\s*(#[0-9a-fA-F]{6})", match.group(1)))


def hex_rgb(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def read_png(path: Path) -> np.ndarray:
    """A PNG as an H×W×3 array of 0..255, top row first."""
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def write_png(pixels: np.ndarray, path: Path) -> Path:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.asarray(pixels, dtype=np.uint8)).save(path, optimize=True)
    return path


def simulate_image(pixels: np.ndarray, deficiency: str) -> np.ndarray:
    """A screenshot (0..255) as seen with ``deficiency``."""
    return np.round(simulate(pixels / 255, deficiency) * 255).astype(np.uint8)


def write_sheet(pixels: np.ndarray, path: Path, scale: float) -> Path:
    """A contact sheet scaled by ``scale`` (smoothly, so that text stays
    text), in at most 256 colours: small enough to commit."""
    from PIL import Image

    image = Image.fromarray(np.asarray(pixels, dtype=np.uint8))
    size = (round(image.width * scale), round(image.height * scale))
    small = image.resize(size, Image.Resampling.LANCZOS).quantize(256)
    path.parent.mkdir(parents=True, exist_ok=True)
    small.save(path, optimize=True)
    return path
