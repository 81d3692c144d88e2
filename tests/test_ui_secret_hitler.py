"""The Secret Hitler table screen in a real Kivy window (headless, Mesa) on a
real table and SQLite file: every phase at three screen sizes, two-tap
targeted commands, votes from the seats' own channels with the reveal, a
whole game played by taps, a restart, and keeper mode's secrets."""

from __future__ import annotations

import pytest

from companion.table import EventStore, Table, seat_source

pytest.importorskip("kivy.base")
from kiosk_helpers import (
    button_with,
    panel_of,
    selectable_panels,  # noqa: E402
    shown_labels,
    shown_texts,
    wait_for_reveal,
)
from sh_helpers import elect, enact, govern, nominate, vote_all  # noqa: E402
from sh_kiosk_helpers import (
    NAMES,
    PHASES,
    check_screen,
    fascist_policies,  # noqa: E402
    keeper,
    start,
    to_phase,
)
from ui_helpers import fits_in_window, frames, screenshot, show, tap  # noqa: E402

SIZES = [(800, 480), (1280, 720), (720, 1280)]
ROLE_WORDS = {"Liberal", "Fascist", "Hitler"}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_renders_legibly(window, tmp_path, phase, size):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = to_phase(tmp_path, phase)
    screen = show(window, SecretHitlerTableScreen(table), size)
    wait_for_reveal(screen.ids.ballot)
    check_screen(screen, window)
    assert screen.status_text
    screenshot(window, f"sh-{phase}-{size[0]}x{size[1]}")


