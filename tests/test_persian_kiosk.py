"""Persian on the kiosk's own screen, read off the pixels Kivy draws: words
shaped and joined, a Latin player name and Persian digits in their places
in a right-to-left sentence, brackets mirrored, wrapped lines in order and
right-aligned, and the screens' rows and grids mirrored."""

from __future__ import annotations

import pytest

from companion.i18n import Messages

pytest.importorskip("kivy.base")
from kivy.uix.label import Label  # noqa: E402
from PIL import Image, ImageChops, ImageStat  # noqa: E402
from ui_helpers import SHOTS, frames, show, tap  # noqa: E402

FONT = 32


def drawn(
    window,
    tmp_path,
    text: str,
    width: int | None = None,
    halign: str = "left",
    lang: str = "fa",
    base_direction: str | None = None,
):
    """``text`` as a kiosk in ``lang`` draws it (each line a paragraph of the
    language's direction, or of the label's ``base_direction``), as a
    greyscale image (ink is bright)."""
    from companion.ui.text.direction import writing

    writing.use(lang)
    label = Label(
        text=text,
        font_size=FONT,
        color=(1, 1, 1, 1),
        halign=halign,
        size_hint=(None, None),
        base_direction=base_direction,
    )
    if width is None:
        label.bind(texture_size=lambda lbl, size: setattr(lbl, "size", size))
    else:
        label.text_size = (width, None)
        label.bind(texture_size=lambda lbl, size: setattr(lbl, "size", (width, size[1])))
    show(window, label, (800, 480))
    frames(3)
    path = tmp_path / f"text-{abs(hash((text, width, lang, base_direction)))}.png"
    label.export_to_png(str(path))
    return Image.open(path).convert("L")


def ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    box = image.point(lambda v: 255 if v > 60 else 0).getbbox()
    assert box is not None, "nothing was drawn"
    return box


def find(image: Image.Image, piece: Image.Image) -> tuple[int, int, float]:
    """Where ``piece`` (its inked part) lies in ``image``: the left and top of
    the best match and how far from exact it is (mean difference, 0–255)."""
    piece = piece.crop(ink_box(piece))
    best = (0, 0, 255.0)
    for top in range(0, image.height - piece.height + 1):
        for left in range(0, image.width - piece.width + 1):
            window_part = image.crop((left, top, left + piece.width, top + piece.height))
            score = ImageStat.Stat(ImageChops.difference(window_part, piece)).mean[0]
            if score < best[2]:
                best = (left, top, score)
    return best


def shrink(image: Image.Image) -> Image.Image:
    """Only the inked rows (the search runs along one line of text)."""
    box = ink_box(image)
    return image.crop((0, box[1], image.width, box[3]))


def test_the_kiosk_can_draw_right_to_left(window):
    from companion.ui.text.fonts import kiosk_languages, right_to_left_ready

    assert right_to_left_ready(), (
        "Persian needs Kivy's SDL2_ttf with HarfBuzz (or Pillow with raqm) and "
        "the system's FriBiDi (apt install libfribidi0)"
    )
    assert "fa" in kiosk_languages()


def test_a_persian_sentence_with_a_latin_name_and_digits_reads_right_to_left(window, tmp_path):
    t = Messages("fa", ["Sara", "Omid"])
    sentence = t("log.exchange_drawn", player=0, count=2)
    # The name is set apart from the sentence (a first-strong isolate), and
    # the count is written in Persian digits.
    assert sentence == "\u2068Sara\u2069 ۲ کارت از دربار می‌کشد."
    line = drawn(window, tmp_path, sentence)
    pieces = {word: drawn(window, tmp_path, word) for word in ("Sara", "۲", "کارت", "دربار")}
    found = {}
    for word, piece in pieces.items():
        left, _top, score = find(shrink(line), shrink(piece))
        assert score < 20, f"{word} is not drawn as it is alone (difference {score:.0f})"
        found[word] = left
    # Logical order Sara, ۲, کارت, دربار: on the screen, right to left.
    assert found["Sara"] > found["۲"] > found["کارت"] > found["دربار"], found
    # The sentence starts at the right: the name is its rightmost part, the
    # full stop its leftmost.
    assert (
        found["Sara"] + ink_box(pieces["Sara"])[2] - ink_box(pieces["Sara"])[0]
        >= ink_box(line)[2] - 2
    )


