"""The phone pages' sentences run the page's way, whoever they name: an
English page stays left to right when a sentence begins with a Persian
name, a Persian page right to left when it begins with a Latin one; each
name reads in its own direction, set apart. And no text spills out of its
box or off the screen.

Over /table and a seat's page of every game, at a phone's size (390×844)
and a desktop's (1280×800), in English and Persian, with Persian and Latin
names that the table's sentences put first, in the middle and last. The
names are set as a table sets them: the kiosk renames the seats (the
operator's rename, as its phones panel does) and the seat's own page
renames its player with its rename form. Every element that holds text is
checked in the real chromium: its computed direction and the one the
browser resolves for it (``:dir()``) are the page's, its paragraphs do not
take their direction from their first letter (``unicode-bidi:
plaintext``), the words next to each name sit on the side the page reads
from, and nothing is wider than its box or the viewport."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from a27_helpers import PK, a27_table, bribe, propose
from browser import NO_PLAYWRIGHT, serve_in_thread, shot, take_seat
from g54_helpers import challenge_lost
from sh_helpers import elect, nominate, sh_table

from companion.games.base import Fate, Setup
from companion.i18n import translate
from companion.table import OPERATOR, Table
from companion.web.server import TableServer

expect = pytest.importorskip("playwright.sync_api", reason=NO_PLAYWRIGHT).expect

PERSIAN = ("مریم", "نیلوفر", "داریوش")
LATIN = ("Konstantinos", "Alexandra", "Maximilian")
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LOCALES = {"en": "en-GB", "fa": "fa-IR"}


def sh_discard(store) -> tuple[Table, int]:
    """Secret Hitler, keeper mode: the President (seat 0) discards on the phone."""
    table = sh_table(store, 5, mode="keeper")
    elect(table, 1)
    return table, 0


def a27_offer(store) -> tuple[Table, int]:
    """Article 27: an issue proposed, seat 1 may offer a bribe; it has
    offered two with words of its own (free text, one in each script), one
    taken, one waiting for an answer."""
    table = a27_table(store, 4)
    propose(table, PK, call_vote=False)
    bribe(table, 1, 0, 1, "other", text="کمک در دور بعد")
    bribe(table, 1, 2, 1, "other", text="Help next round", accept=False)
    return table, 1


def coup_turn(store) -> tuple[Table, int]:
    """Coup, keeper mode: seat 0's turn, every action on its phone."""
    setup = Setup(game="coup", seats=["A", "B", "C"], mode="keeper", options={"first": 0})
    return Table.start(store, setup, fate=Fate(seed=3)), 0


def g54_loss(store) -> tuple[Table, int]:
    """G54: seat 1 challenged and lost, and turns up a card on the phone."""
    return challenge_lost(store), 1


def g54_bribery(store) -> tuple[Table, int]:
    """G54: seat 1 claims the Politician's Bribery of seat 0 (a sentence that
    ends with a name in Persian too); seat 0's page."""
    setup = Setup(
        game="g54", seats=["A", "B", "C"], mode="keeper", options={"first": 1, "set": "starter"}
    )
    deal = {
        "hands": [["banker", "director"], ["guerrilla", "politician"], ["peacekeeper", "banker"]]
    }
    table = Table.start(store, setup, fate=Fate(seed=3, script=deal))
    table.execute({"type": "politician", "seat": 1, "target": 0})
    return table, 0


GAMES: dict[str, Callable[..., tuple[Table, int]]] = {
    "secret_hitler": sh_discard,
    "article27": a27_offer,
    "coup": coup_turn,
    "g54": g54_loss,
    "g54_bribery": g54_bribery,
}


