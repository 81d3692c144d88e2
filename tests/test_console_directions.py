"""The console's page read in both directions, in a real Chromium: at a
phone's 390×844 and a desk's 1280×800, in English and in Persian, with
Persian and Latin player names (and a long table name: a table's name is
Latin letters, digits, '-' and '_' by the fleet's rule) wherever the page
puts a name: a card's heading, the players, the seat to re-pair, the
table's status line (a name first; in the middle and last), an error's
message (in the middle), the statistics' labels.

Every element reads in the page's direction (rtl in fa, ltr in en) unless
it is a name set apart (<bdi>, or dir="auto": the browser isolates both);
every name is set apart, by such an element or by Unicode's isolates
(U+2068 … U+2069, as the table words its own lines: there it sets apart
the names written the other way from the line); no text runs out of its
box, and nothing is wider than the window."""

from __future__ import annotations

import pytest
from browser import serve_in_thread, shot
from status_lines import status_lines
from test_console import KEY, PASSWORD, _console_words, signed, status  # noqa: F401

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table

PERSIAN, LATIN = "مریم رضایی", "Alexandra Papadopoulou"
NAMES = (PERSIAN, LATIN, "Ben")
TABLES = ("terrace-window-table-12", "t2")
FENCED = {name: f"\u2068{name}\u2069" for name in NAMES}  # as the table's words set one apart
SIZES = ((390, 844), (1280, 800))

# Problems on the page as it is, one line each; [] when all is well.
CHECK = """([lang, names]) => {
  const want = lang === "fa" ? "rtl" : "ltr";
  const problems = [];
  const where = (el) => el.tagName.toLowerCase()
    + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "")
    + " «" + (el.textContent || "").trim().slice(0, 40) + "»";
  const html = document.documentElement;
  if (html.dir !== want) problems.push("html dir " + html.dir);
  // Set apart to read in its own direction: <bdi>, an inline dir="auto"
  // (the browser isolates both), or an inline isolate of the style sheet's.
  // (Blocks are isolates too, but take the page's direction: a name alone
  // in a heading is not set apart by it; a sentence with dir="auto" turns
  // round when a name of the other direction comes first.)
  const inline = (el) => getComputedStyle(el).display === "inline" || el.tagName === "OPTION";
  const isolate = (el) => el.tagName === "BDI"
    || (inline(el) && el.getAttribute("dir") === "auto")
    || (inline(el) && ["isolate", "plaintext"].includes(getComputedStyle(el).unicodeBidi));
  const isolated = (el) => {
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      if (isolate(at)) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("script, style, title")) continue;
    const dir = getComputedStyle(el).direction;
    if (!isolated(el) && dir !== want) problems.push("direction " + dir + ": " + where(el));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest("script, style")) continue;
    for (const name of names) {
      // A name of the page's own direction reads rightly wherever it is
      // (the table words its lines so, setting apart only the others).
      if (parent.closest("p.line") && /[\u0600-\u06ff]/.test(name) === (want === "rtl")) continue;
      let at = node.data.indexOf(name);
      while (at >= 0) {
        const fenced = node.data[at - 1] === "\\u2068" && node.data[at + name.length] === "\\u2069";
        if (!fenced && !isolated(parent)) problems.push("name not set apart: " + where(parent));
        at = node.data.indexOf(name, at + 1);
      }
    }
  }
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push("page wider than the window: " + document.documentElement.scrollWidth);
  }
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      problems.push("outside the window: " + where(el));
    }
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (text && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== "inline") {
      problems.push("text overflows: " + where(el) + " " + el.scrollWidth + ">" + el.clientWidth);
    }
  }
  return problems;
}"""


def statuses() -> list[dict]:
    """A table playing, a Latin name first and a Persian one, its status
    line the table's own, its error naming a player; one finished, its line
    naming both in the middle and last; both seen by the statistics."""
    table = Table.start(
        EventStore(":memory:"),
        Setup("coup", [LATIN, PERSIAN, "Ben"], "keeper", options={"first": 0}),
        Fate(seed=3),
    )
    table.execute({"type": "steal", "seat": 0, "target": 1})
    playing = {
        **status(),
        "table": TABLES[0],
        "players": {"count": 3, "names": list(table.names)},
        "line": status_lines(table, table.public_view(), table.names),
        "timer": {"running": True, "remaining": 75},
        "health": {
            "phones": [1],
            "disk_free": 10**8,
            "cpu_temp": 61.5,
            "pad": "lost",
            "last_error": {"at": "2026-12-01T19:40:02+00:00", "message": f"seat {PERSIAN} lost"},
        },
    }
    finished = {
        **status(state="finished"),
        "table": TABLES[1],
        "players": {"count": 2, "names": [PERSIAN, LATIN]},
        # Worded as a table words its lines: names in the middle and last.
        "line": {
            "en": f"A tie between {LATIN} and {FENCED[PERSIAN]}; the count to {FENCED[PERSIAN]}",
            "fa": f"تساوی میان {FENCED[LATIN]} و {PERSIAN}؛ شمارش به سود {FENCED[LATIN]}",
        },
    }
    return [playing, finished]


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_console_reads_in_its_language_s_direction_and_fits(tmp_path, browser, lang, size):
    from companion.console.server import Console, make_app
    from companion.console.stats import Stats
    from companion.secret_hash import hash_pin

    console = Console(hash_pin(PASSWORD), KEY, Stats(tmp_path / "c.sqlite3"))
    with serve_in_thread(make_app(console)) as base:
        for message in statuses():
            base.on_loop(lambda m=message: console.receive(m["table"], "status", signed(m)))
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(f"{base}/login?lang={lang}")
        assert page.evaluate(CHECK, [lang, list(NAMES)]) == []
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        page.wait_for_selector(f'article[data-table="{TABLES[1]}"] .players')
        page.locator(f'article[data-table="{TABLES[0]}"] details summary').click()
        text = page.locator("body").inner_text()
        assert all(name in text for name in NAMES) and TABLES[0] in text
        problems = page.evaluate(CHECK, [lang, [*NAMES, *TABLES]])
        shot(page, f"console-directions-{lang}-{size[0]}")
        assert problems == [], "\n".join(problems)
        page.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_check_finds_a_turned_sentence_a_bare_name_and_an_overflow(browser, lang):
    """The check above, on a page with each fault: it finds every one."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_content(
        f'<html dir="{"rtl" if lang == "fa" else "ltr"}"><body>'
        f'<p dir="auto">{PERSIAN if lang == "en" else LATIN}, choose an action.</p>'
        f"<h2>{LATIN}</h2>"
        '<div style="width:60px;overflow:hidden;white-space:nowrap">a line that runs out</div>'
        '<div style="width:900px">wider than a phone</div></body></html>'
    )
    found = page.evaluate(CHECK, [lang, [PERSIAN, LATIN]])
    page.close()
    kinds = {problem.split(":")[0].split(" ")[0] for problem in found}
    assert {"direction", "name", "text", "outside", "page"} <= kinds, found
