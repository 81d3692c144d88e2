"""The public board as plain data: what the kiosk's screen shows of a
game, in the reader's words, for the pages that show it too (the public
table and each seat's page, under its own secrets). No Kivy and no rules:
a game's words build it from the public view alone, so it carries no
secret, and the pages draw every game's board the same way.

A board is a dict, ready for JSON::

    {"seats": [Seat...], "parts": [Part...]}

A seat is one player's panel: ``name``, ``state`` (its colour on the
kiosk, in words: "Their turn"), ``tone`` (that colour's meaning, for the
page's style: one of ``TONES``), ``lines`` (what the table knows of it) and
``icons``, one list per line of the pieces drawn before it (the coin before
the coins, the characters a player turned up before their names).
A part is one piece of the board: ``key`` (which, for the page's style),
``title``, ``kind`` (one of ``KINDS``), ``note`` (a line under it) and
``items``, each a ``text`` (and a ``detail`` under it) with whether it is ``on`` (a filled slot, a
vote cast), its ``tone`` and, where a piece is drawn, its ``icon`` (and the
``detail_icon`` drawn before the detail: the agenda an issue's disk shows).

An icon is named by the game's own name for its piece (its spec's
``icons``), "" for none; it is decoration beside the words, which say
everything it shows.
"""

from __future__ import annotations

from typing import Any

Board = dict[str, Any]
Part = dict[str, Any]
Item = dict[str, Any]
Seat = dict[str, Any]

# What a seat's or an item's colour means; the words always say it too.
TONES = ("", "turn", "waiting", "winner", "out", "office", "cool", "warm", "danger")
# How a part is laid out: lines of text, a track of slots in a row, a row of
# tiles, the ballot's seats.
KINDS = ("lines", "track", "tiles", "ballot")


def item(
    text: str,
    detail: str = "",
    on: bool = False,
    tone: str = "",
    icon: str = "",
    detail_icon: str = "",
) -> Item:
    assert tone in TONES, tone
    return {
        "text": text,
        "detail": detail,
        "on": on,
        "tone": tone,
        "icon": icon,
        "detail_icon": detail_icon,
    }


def part(key: str, title: str, items: list[Item], kind: str = "lines", note: str = "") -> Part:
    assert kind in KINDS, kind
    return {"key": key, "title": title, "kind": kind, "note": note, "items": items}


def lines(key: str, title: str, texts: list[str], note: str = "") -> Part:
    """A part of plain lines (the empty ones left out)."""
    return part(key, title, [item(text) for text in texts if text], note=note)


def seat(
    name: str,
    lines: list[str],
    state: str = "",
    tone: str = "",
    icons: list[list[str]] | None = None,
) -> Seat:
    """A seat's panel; ``icons`` (if given) runs beside ``lines``, and an
    empty line goes with its icons."""
    assert tone in TONES, tone
    drawn: list[list[str]] = [[] for _ in lines] if icons is None else icons
    assert len(drawn) == len(lines), (lines, drawn)
    shown = [(line, pieces) for line, pieces in zip(lines, drawn, strict=True) if line]
    return {
        "name": name,
        "state": state,
        "tone": tone,
        "lines": [line for line, _ in shown],
        "icons": [pieces for _, pieces in shown],
    }


def board(seats: list[Seat], parts: list[Part | None]) -> Board:
    """The board, leaving out the parts that show nothing now (a part with
    a title stays, empty: an empty floor is something to see)."""
    return {
        "seats": seats,
        "parts": [p for p in parts if p and (p["title"] or p["items"] or p["note"])],
    }