def test_a_persian_name_typed_at_the_kiosk_keeps_an_english_line_left_to_right(window, tmp_path):
    t = Messages("en", ["ناتاشا", "Omid"])
    sentence = t("status.action", player=0)
    assert sentence == "\u2068ناتاشا\u2069, choose an action."
    line = drawn(window, tmp_path, sentence, lang="en")
    pieces = {
        word: drawn(window, tmp_path, word, lang="en") for word in ("ناتاشا", "choose", "action")
    }
    found = {}
    for word, piece in pieces.items():
        left, _top, score = find(shrink(line), shrink(piece))
        assert score < 20, f"{word} is not drawn as it is alone (difference {score:.0f})"
        found[word] = left
    # Left to right, the name first, as English reads ("ناتاشا, choose an
    # action."), not turned around by the name (".choose an action ,ناتاشا").
    assert found["ناتاشا"] < found["choose"] < found["action"], found
    assert found["ناتاشا"] <= ink_box(line)[0] + 2


def test_persian_letters_are_joined(window, tmp_path):
    joined = drawn(window, tmp_path, "می‌کشید")
    # The same letters kept from joining (a zero-width non-joiner between each).
    apart = drawn(window, tmp_path, "\u200c".join("می‌کشید".replace("\u200c", "")))
    joined_width = ink_box(joined)[2] - ink_box(joined)[0]
    apart_width = ink_box(apart)[2] - ink_box(apart)[0]
    assert joined_width < apart_width * 0.85, (joined_width, apart_width)


def test_brackets_are_mirrored_in_a_persian_text(window, tmp_path):
    line = shrink(drawn(window, tmp_path, "بانکدار (Sara)"))
    sara_piece = shrink(drawn(window, tmp_path, "Sara"))
    sara = find(line, sara_piece)[0]
    banker = find(line, shrink(drawn(window, tmp_path, "بانکدار")))[0]
    # Read right to left: the banker, then the bracketed name to its left.
    assert sara < banker, (sara, banker)
    # The glyphs themselves, as a left-to-right line draws them.
    opening = drawn(window, tmp_path, "(", lang="en")
    closing = drawn(window, tmp_path, ")", lang="en")
    room = 2 * (ink_box(opening)[2] - ink_box(opening)[0])
    left_end = ink_box(line)[0]
    before = line.crop((left_end, 0, left_end + room, line.height))
    after = line.crop((sara + sara_piece.width, 0, sara + sara_piece.width + room, line.height))

    def unlike(part, glyph):
        return find(part, glyph)[2]

    # The brackets are mirrored with the text: "(" to the left of the name
    # and ")" to its right, as a reader expects, not ")Sara(".
    assert unlike(before, opening) < unlike(before, closing)
    assert unlike(after, closing) < unlike(after, opening)


def test_wrapped_persian_lines_are_in_order_and_start_at_the_right(window, tmp_path):
    t = Messages("fa", ["Sara", "Omid"])
    sentence = (
        t("log.exchange_drawn", player=1, count=3)
        + " "
        + t("log.exchange_drawn", player=0, count=2)
    )
    image = drawn(window, tmp_path, sentence, width=300, halign="right")
    box = ink_box(image)
    assert box[3] - box[1] > FONT * 2, "the text wraps onto several lines"
    omid_piece = shrink(drawn(window, tmp_path, "Omid"))
    omid = find(image, omid_piece)
    sara = find(image, shrink(drawn(window, tmp_path, "Sara")))
    assert omid[2] < 20 and sara[2] < 20, (omid, sara)
    assert omid[1] < sara[1], "the first sentence's line comes first"
    # Lines start at the right: the text's first word, the name, ends at the
    # right edge of the box.
    assert omid[0] + omid_piece.width >= box[2] - 2 >= image.width - 4, (omid, box)


