"""The translated user guides (docs/user/<lang>.md) against README.md's "## Using it".

The English section is parsed at test time, so a change to it that the
translations do not follow fails here: the same bullets, the same command
blocks verbatim, the same inline commands and links, each guide in its own
script, and the on-screen button names exactly as the language's catalog has
them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.i18n import catalog

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = ROOT / "docs" / "user"
LANGS = ("el", "ru", "fa")

FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
BULLET = re.compile(r"^- ", re.M)
TAG = re.compile(r"<[^>]+>")

# The buttons the English section names, by catalog key.
BUTTONS = (
    "ui.home",
    "home.resume",
    "home.history",
    "home.start",
    "settings.title",
    "ui.log",
    "ui.chart",
    "ui.phones",
    "web.join_button",
    "ui.new_game",
    "cmd.undo",
    "ui.cancel",
)

SCRIPTS = {
    "el": lambda c: "\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff",
    "ru": lambda c: "\u0400" <= c <= "\u04ff",
    "fa": lambda c: (
        "\u0600" <= c <= "\u06ff" or "\ufb50" <= c <= "\ufdff" or "\ufe70" <= c <= "\ufeff"
    ),
}


def readme_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Using it\n")
    return text[start : text.index("\n## ", start + 1)]


def guide(lang: str) -> str:
    return (GUIDES / f"{lang}.md").read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return FENCE.sub("", text)


def words(text: str) -> str:
    """What a reader reads: no code, no link targets, no tags, one space between words."""
    text = INLINE_CODE.sub(" ", prose(text))
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    return re.sub(r"\s+", " ", TAG.sub(" ", text))


def resolved_links(text: str, base: Path) -> set[Path]:
    links = set()
    for target in LINK.findall(prose(text)):
        assert "://" not in target, f"an outside link in the user section: {target}"
        links.add((base / target.split("#", 1)[0]).resolve())
    return links


def content_links(links: set[Path]) -> set[str]:
    """Links minus the language switch (README and the guides themselves)."""
    switch = {README.resolve(), GUIDES.resolve(), *(p.resolve() for p in GUIDES.glob("*.md"))}
    return {str(p.relative_to(ROOT)) for p in links - switch}


def button_label(lang: str, key: str) -> str:
    """The button's text as the screen shows it, up to its first placeholder."""
    text = catalog(lang)[key]
    return text.split("{", 1)[0].strip(' «“"')


def named(label: str, text: str) -> bool:
    """The label as a whole word or phrase, not inside a longer (inflected) word."""
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text) is not None


def test_the_english_section_names_the_catalog_buttons():
    text = words(readme_section())
    for key in BUTTONS:
        assert named(button_label("en", key), text), key


@pytest.mark.parametrize("lang", LANGS)
def test_same_bullets(lang):
    assert len(BULLET.findall(prose(guide(lang)))) == len(BULLET.findall(prose(readme_section())))


@pytest.mark.parametrize("lang", LANGS)
def test_same_command_blocks_verbatim(lang):
    assert FENCE.findall(guide(lang)) == FENCE.findall(readme_section())


@pytest.mark.parametrize("lang", LANGS)
def test_same_inline_commands(lang):
    english = set(INLINE_CODE.findall(prose(readme_section())))
    assert set(INLINE_CODE.findall(prose(guide(lang)))) == english


@pytest.mark.parametrize("lang", LANGS)
def test_same_links_and_they_exist(lang):
    english = resolved_links(readme_section(), ROOT)
    ours = resolved_links(guide(lang), GUIDES)
    for path in english | ours:
        assert path.exists(), f"broken link to {path}"
    assert content_links(ours) == content_links(english)
    assert README.resolve() in ours, "the guide links back to the English section"


@pytest.mark.parametrize("lang", LANGS)
def test_written_in_its_own_script(lang):
    def share(text: str) -> float:
        letters = [c for c in words(text) if c.isalpha()]
        return sum(map(SCRIPTS[lang], letters)) / len(letters)

    assert share(guide(lang)) > 0.8
    assert share(readme_section()) < 0.05  # the measure can tell


@pytest.mark.parametrize("lang", LANGS)
def test_buttons_named_as_on_screen(lang):
    text = words(guide(lang))
    missing = [
        (key, button_label(lang, key))
        for key in BUTTONS
        if not named(button_label(lang, key), text)
    ]
    assert not missing


def test_persian_is_right_to_left_with_commands_left_to_right():
    text = guide("fa")
    lines = text.strip().splitlines()
    assert lines[0] == '<div dir="rtl">' and lines[1] == "" and lines[-1] == "</div>"
    assert lines[-2] == ""
    assert text.count("<div") == text.count("</div>")
    for block in FENCE.finditer(text):
        before = text[: block.start()].rstrip().rsplit("\n", 1)[-1]
        after = text[block.end() :].lstrip().split("\n", 1)[0]
        assert (before, after) == ('<div dir="ltr">', "</div>")
