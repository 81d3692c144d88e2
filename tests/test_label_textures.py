"""Label textures kept (companion/ui/label_textures.py), in a real Kivy
window: a text shown again takes the texture already rendered (kept at its
first draw), and a kept texture is never drawn into again, whatever the
label that made it shows next."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy.base")
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from ui_helpers import frames, show  # noqa: E402


def labels(window, *texts, **options):
    box = BoxLayout(orientation="vertical")
    made = [Label(text=text, font_size=20, **options) for text in texts]
    for label in made:
        box.add_widget(label)
    show(window, box, (400, 300))
    return made


def test_a_text_drawn_once_is_shared_by_the_next_label_that_shows_it(window):
    first, second = labels(window, "Their turn · 7 coins", "")
    second.text = "Their turn · 7 coins"  # a frame after the first was drawn
    frames(2)
    assert first.texture is second.texture
    pixels = bytes(first.texture.pixels)
    assert pixels.strip(b"\x00"), "the text was drawn"

    first.text = "To answer"  # the label takes another texture ...
    frames(2)
    assert first.texture is not second.texture
    assert bytes(second.texture.pixels) == pixels, "... and the kept one shows what it did"

    first.text = "Their turn · 7 coins"  # back again: the kept texture, not a new render
    frames(2)
    assert first.texture is second.texture


def test_a_text_in_another_colour_or_size_is_another_texture(window):
    plain, red = labels(window, "Undo", "Undo")
    red.color = (1, 0.3, 0.3, 1)
    frames(2)
    assert plain.texture is not red.texture
    big = labels(window, "Undo")[0]
    big.font_size = 30
    frames(2)
    assert big.texture.size != plain.texture.size


def test_the_oldest_go_past_the_budget(window, monkeypatch):
    from kivy.core.text import LabelBase

    from companion.ui import label_textures

    kept = LabelBase._kept_textures
    monkeypatch.setattr(label_textures, "PIXELS_KEPT", 20_000)
    shown = labels(window, *(f"Round {n}: Player {n} takes the gavel" for n in range(12)))
    assert all(label.texture is not None for label in shown)
    held = sum(texture.width * texture.height for texture in kept.values())
    assert held <= 20_000
    last = shown[-1]
    assert any(texture is last.texture for texture in kept.values()), "the newest stay"