def test_nominate_by_two_taps_then_the_ballot_shows_who_voted_and_turns(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 7)
    screen = show(window, SecretHitlerTableScreen(table), (800, 480))
    assert screen.status_text == "Anna, nominate a Chancellor."
    assert panel_of(screen, "Anna").badge == "Candidate"  # beside the name
    assert panel_of(screen, "Anna").details == ""
    tap(button_with(screen, "Nominate a Chancellor"))
    assert screen.status_text == "Tap the player Anna nominates for Chancellor."
    assert [p.name for p in selectable_panels(screen)] == NAMES[1:7]
    tap(button_with(screen, "Cancel"))
    assert screen.status_text == "Anna, nominate a Chancellor." and not selectable_panels(screen)
    tap(button_with(screen, "Nominate a Chancellor"))
    tap(panel_of(screen, "Carla"))
    assert table.public_view()["nominee"] == 2
    assert panel_of(screen, "Carla").badge == "Nominee"
    ballot = screen.ids.ballot
    assert ballot.title == "Election: Anna for President, Carla for Chancellor"

    choices = ["ja", "nein", "ja", "ja", "nein", "ja", "nein"]
    for seat in (4, 1):
        table.execute(
            {"type": "vote", "seat": seat, "choice": choices[seat]}, source=seat_source(seat)
        )
    frames(2)
    chips = [c.text for c in ballot.chips]
    assert chips[1] == "Ben\nvoted" and chips[4] == "Elena\nvoted" and chips[0] == "Anna\nwaiting"
    assert all(c.face_text == "" and c.text.endswith(("voted", "waiting")) for c in ballot.chips), (
        "an open ballot shows who voted, never what"
    )
    screenshot(window, "sh-ballot-open-800x480")
    for seat in (0, 2, 3, 5, 6):
        table.execute(
            {"type": "vote", "seat": seat, "choice": choices[seat]}, source=seat_source(seat)
        )
    frames(1)
    assert ballot.revealing and ballot.result_text == ""
    wait_for_reveal(ballot)
    assert [c.text for c in ballot.chips] == [
        f"{name}\n{'Ja!' if c == 'ja' else 'Nein'}" for name, c in zip(NAMES, choices)
    ]
    assert ballot.result_text == "The government is elected."
    assert screen.status_text == (
        "Anna draws three tiles and passes two to Carla: enter the policy Carla enacts."
    )
    screenshot(window, "sh-ballot-revealed-800x480")

    tap(button_with(screen, "Fascist policy"))  # one tap, physical mode
    assert screen.ids.fascist_track.title == "Fascist: 1 of 6"
    assert screen.status_text == "Ben, nominate a Chancellor."
    tap(button_with(screen, "Nominate a Chancellor"))
    assert "Carla" not in [p.name for p in selectable_panels(screen)], "term-limited"
    assert panel_of(screen, "Carla").details == "Term-limited"
    tap(panel_of(screen, "Dimitri"))
    for seat in range(7):
        table.execute({"type": "vote", "seat": seat, "choice": "nein"}, source=seat_source(seat))
    wait_for_reveal(ballot)
    assert ballot.result_text == "The election failed; the tracker moves to 1."
    assert screen.ids.liberal_track.state_text == "Tracker: 1 of 3"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_votes_typed_in_public_are_taken_back_by_cancel_and_undo(window, tmp_path, size):
    """Physical mode, every vote typed on the kiosk: Cancel takes back the
    votes its pick entered; Undo stays on after the last vote and takes it
    back, the ballot open again with the other votes."""
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 5)
    nominate(table, 2)
    screen = show(window, SecretHitlerTableScreen(table), size)
    undo = screen.ids.bar.ids.undo
    tap(button_with(screen, "Enter Nein votes"))
    assert [b.text for b in screen.ids.commands.children] == ["Cancel"]
    tap(panel_of(screen, "Anna"))
    tap(button_with(screen, "Done"))  # keeps the Nein
    tap(button_with(screen, "Enter Ja! votes"))
    for name in ("Ben", "Carla"):
        tap(panel_of(screen, name))
    assert table.public_view()["ballot"]["voted"] == [0, 1, 2]
    tap(button_with(screen, "Cancel"))
    assert table.public_view()["ballot"]["voted"] == [0], "the Ja! votes are gone, Nein stays"
    assert not selectable_panels(screen)

    tap(button_with(screen, "Enter Ja! votes"))
    tap(panel_of(screen, "Ben"))
    assert {b.text for b in screen.ids.commands.children} == {"Done", "Cancel"}
    assert all(fits_in_window(b, window) for b in screen.ids.commands.children)
    screenshot(window, f"sh-votes-done-cancel-{size[0]}x{size[1]}")
    for name in ("Carla", "Dimitri", "Elena"):  # Elena's was meant to be Nein
        tap(panel_of(screen, name))
    wait_for_reveal(screen.ids.ballot)
    assert table.public_view()["last_votes"] == ["nein", "ja", "ja", "ja", "ja"]
    assert not undo.disabled, "the last vote was typed in public: it may be taken back"
    tap(undo)
    assert table.public_view()["ballot"]["voted"] == [0, 1, 2, 3]
    assert table.public_view()["last_votes"] is None
    frames(2)
    assert [c.text for c in screen.ids.ballot.chips][4] == "Elena\nwaiting"
    tap(button_with(screen, "Enter Nein votes"))
    tap(panel_of(screen, "Elena"))
    wait_for_reveal(screen.ids.ballot)
    assert table.public_view()["last_votes"] == ["nein", "ja", "ja", "ja", "nein"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_commands_hold_still_when_the_result_appears(window, tmp_path, size):
    """The votes turn for a moment before the result is said; the result's
    line is held for it meanwhile, so the commands below the ballot do not
    jump under a finger reaching for them as the result appears (they moved
    by 48 px at 1280×720)."""
    from layout_oracle import strip_positions

    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 7)
    screen = show(window, SecretHitlerTableScreen(table), size)
    nominate(table, 2)
    vote_all(table, "ja")
    frames(3)
    ballot = screen.ids.ballot
    assert ballot.revealing and ballot.result_text == ""
    turning = strip_positions(screen.ids.commands)
    wait_for_reveal(ballot)
    frames(3)
    assert ballot.result_text == "The government is elected."
    assert turning and strip_positions(screen.ids.commands) == turning


