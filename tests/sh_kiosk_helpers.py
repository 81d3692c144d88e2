"""Helpers for the Secret Hitler table screen's tests: real tables (seats
named Anna to Jude) brought to each phase through their commands, and the
checks every phase's screen must pass."""

from __future__ import annotations

from kiosk_helpers import assert_readable_layout, shown_texts
from sh_helpers import elect, govern, nominate, vote_all

from companion.games.base import Fate, Setup
from companion.table import EventStore, Table, seat_source

NAMES = ["Anna", "Ben", "Carla", "Dimitri", "Elena", "Farid", "Giorgos", "Hana", "Ivan", "Jude"]


def start(tmp_path, players: int, mode: str = "physical", deal=None) -> Table:
    setup = Setup(game="secret_hitler", seats=NAMES[:players], mode=mode, options={"first": 0})
    return Table.start(EventStore(tmp_path / "g.sqlite3"), setup, fate=Fate(seed=3, script=deal))


def keeper(tmp_path, players: int = 5, confirm: bool = True) -> Table:
    deal = {
        "roles": ["liberal", "fascist", "liberal", "hitler", "liberal", "liberal", "fascist"][
            :players
        ],
        "deck": ["liberal", "fascist", "fascist"] * 5 + ["liberal", "fascist"],
    }
    table = start(tmp_path, players, "keeper", deal)
    if confirm:
        for seat in range(players):
            table.execute({"type": "confirm", "seat": seat}, source=seat_source(seat))
    return table


def resolve_power(table: Table) -> None:
    """Use whatever power the president holds on the first target offered;
    an executed player in physical mode was not Hitler."""
    phase = table.public_view()["phase"]
    if phase in ("investigate", "special_election", "execute", "peek"):
        table.execute(next(c for c in table.legal_commands() if c["type"] == phase))
    if table.public_view()["phase"] == "execution_reveal":
        table.execute(next(c for c in table.legal_commands() if not c.get("hitler", True)))


def fascist_policies(table: Table, count: int) -> None:
    for _ in range(count):
        govern(table, "fascist")
        resolve_power(table)


def to_phase(tmp_path, phase: str) -> Table:
    """A real table brought to ``phase`` through its commands."""
    if phase == "night":
        table = keeper(tmp_path, 7, confirm=False)
        for seat in (0, 2, 5):
            table.execute({"type": "confirm", "seat": seat})
        return table
    if phase in ("president_discard", "chancellor_enact"):
        table = keeper(tmp_path, 7)
        elect(table)
        if phase == "chancellor_enact":
            v = table.public_view()
            hand = table.private_view(v["president"])["hand"]
            table.execute({"type": "discard", "seat": v["president"], "policy": hand[0]})
        return table
    if phase == "over":
        table = keeper(tmp_path, 5)
        for _ in range(5):
            govern(table, "liberal")
        return table
    players = {
        "nominate": 10,
        "election": 10,
        "investigate": 10,
        "special_election": 10,
        "chaos": 7,
    }.get(phase, 5)
    table = start(tmp_path, players)
    if phase == "election":
        nominate(table)
        for seat in (1, 4, 8):
            table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat))
    elif phase == "legislative":
        govern(table, "liberal")
        elect(table)
    elif phase == "chaos":
        for _ in range(3):
            nominate(table)
            vote_all(table, "nein")
    elif phase in ("investigate", "special_election", "peek", "execute"):
        fascist_policies(
            table, {"investigate": 0, "special_election": 2, "peek": 2, "execute": 3}[phase]
        )
        govern(table, "fascist")
    elif phase == "execution_reveal":
        fascist_policies(table, 3)
        govern(table, "fascist")
        unknown = {p["seat"] for p in table.public_view()["players"] if not p["not_hitler"]}
        table.execute(
            next(
                c
                for c in table.legal_commands()
                if c["type"] == "execute" and c["target"] in unknown
            )
        )
    elif phase == "hitler_reveal":
        fascist_policies(table, 3)
        nominate(table)
        vote_all(table, "ja")
    elif phase == "veto":
        fascist_policies(table, 5)
        elect(table)
        table.execute({"type": "veto", "seat": table.public_view()["chancellor"]})
    assert table.public_view()["phase"] == phase
    return table


PHASES = [
    "night",
    "nominate",
    "election",
    "hitler_reveal",
    "legislative",
    "president_discard",
    "chancellor_enact",
    "veto",
    "chaos",
    "investigate",
    "special_election",
    "peek",
    "execute",
    "execution_reveal",
    "over",
]


def check_screen(screen, window) -> None:
    bar = screen.ids.bar.ids
    assert_readable_layout(
        screen, window, list(screen.ids.commands.children) + [bar.phones, bar.new_game, bar.undo]
    )
    for panel in screen._panels:
        assert panel.height >= 48, "a seat panel is a touch target"
    texts = " ".join(shown_texts(screen))
    assert "sh.ui." not in texts and "{" not in texts, "every text is in the catalog"
