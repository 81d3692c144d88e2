"""A page as a person sees it, read from its pixels (Playwright, chromium):
each element that holds text of its own, its box, and its text's contrast
measured in a screenshot of the whole page."""

from __future__ import annotations

import io

import numpy as np
from colour_helpers import MIN_CONTRAST, MIN_CONTRAST_LARGE, Reading, is_large, text_contrast
from PIL import Image

# Every shown element with a text node of its own (not in a closed <details>,
# not transparent; a list of its options is drawn by the browser's own menu,
# not the page); its box in CSS pixels.
TEXTS = """() => [...document.body.querySelectorAll("*")]
  .filter((e) => e.tagName !== "OPTION" && e.tagName !== "SCRIPT")
  .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .filter((e) => e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
  .map((e) => {
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    return {
      text: e.textContent.trim(), x: box.x + scrollX, y: box.y + scrollY,
      width: box.width, height: box.height, size: parseFloat(style.fontSize),
      bold: parseInt(style.fontWeight, 10) >= 700, disabled: e.disabled === true,
    };
  })"""


def page_readings(page) -> list[Reading]:
    """Each text's contrast on ``page`` as drawn now (a disabled control's
    text is left out: WCAG asks nothing of it)."""
    scale = page.evaluate("() => devicePixelRatio")
    with Image.open(io.BytesIO(page.screenshot(full_page=True))) as image:
        pixels = np.asarray(image.convert("RGB"))
    found = []
    for text in page.evaluate(TEXTS):
        if text["disabled"]:
            continue
        left, top = int(text["x"] * scale), int(text["y"] * scale)
        right = int((text["x"] + text["width"]) * scale)
        bottom = int((text["y"] + text["height"]) * scale)
        crop = pixels[max(top, 0) : bottom, max(left, 0) : right]
        if crop.size == 0:
            continue
        ratio, colour, background = text_contrast(crop)
        needed = MIN_CONTRAST_LARGE if is_large(text["size"], text["bold"]) else MIN_CONTRAST
        found.append(Reading(text["text"], ratio, needed, colour, background))
    return found
