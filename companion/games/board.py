"""The public board as plain data: what the kiosk's screen shows of a
game, in the reader's words, for the pages that show it too (the public
table and each seat's page, under its own secrets). No Kivy and no rules:
a game's words build it from the public view alone, so it carries no
secret, and the pages draw every game's board the same way.

A board is a dict, ready for JSON::

    {"seats": [Seat...], "parts": [Part...]}

A seat is one player's panel: ``name``, ``state`` (its colour on the
kiosk, in words: "Their turn"), ``tone`` (that colour's meaning, for the
page's style: one of ``TONES``) and ``lines`` (what the table knows of it).
A part is one piece of the board: ``key`` (which, for the page's style),
``title``, ``kind`` (one of ``KINDS``), ``note`` (a line under it) and
``items``, each a ``text`` (and a ``detail`` under it) with whether it is ``on`` (a filled slot, a
vote cast), its ``tone`` and, where a piece is drawn, its ``icon``.
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


def item(text: str, detail: str = "", on: bool = False, tone: str = "", icon: str = "") -> Item:
    assert tone in TONES, tone
    return {"text": text, "detail": detail, "on": on, "tone": tone, "icon": icon}


def part(key: str, title: str, items: list[Item], kind: str = "lines", note: str = "") -> Part:
    assert kind in KINDS, kind
    return {"key": key, "title": title, "kind": kind, "note": note, "items": items}


def lines(key: str, title: str, texts: list[str], note: str = "") -> Part:
    """A part of plain lines (the empty ones left out)."""
    return part(key, title, [item(text) for text in texts if text], note=note)


def seat(name: str, lines: list[str], state: str = "", tone: str = "") -> Seat:
    assert tone in TONES, tone
    return {"name": name, "state": state, "tone": tone, "lines": [line for line in lines if line]}


def board(seats: list[Seat], parts: list[Part | None]) -> Board:
    """The board, leaving out the parts that show nothing now (a part with
    a title stays, empty: an empty floor is something to see)."""
    return {
        "seats": seats,
        "parts": [p for p in parts if p and (p["title"] or p["items"] or p["note"])],
    }
