"""Label textures kept for the texts a kiosk shows again.

A label's text is rendered by Pillow (a shaping by HarfBuzz, then every
glyph loaded, hinted and drawn by FreeType) into a texture, each time the
label's text or options change. A table shows the same texts over and over:
"Undo" greyed and lit again, "Their turn" moving from seat to seat, a
seat's "3 coins", every word of a screen built again after a language
switch and back. Kept, each is rendered once.

A texture is rendered as Kivy renders it, at its first draw (a label
never drawn costs nothing), and kept from then on, shared by every label
that shows the same text with the same options and size. So no texture is
drawn into again once kept: a label given a new text gets another texture
(Kivy's own refresh would draw the new text into the old one). The oldest
go first, past ``PIXELS_KEPT``; a texture as large as a whole screen's
text (``LARGEST``) is not kept. A GL context lost and made again (not on a
Pi or a desktop: on Android) would leave the kept ones blank."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

PIXELS_KEPT = 4_000_000  # some 16 MB of RGBA, in the GPU's memory
LARGEST = 200_000  # pixels: a longer text is seldom shown twice


def keep_label_textures() -> None:
    """Render each label's text once (for the window's life)."""
    from kivy.core.text import LabelBase
    from kivy.graphics.texture import Texture

    if getattr(LabelBase, "_kept_textures", None) is not None:
        return
    kept: OrderedDict[tuple, Any] = OrderedDict()
    LabelBase._kept_textures = kept
    held = [0]  # the kept textures' pixels

    def key(label: Any) -> tuple:
        width, height = label._size
        return (label.text, width, height, _frozen(label.options))

    def refresh(label: Any) -> None:
        """Kivy's ``LabelBase.refresh``, with the textures kept."""
        label.resolve_font_name()
        width, height = label.render()  # the layout: lines, shortening, size
        label._size_texture = label._size = (width, height)
        if width <= 1 or height <= 1:
            label.texture = label.texture_1px
            return
        wanted = key(label)
        texture = kept.get(wanted)
        if texture is not None:
            kept.move_to_end(wanted)
        else:
            texture = Texture.create(
                size=(width, height),
                mipmap=label.options["mipmap"],
                callback=lambda made, label=label: fill(label, made),
            )
            texture.flip_vertical()
        label.texture = texture

    def fill(label: Any, texture: Any) -> None:
        """A texture made for a label, at its first draw: render the label's
        text into it, and keep it (it is drawn into no more). A label that
        took another texture since leaves this one as it is (nothing shows
        it)."""
        if label.texture is not texture:
            return
        label._render_real()  # draws into label.texture
        found = key(label)
        if texture.width * texture.height > LARGEST or found in kept:
            return
        kept[found] = texture
        held[0] += texture.width * texture.height
        while held[0] > PIXELS_KEPT:
            _key, old = kept.popitem(last=False)
            held[0] -= old.width * old.height

    LabelBase.refresh = refresh


def _frozen(options: dict[str, Any]) -> tuple:
    """The options as a key (their lists as tuples), but their ``text``: a
    label's options keep the text it was made with, the label its own."""
    return tuple(
        (name, tuple(value) if isinstance(value, list) else value)
        for name, value in sorted(options.items())
        if name != "text"
    )