def _rightmost_first(widgets) -> bool:
    """Kivy lists children last-added first: the first added is rightmost."""
    firsts = list(reversed(widgets))
    return all(a.x > b.x for a, b in zip(firsts, firsts[1:]) if abs(a.y - b.y) < 1)


@pytest.mark.parametrize("lang, mirrored", [("fa", True), ("en", False)])
def test_a_persian_table_screen_runs_right_to_left(window, tmp_path, lang, mirrored):
    from sh_kiosk_helpers import to_phase

    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    screen = show(
        window, SecretHitlerTableScreen(to_phase(tmp_path, "election"), lang=lang), (800, 480)
    )
    chips = screen.ids.ballot.ids.chips.children
    seats = screen.ids.players.children
    bar = screen.ids.bar.ids
    assert _rightmost_first(chips) is mirrored, "seat 1's vote comes first"
    assert _rightmost_first(seats) is mirrored, "seat 1's panel comes first"
    assert (bar.title.x > bar.undo.x) is mirrored, "the title starts the bar"
    assert (bar.info.halign == "right") is mirrored
    assert screen.ids.commands.orientation == ("rl-tb" if mirrored else "lr-tb")
    # The boards' tracks run as printed on the physical board.
    slots = screen.ids.liberal_track.ids.slots.children
    assert slots[-1].x < slots[0].x


def test_the_pin_pad_speaks_persian_digits(window, tmp_path):
    from kiosk_helpers import key, open_panels

    from companion.table import EventStore
    from companion.ui.kiosk import Kiosk
    from companion.ui.system.kiosk_settings import DEFAULT_PIN, KioskSettings

    kiosk = show(
        window,
        Kiosk(
            EventStore(tmp_path / "g.sqlite3"),
            None,
            lang="fa",
            settings=KioskSettings(tmp_path / "kiosk.ini"),
        ),
        (800, 480),
    )
    assert "فارسی" in [b.text for b in kiosk.home.ids.languages.children]

    tap(kiosk.home.ids.settings)
    [pad] = open_panels(window)
    assert sorted(k.text for k in pad.ids.digits.children if len(k.text) == 1) == list("۰۱۲۳۴۵۶۷۸۹")
    for digit in DEFAULT_PIN:
        tap(key(pad, Messages("fa").number(digit)))
    assert pad.entered == DEFAULT_PIN
    tap(pad.ids.ok)
    frames(2)
    [panel] = open_panels(window)
    panel.children[0].export_to_png(str(SHOTS / "settings-fa-800x480.png"))
    assert "۸۰٪" in " ".join(w.text for w in _widgets(panel) if isinstance(w, Label))
    panel.dismiss(animation=False)


def _widgets(widget):
    yield widget
    for child in widget.children:
        yield from _widgets(child)


def raqm_drawn(text: str, direction: str) -> Image.Image:
    """``text`` as Pillow's raqm lays it out in a paragraph of
    ``direction`` (the kiosk's text path before SDL2_ttf), in the kiosk's
    font and size, as a greyscale image (ink is bright)."""
    from pathlib import Path

    import kivy
    from PIL import ImageDraw, ImageFont

    font_file = Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf"
    font = ImageFont.truetype(str(font_file), FONT, layout_engine=ImageFont.Layout.RAQM)
    right, bottom = font.getbbox(text, direction=direction)[2:]
    image = Image.new("L", (right + 8, bottom + 8))
    ImageDraw.Draw(image).text((4, 4), text, fill=255, font=font, direction=direction)
    return image


def placed(line: Image.Image, pieces: dict[str, Image.Image]) -> dict[str, int]:
    """Where each piece starts in ``line``, from the line's left ink edge."""
    found = {}
    for word, piece in pieces.items():
        left, _top, score = find(shrink(line), shrink(piece))
        assert score < 20, f"{word} is not drawn as it is alone (difference {score:.0f})"
        found[word] = left - ink_box(line)[0]
    return found