def test_a_power_takes_two_taps_and_the_danger_zone_and_veto_show(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 7)
    screen = show(window, SecretHitlerTableScreen(table), (1280, 720))
    fascist_policies(table, 1)
    govern(table, "fascist")  # the 7-8 board: investigate
    frames(3)  # the new buttons are laid out
    president = NAMES[table.public_view()["president"]]
    assert screen.status_text == f"{president} investigates a player's loyalty."
    tap(button_with(screen, "Investigate a player"))
    assert president not in [p.name for p in selectable_panels(screen)]
    screenshot(window, "sh-investigate-picking-1280x720")
    tap(panel_of(screen, "Giorgos"))
    assert f"Investigated by {president}" in panel_of(screen, "Giorgos").details
    assert table.public_view()["investigations"][-1]["target"] == 6

    assert not screen.ids.fascist_track.state_text
    danger = [slot.danger for slot in reversed(screen.ids.fascist_track.ids.slots.children)]
    assert danger == [False, False, False, True, True, True]
    fascist_policies(table, 1)  # special election
    assert screen.ids.fascist_track.state_text == "Hitler zone"
    govern(table, "fascist")  # 4th: execution
    frames(3)
    tap(button_with(screen, "Execute a player"))
    tap(panel_of(screen, "Farid"))
    assert screen.status_text == "Farid is executed: was Farid Hitler?"
    tap(button_with(screen, "Farid is not Hitler"))
    assert panel_of(screen, "Farid").details == "Executed"
    assert not panel_of(screen, "Farid").alive

    fascist_policies(table, 1)  # 5th: execution and the veto
    veto_slot = list(reversed(screen.ids.fascist_track.ids.slots.children))[4]
    assert veto_slot.text == "Veto unlocked" and veto_slot.filled
    elect(table)
    frames(3)
    v = table.public_view()
    chancellor, president = NAMES[v["chancellor"]], NAMES[v["president"]]
    tap(button_with(screen, f"{chancellor} asks for a veto"))
    assert veto_slot.text == "Veto requested"
    assert screen.status_text == (
        f"{chancellor} asks to veto this agenda: {president}, do you agree?"
    )
    check_screen(screen, window)
    screenshot(window, "sh-veto-requested-1280x720")
    tap(button_with(screen, f"{president} refuses the veto"))
    assert veto_slot.text == "Veto refused"
    assert f"{chancellor} asks for a veto" not in [b.text for b in screen.ids.commands.children]


def play_round_by_taps(screen, policy: str) -> None:
    """One round entered entirely on the screen: nominate, every vote Ja!,
    the Hitler question, the policy, and the power it grants."""
    tap(button_with(screen, "Nominate a Chancellor"))
    tap(selectable_panels(screen)[0])
    tap(button_with(screen, "Enter Ja! votes"))
    while screen.picking:
        tap(selectable_panels(screen)[0])
    wait_for_reveal(screen.ids.ballot)
    if "Hitler zone" in screen.status_text:
        tap([b for b in screen.ids.commands.children if b.text.endswith("is not Hitler")][0])
    tap(button_with(screen, f"{policy.capitalize()} policy"))
    phase = screen.table.public_view()["phase"]
    if phase == "peek":
        tap(screen.ids.commands.children[0])
    elif phase == "execute":
        tap(button_with(screen, "Execute a player"))
        tap(selectable_panels(screen)[-1])
        tap([b for b in screen.ids.commands.children if b.text.endswith("is not Hitler")][0])