def names_for(players: int) -> list[str]:
    """A Persian name, a Latin one, in turn round the table."""
    return [(PERSIAN, LATIN)[seat % 2][seat // 2 % 3] for seat in range(players)]


# Runs in the page: every visible element holding text of its own, what is
# wrong with its direction, its overflow, and where each name sits in its
# sentence (and whether the words beside it sit on the side they should).
CHECK = r"""
([names, pageDir]) => {
  const MARKS = /[\u2066-\u2069\u200e\u200f\u202a-\u202e]/g;
  const problems = [];
  const positions = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  }
  const where = (el) => {
    const id = el.closest("[id]");
    return `${el.tagName.toLowerCase()}${el.className ? "." + el.className : ""}`
      + ` in #${id ? id.id : "?"} "${el.textContent.trim().slice(0, 60)}"`;
  };
  // Text of its own: in a text node, or in a name set apart (<bdi>) in it.
  const ownText = (el) => [...el.childNodes].some(
    (n) => (n.nodeType === Node.TEXT_NODE || n.localName === "bdi")
      && n.textContent.replace(MARKS, "").trim());
  const isolated = (el) => el.closest("bdi, input, select, option, textarea");
  // A character's box (the first of its boxes), found by its offset in the
  // element's text.
  const texts = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    let at = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push([node, at]);
      at += node.data.length;
    }
    return nodes;
  };
  const rangeOf = (nodes, start, end) => {
    const range = document.createRange();
    const find = (offset, isEnd) => {
      for (const [node, at] of nodes) {
        if (offset < at + node.data.length || (isEnd && offset === at + node.data.length)) {
          return [node, offset - at];
        }
      }
      return null;
    };
    const [a, b] = [find(start, false), find(end, true)];
    if (!a || !b) return null;
    range.setStart(...a);
    range.setEnd(...b);
    return range;
  };
  const box = (range) => {
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    if (!rects.length) return null;
    return {
      left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
      lines: new Set(rects.map((r) => Math.round(r.top))).size,
    };
  };
  const sameLine = (a, b) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
    > 0.5 * Math.min(a.bottom - a.top, b.bottom - b.top);
  let orderChecks = 0;
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.checkVisibility() || !ownText(el) || isolated(el)) continue;
    if (["SCRIPT", "STYLE"].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    if (style.direction !== pageDir) problems.push(`direction ${style.direction}: ${where(el)}`);
    if (!el.matches(`:dir(${pageDir})`)) problems.push(`:dir() is not ${pageDir}: ${where(el)}`);
    if (style.unicodeBidi === "plaintext") problems.push(`unicode-bidi: plaintext: ${where(el)}`);
    const rect = el.getBoundingClientRect();
    if (rect.left < -0.5 || rect.right > width + 0.5) {
      problems.push(`outside the viewport (${rect.left}..${rect.right} of ${width}): ${where(el)}`);
    }
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth) {
      problems.push(`overflows (${el.scrollWidth} > ${el.clientWidth}): ${where(el)}`);
    }
    // Each name in the element's text: its place in the sentence, and the
    // words beside it on the page's side of it.
    const nodes = texts(el);
    const full = nodes.map(([node]) => node.data).join("");
    for (const name of names) {
      let from = 0;
      for (let index = full.indexOf(name); index >= 0; index = full.indexOf(name, from)) {
        from = index + name.length;
        const before = full.slice(0, index).replace(MARKS, "").trim();
        const after = full.slice(from).replace(MARKS, "").trim();
        if (!before && !after) continue;        // a name alone: no sentence
        const position = !before ? "first" : /^[\p{P}\s]*$/u.test(after) ? "last" : "middle";
        positions.push({ name, position });
        const nameBox = box(rangeOf(nodes, index, from));
        if (!nameBox || nameBox.lines > 1) continue;
        const neighbour = (offset, step) => {
          for (let i = offset; i >= 0 && i < full.length; i += step) {
            if (!/[\s\u2066-\u2069\u200e\u200f\u202a-\u202e]/u.test(full[i])) {
              return box(rangeOf(nodes, i, i + 1));
            }
          }
          return null;
        };
        const next = neighbour(from, 1);
        const previous = neighbour(index - 1, -1);
        const rtl = pageDir === "rtl";
        if (next && sameLine(next, nameBox)) {
          orderChecks += 1;
          const ok = rtl ? next.right <= nameBox.left + 1 : next.left >= nameBox.right - 1;
          if (!ok) problems.push(`what follows ${name} is not after it: ${where(el)}`);
        }
        if (previous && sameLine(previous, nameBox)) {
          orderChecks += 1;
          const ok = rtl ? previous.left >= nameBox.right - 1 : previous.right <= nameBox.left + 1;
          if (!ok) problems.push(`what comes before ${name} is not before it: ${where(el)}`);
        }
      }
    }
  }
  return { problems, positions, orderChecks };
}
"""


def check(page, names: list[str], lang: str) -> dict:
    expect(page.locator("#link")).to_have_attribute("data-state", "open")
    for details in page.locator("details").all():
        details.evaluate("element => { element.open = true; }")
    return page.evaluate(CHECK, [names, "rtl" if lang == "fa" else "ltr"])


@pytest.mark.parametrize("lang", LOCALES)
def test_every_sentence_runs_the_page_s_way_and_nothing_spills(store, phones, lang):
    covered: set[tuple[str, str]] = set()
    order_checks = 0
    problems: list[str] = []
    for game, make in GAMES.items():
        table, seat = make(store)
        names = names_for(table.setup.players)
        mine = names[seat]
        for other in range(table.setup.players):
            if other != seat:
                table.execute(
                    {"type": "rename", "seat": other, "name": names[other]}, source=OPERATOR
                )
        server = TableServer(table)
        with serve_in_thread(server.app()) as base:
            token = base.on_loop(
                lambda links=server.links, t=table, s=seat: links.token(t.game_id, s)
            )
            page = phones(LOCALES[lang])
            take_seat(page, f"{base}/join/{token}")
            expect(page.locator("#link")).to_have_attribute("data-state", "open")
            page.locator("#rename-title").click()
            page.locator("#rename-name").fill(mine)
            page.locator("#rename-save").click()
            expect(page.locator("#name")).to_have_text(mine)
            table_page = phones(LOCALES[lang])
            table_page.goto(f"{base}/table")
            for size, viewport in SIZES.items():
                for which, shown in (("seat", page), ("table", table_page)):
                    shown.set_viewport_size(viewport)
                    found = check(shown, names, lang)
                    problems += [f"{game} {which} {size} {lang}: {p}" for p in found["problems"]]
                    order_checks += found["orderChecks"]
                    for spot in found["positions"]:
                        script = "persian" if spot["name"] in PERSIAN else "latin"
                        covered.add((script, spot["position"]))
                    shot(shown, f"directions-{game}-{which}-{size}-{lang}")
                # The secrets too, shown by their button (here a key).
                page.locator("#reveal").focus()
                page.keyboard.press(" ")
                expect(page.locator("#secret-lines")).to_be_visible()
                found = check(page, names, lang)
                problems += [f"{game} secrets {size} {lang}: {p}" for p in found["problems"]]
                page.keyboard.press(" ")
                expect(page.locator("#secret-lines")).to_be_hidden()
    assert not problems, "\n".join(problems)
    every = {(script, at) for script in ("persian", "latin") for at in ("first", "middle", "last")}
    assert covered == every, f"names not seen in every place: {every - covered}"
    assert order_checks > 50, order_checks


def test_a_word_of_the_other_direction_alone_reads_its_own_way(store, phones):
    """A button that holds only a word of the other direction ("Ja!" on a
    Persian page) is set apart whole: it reads "Ja!", not "!Ja", while the
    button itself runs right to left like the page."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    server = TableServer(table)
    with serve_in_thread(server.app()) as base:
        page = phones(LOCALES["fa"])
        take_seat(page, f"{base}/join/{base.on_loop(lambda: server.links.token(table.game_id, 1))}")
        ja = page.locator("#actions button").first
        expect(ja).to_have_text(translate("choice.ja", "fa"))  # "Ja!" and a left-to-right mark
        assert ja.evaluate("button => getComputedStyle(button).direction") == "rtl"
        left_to_right = ja.evaluate(
            """button => {
                const text = document.createTreeWalker(button, NodeFilter.SHOW_TEXT).nextNode();
                const box = (i) => {
                    const range = document.createRange();
                    range.setStart(text, i);
                    range.setEnd(text, i + 1);
                    return range.getBoundingClientRect();
                };
                return box(0).left < box(2).left;
            }"""
        )
        assert left_to_right, "the J is left of the !"