def assert_drawn_as_raqm_draws(window, tmp_path, text, words, direction, **label):
    kiosk_line = drawn(window, tmp_path, text, **label)
    raqm_line = raqm_drawn(text, direction)
    kiosk = placed(kiosk_line, {w: drawn(window, tmp_path, w, **label) for w in words})
    raqm = placed(raqm_line, {w: raqm_drawn(w, direction) for w in words})
    # The same order, each word within a few pixels of where raqm put it
    # (the two shape alike; their hinting differs by about a pixel a word).
    assert sorted(kiosk, key=kiosk.get) == sorted(raqm, key=raqm.get), (kiosk, raqm)
    assert all(abs(kiosk[w] - raqm[w]) <= 4 for w in words), (kiosk, raqm)
    width = ink_box(kiosk_line)[2] - ink_box(kiosk_line)[0]
    assert abs(width - (ink_box(raqm_line)[2] - ink_box(raqm_line)[0])) <= 4


def test_a_mixed_persian_line_is_drawn_as_raqm_draws_it(window, tmp_path):
    # Persian words joined, Persian digits, a Latin name in an isolate and a
    # bracket, in one right-to-left line: cut into runs by FriBiDi, each
    # shaped by SDL2_ttf, placed in the order raqm places them.
    t = Messages("fa", ["Sara Kim", "Omid"])
    text = t("log.exchange_drawn", player=0, count=12) + " (۳)"
    assert "\u2068Sara Kim\u2069 ۱۲ کارت" in text
    words = ("Sara", "Kim", "۱۲", "کارت", "دربار", "(۳)")
    assert_drawn_as_raqm_draws(window, tmp_path, text, words, "rtl")


def test_a_label_that_copies_the_board_runs_left_to_right_in_persian(window, tmp_path):
    # base_direction "ltr": the paragraph runs left to right whatever the
    # kiosk's language, as Pillow drew such a label with direction="ltr".
    text = "۰ ← ۱۵ کارت"
    words = ("۰", "۱۵", "کارت")
    assert_drawn_as_raqm_draws(window, tmp_path, text, words, "ltr", base_direction="ltr")
    ltr = drawn(window, tmp_path, text, base_direction="ltr")
    rtl = drawn(window, tmp_path, text)
    zero = drawn(window, tmp_path, "۰")
    assert find(shrink(ltr), shrink(zero))[0] < find(shrink(rtl), shrink(zero))[0]


def test_the_kiosk_draws_with_sdl2_and_says_it_can_draw_persian(window, tmp_path):
    from kivy.core.text import Label as CoreLabel

    from companion.ui.text.fonts import kiosk_languages, right_to_left_ready

    # The fast path: Kivy's SDL2 text, its lines cut into runs.
    assert CoreLabel.__name__ == "LabelSDL2"
    assert right_to_left_ready() and "fa" in kiosk_languages()
    # What it says is so: a Persian word is drawn joined, and a line of two
    # words reads right to left.
    joined = ink_box(drawn(window, tmp_path, "کارت"))
    apart = ink_box(drawn(window, tmp_path, "\u200c".join("کارت")))
    assert joined[2] - joined[0] < (apart[2] - apart[0]) * 0.9
    line = shrink(drawn(window, tmp_path, "کارت دربار"))
    first = find(line, shrink(drawn(window, tmp_path, "کارت")))[0]
    second = find(line, shrink(drawn(window, tmp_path, "دربار")))[0]
    assert first > second


def test_the_layout_oracle_hears_each_line_and_its_direction(window):
    # The oracle's direction check listens to the lines the text path
    # draws: a line laid out from its own first strong character (the
    # kiosk writing left to right) is heard as such, and found misread.
    # (Kivy may draw a label twice over: a texture's pending refill runs
    # when the texture is next written to.)
    from layout_oracle import drawn_lines, misread_lines

    from companion.ui.text.direction import writing

    label = Label(text="۰ ← ۱۵", font_size=FONT, size_hint=(None, None))
    show(window, label, (800, 480))
    try:
        writing.use("en")
        frames(2)
        assert set(drawn_lines(label)) == {("۰ ← ۱۵", None)}
        assert set(misread_lines(label)) == {"drawn left to right: '۰ ← ۱۵'"}
        writing.use("fa")
        frames(2)
        assert set(drawn_lines(label)) == {("۰ ← ۱۵", "rtl")}
        assert misread_lines(label) == []
    finally:
        writing.use("en")