@pytest.mark.slow
def test_a_whole_game_is_played_by_taps_until_the_screen_shows_the_winner(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = start(tmp_path, 5)
    screen = show(window, SecretHitlerTableScreen(table), (800, 480))
    for policy in (
        "fascist",
        "fascist",
        "fascist",
        "liberal",
        "fascist",
        "liberal",
        "liberal",
        "liberal",
    ):
        play_round_by_taps(screen, policy)
        assert screen.message_text == "", screen.message_text
    assert not screen.game_over
    play_round_by_taps(screen, "liberal")
    assert screen.game_over
    assert screen.status_text == "The Liberals win: five Liberal policies are enacted."
    assert screen.ids.liberal_track.title == "Liberal: 5 of 5"
    assert sum(not p.alive for p in screen._panels) == 1
    assert screen.ids.commands.children == []
    check_screen(screen, window)
    screenshot(window, "sh-game-over-by-taps-800x480")
    assert [g.status for g in table.store.history()] == ["finished"]


def test_a_restarted_app_shows_the_same_table(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    path = tmp_path / "g.sqlite3"
    table = start(tmp_path, 7)
    screen = show(window, SecretHitlerTableScreen(table), (1280, 720))
    fascist_policies(table, 1)
    nominate(table)
    vote_all(table, "nein")
    frames(1)
    wait_for_reveal(screen.ids.ballot)

    def seen(s):
        return (
            s.status_text,
            s.info_text,
            [(p.badge, p.details) for p in s._panels],
            [c.text for c in s.ids.fascist_track.ids.slots.children],
            [c.text for c in s.ids.liberal_track.ids.slots.children],
            s.ids.liberal_track.state_text,
            s.ids.ballot.title,
            [c.text for c in s.ids.ballot.chips],
            s.ids.ballot.result_text,
            [b.text for b in s.ids.commands.children],
        )

    before = seen(screen)
    table.store.close()

    again = show(window, SecretHitlerTableScreen(Table.resume(EventStore(path))), (1280, 720))
    assert not again.ids.ballot.revealing, "after a restart the last result shows at once"
    assert seen(again) == before
    assert again.ids.ballot.result_text == "The election failed; the tracker moves to 1."


def test_keeper_mode_never_shows_a_secret_before_the_end(window, tmp_path):
    from companion.games.secret_hitler.screen import SecretHitlerTableScreen

    table = keeper(tmp_path, 5, confirm=False)
    screen = show(window, SecretHitlerTableScreen(table), (800, 480))
    assert screen.status_text.endswith("5 players still have to confirm.")
    table.execute({"type": "confirm", "seat": 3}, source=seat_source(3))
    assert panel_of(screen, "Dimitri").details == "Has seen their role"
    assert panel_of(screen, "Anna").details == "Looking at their role"
    tap(button_with(screen, "Mark who has seen their role"))
    for name in ("Anna", "Ben", "Carla"):
        tap(panel_of(screen, name))
    assert screen.status_text.startswith("Tap each player")  # Elena is left
    tap(panel_of(screen, "Elena"))
    assert screen.status_text == "Anna, nominate a Chancellor."

    def no_roles_shown() -> None:
        assert not ROLE_WORDS & set(shown_texts(screen))
        assert all(p.role_text == "" for p in screen._panels)

    while not table.is_over:
        no_roles_shown()
        elect(table)
        assert screen.status_text.endswith("discards one of three tiles on their phone.")
        assert screen.ids.commands.children == [], "the tiles are chosen on phones"
        no_roles_shown()
        enact(table, "liberal")
    frames(2)
    assert screen.status_text == "The Liberals win: five Liberal policies are enacted."
    assert [p.role_text for p in screen._panels] == [
        "Liberal",
        "Fascist",
        "Liberal",
        "Hitler",
        "Liberal",
    ]
    assert [p.badge for p in screen._panels] == [p.role_text for p in screen._panels]
    president = table.public_view()["president"]
    assert screen._panels[president].details.startswith("President"), (
        "the role takes the office's place beside the name: the office is said below"
    )
    assert {label.text for label in shown_labels(screen)} >= ROLE_WORDS
    check_screen(screen, window)
    screenshot(window, "sh-keeper-over-800x480")


def test_every_word_the_screen_builds_from_the_view_is_in_the_catalog():
    """Keys put together from phases, commands and results (the i18n test
    finds only the literal ones)."""
    from companion.games.secret_hitler.rules import POWERS
    from companion.i18n import catalog

    statuses = {
        "nominate",
        "election",
        "hitler_reveal",
        "legislative",
        "president_discard",
        "chancellor_enact",
        "veto",
        "reshuffle",
        "investigate",
        "special_election",
        "execute",
        "execution_reveal",
        "night",
        "chaos.physical",
        "chaos.keeper",
        "peek.physical",
        "peek.keeper",
        "over.liberal.policies",
        "over.liberal.hitler_executed",
        "over.fascist.policies",
        "over.fascist.hitler_elected",
    }
    wanted = {f"sh.ui.status.{s}" for s in statuses}
    wanted |= {
        f"sh.ui.{kind}.{name}"
        for kind in ("pick", "prompt")
        for name in ("nominate", "investigate", "special_election", "execute", "confirm", "vote")
    }
    wanted |= {f"sh.ui.power.{p}" for p in POWERS}
    wanted |= {f"sh.ui.role.{r}" for r in ("liberal", "fascist", "hitler")}
    wanted |= {f"sh.ui.office.{o}" for o in ("president", "chancellor", "candidate", "nominee")}
    wanted |= {f"sh.ui.veto.{v}" for v in ("requested", "refused", "unlocked")}
    wanted |= {
        "sh.ui.cmd.reveal.hitler",
        "sh.ui.cmd.reveal.not_hitler",
        "sh.ui.cmd.veto",
        "sh.ui.cmd.veto_agree",
        "sh.ui.cmd.veto_refuse",
        "sh.ui.cmd.peek",
        "choice.ja",
        "choice.nein",
        "policy.liberal",
        "policy.fascist",
    }
    assert sorted(wanted - set(catalog("en"))) == []
