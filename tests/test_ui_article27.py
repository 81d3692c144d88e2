"""The Article 27 table screen in a real Kivy window (rendered headless with
Mesa), on real tables stored in SQLite files: every stage at every size,
the negotiation timer to expiry, the on-screen gavel and the hardware one,
the synthesised sounds, the ballot, a whole game played by taps, and a
restarted app. Screenshots go to screenshots/a27-<stage>-<W>x<H>.png."""

from __future__ import annotations

import asyncio
import wave
from array import array

import pytest
from a27_helpers import DI, HU, NU, PK, SM, FakeClock
from a27_kiosk_helpers import (
    KEEPER_STAGES,
    PHYSICAL_STAGES,
    a27_screen,
    check_layout,
    floor_names,
    keeper_stages,
    kiosk_table,
    physical_stages,
    strip,
    strip_button,
    table_names,
    tap_strip,
    tile,
    until_revealed,
)
from ui_helpers import frames, screenshot, show, tap

from companion.table import EventStore, Table, seat_source

SIZES = [(800, 480), (1280, 720), (720, 1280)]


def size_id(size):
    return f"{size[0]}x{size[1]}"


# -- every stage at every size ---------------------------------------------------------------
def shown_stages(window, screen, stages, size) -> list[str]:
    """Walk ``stages`` (a generator that brings the table to each stage),
    checking and saving each as the screen shows it; the stages seen."""
    seen = []
    for stage in stages:
        screen.tick()
        until_revealed(screen.ids.ballot)
        screenshot(window, f"a27-{stage}-{size_id(size)}")
        check_layout(screen, window, stage)
        seen.append(stage)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_every_stage_renders_at_every_size(window, tmp_path, size):
    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", players=4, clock=clock)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), size)
    phases = []

    def stages():
        for stage in physical_stages(table, clock):
            phases.append(table.public_view()["phase"])
            yield stage

    assert shown_stages(window, screen, stages(), size) == PHYSICAL_STAGES
    assert phases == [
        "unused",
        "reveal",
        "ready",
        "negotiation",
        "negotiation",
        "negotiation",
        "voting",
        "scored",
        "place_one",
        "final",
        "over",
    ]

    clock = FakeClock()
    keeper = kiosk_table(
        tmp_path / "k.sqlite3", players=3, mode="keeper", clock=clock, lie_cheat_steal=True
    )
    screen = show(window, a27_screen(keeper, tmp_path / "sounds"), size)
    assert shown_stages(window, screen, keeper_stages(keeper, clock), size) == KEEPER_STAGES


# -- the timer and the gavel --------------------------------------------------------------
def test_the_timer_runs_to_expiry_with_a_warning_and_a_pause(window, tmp_path):
    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", clock=clock, timer_seconds=120)
    for issue, agenda in zip(
        (PK, SM, DI, HU, NU), ("peace", "wealth", "power", "justice", "prestige")
    ):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    played = screen.sounds.played
    assert screen.countdown_text == "2:00" and screen.timer_caption == "Starts at the gavel"
    tap(screen.ids.gavel)
    assert played == ["gavel"]
    clock.advance(30.4)
    screen.tick()
    assert screen.countdown_text == "1:30"  # 89.6 s left: whole seconds, rounded up
    assert not screen.timer_warning
    tap(screen.ids.pause)
    assert screen.timer_caption == "Paused" and screen.status_text == "The timer is paused."
    clock.advance(500)  # the operator's pause stops the clock
    screen.tick()
    assert screen.countdown_text == "1:30"
    tap(screen.ids.pause)  # now "Resume"
    assert screen.timer_caption == "Negotiation"
    clock.advance(59)  # 30.6 s left
    screen.tick()
    assert screen.countdown_text == "0:31" and not screen.timer_warning
    assert played == ["gavel"]
    clock.advance(1)
    screen.tick()
    assert screen.countdown_text == "0:30" and screen.timer_warning
    assert screen.timer_caption == "Last 30 seconds!"
    assert played == ["gavel", "warning"]
    screenshot(window, "a27-timer-warning-800x480")
    clock.advance(10)
    screen.tick()
    assert played == ["gavel", "warning"], "the warning sounds once"
    clock.advance(20.6)  # time is up, floor empty
    screen.tick()
    assert played == ["gavel", "warning", "expiry"]
    assert table.public_view()["phase"] == "place_one"
    assert not screen.clock_shown and screen.countdown_text == ""
    assert screen.status_text == "Time is up: Anna taps exactly one issue to put it on the floor."
    assert "Success Privilege" not in screen.floor_title, "the privilege went back"
    frames(2)  # the board takes the clock's room
    tap(tile(screen, "Nuclear disarmament"))
    assert table.public_view()["phase"] == "voting"
    assert floor_names(screen) == ["Nuclear disarmament"]


def revealed_table(tmp_path, clock=None, players=3):
    table = kiosk_table(tmp_path / "g.sqlite3", players=players, clock=clock or FakeClock())
    for issue, agenda in zip(
        (PK, SM, DI, HU, NU), ("peace", "wealth", "power", "justice", "prestige")
    ):
        table.execute({"type": "reveal_disk", "issue": issue, "agenda": agenda})
    return table


def test_the_on_screen_gavel_and_the_hardware_gavel_strike_alike(window, tmp_path):
    from companion.devices.controls import Controls
    from companion.devices.press import GAVEL, Press

    table = revealed_table(tmp_path)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    assert screen.gavel_text == "Gavel: start"
    tap(screen.ids.gavel)  # the screen's gavel
    assert table.public_view()["phase"] == "negotiation"
    assert screen.sounds.played == ["gavel"]
    assert screen.ids.gavel.disabled, "Vote! needs an issue on the floor"
    tap(tile(screen, "Smuggling sanctions"))
    assert floor_names(screen) == ["Smuggling sanctions"]
    assert screen.gavel_text == "Gavel: Vote!" and not screen.ids.gavel.disabled

    loop = asyncio.new_event_loop()
    try:
        controls = Controls(table, loop=loop)
        controls.handle(Press(seat=None, button=GAVEL, at=100.0, device="gpio"))  # the hardware
    finally:
        loop.close()
    assert table.public_view()["phase"] == "voting"
    assert screen.sounds.played == ["gavel", "gavel"], "a hardware strike knocks on screen too"
    strikes = [c for c in table.store.commands(table.game_id) if c["command"]["type"] == "gavel"]
    assert [
        (c["source"], {k: v for k, v in c["command"].items() if k != "at"}) for c in strikes
    ] == [("kiosk", {"type": "gavel", "seat": 0})] * 2


def test_tiles_move_issues_both_ways_and_only_the_sgs_moves_are_offered(window, tmp_path):
    table = revealed_table(tmp_path)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    assert all(t.command is None for t in screen.ids.table.children), "no moves before the gavel"
    tap(screen.ids.gavel)
    tap(tile(screen, "Peacekeeping"))
    tap(tile(screen, "Nuclear disarmament"))
    assert floor_names(screen) == ["Peacekeeping", "Nuclear disarmament"]
    tap(tile(screen, "Peacekeeping"))  # back to the table
    assert floor_names(screen) == ["Nuclear disarmament"]
    assert "Peacekeeping" in table_names(screen)
    assert table.public_view()["floor"] == [NU]


# -- sounds ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name, seconds", [("gavel", 0.25), ("expiry", 1.6), ("warning", 0.3)])
def test_the_synthesised_sounds_are_valid_wavs_with_sound_in_them(tmp_path, name, seconds):
    from companion.ui.system.sounds import write_sounds

    path = write_sounds(tmp_path)[name]
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        assert wav.getnframes() / wav.getframerate() == pytest.approx(seconds, abs=0.01)
        samples = array("h", wav.readframes(wav.getnframes()))
    loudest = max(abs(s) for s in samples)
    assert 8000 < loudest <= 32767, "audible, not clipped past 16 bits"
    rms = (sum(s * s for s in samples) / len(samples)) ** 0.5
    assert rms > 300, "more than a click"
    assert abs(samples[-1]) < 0.05 * 32767, "it fades out instead of stopping dead"


def test_sounds_are_written_once_and_kept(tmp_path):
    from companion.ui.system.sounds import write_sounds

    first = {name: path.stat().st_mtime_ns for name, path in write_sounds(tmp_path).items()}
    again = {name: path.stat().st_mtime_ns for name, path in write_sounds(tmp_path).items()}
    assert first == again
    gavel = write_sounds(tmp_path)["gavel"]
    gavel.write_bytes(gavel.read_bytes()[:-100])  # cut short
    write_sounds(tmp_path)
    with wave.open(str(gavel), "rb") as wav:
        assert wav.getnframes() == int(0.25 * wav.getframerate()), "a damaged file is made again"
    gavel.write_bytes(b"not a wav")
    write_sounds(tmp_path)
    with wave.open(str(gavel), "rb") as wav:
        assert wav.getnframes() > 0


def test_the_player_carries_on_without_an_audio_device_or_a_cache(tmp_path, caplog):
    from companion.ui.system.sounds import Sounds

    sounds = Sounds(tmp_path / "sounds", volume=0.5)  # this machine has no sound card
    sounds.play("gavel")
    sounds.play("expiry")
    assert sounds.played == ["gavel", "expiry"]
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    mute = Sounds(blocked / "sounds")  # the cache cannot be made
    mute.play("warning")
    assert mute.played == ["warning"]
    assert "could not be written" in caplog.text
    silent = Sounds(tmp_path / "sounds", volume=0)
    silent.play("gavel")
    assert silent.played == [], "volume 0 is silence"
    with pytest.raises(ValueError):
        sounds.play("trumpet")


# -- the ballot -----------------------------------------------------------------------------
def test_the_vote_shows_who_voted_then_turns_every_vote_with_the_outcome(window, tmp_path):
    table = revealed_table(tmp_path)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    tap(screen.ids.gavel)
    tap(tile(screen, "Diplomatic sanctions"))
    tap(screen.ids.gavel)
    ballot = screen.ids.ballot
    assert screen.status_text == "Everyone votes: Yes, Veto or Abstain."
    assert [c.text for c in ballot.chips] == ["Anna\nwaiting", "Ben\nwaiting", "Chloe\nwaiting"]

    table.execute({"type": "vote", "seat": 1, "choice": "veto"}, source=seat_source(1))
    table.execute({"type": "vote", "seat": 0, "choice": "yes"}, source=seat_source(0))
    frames(2)
    assert [c.text for c in ballot.chips] == ["Anna\nvoted", "Ben\nvoted", "Chloe\nwaiting"]
    assert not any("Veto" in c.text or "Yes" in c.text for c in ballot.chips), "never what"
    assert "Veto…" in strip(screen), "Chloe may still be entered on the kiosk"
    screenshot(window, "a27-ballot-open-800x480")

    table.execute({"type": "vote", "seat": 2, "choice": "yes"}, source=seat_source(2))
    frames(1)
    assert ballot.revealing and ballot.result_text == ""
    until_revealed(ballot)
    assert [c.text for c in ballot.chips] == ["Anna\nYes", "Ben\nVeto", "Chloe\nYes"]
    assert ballot.result_text == "Vetoed by Ben."
    assert screen.status_text == "Ben, take the gavel to start round 2."
    screenshot(window, "a27-ballot-revealed-800x480")
    frames(3)
    assert not ballot.revealing, "a later refresh does not turn the votes again"


def test_a_vote_entered_on_the_kiosk_takes_two_taps_and_can_be_cancelled(window, tmp_path):
    table = revealed_table(tmp_path)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    tap(screen.ids.gavel)
    tap(tile(screen, "Peacekeeping"))
    tap(screen.ids.gavel)
    assert strip(screen) == ["Yes…", "Veto…", "Abstain…"]
    tap_strip(screen, "Abstain…")
    assert strip(screen) == ["Abstain: who votes it?", "Anna", "Ben", "Chloe", "Cancel"]
    tap_strip(screen, "Cancel")
    assert strip(screen) == ["Yes…", "Veto…", "Abstain…"]
    tap_strip(screen, "Yes…", "Ben")
    assert table.public_view()["ballot"]["voted"] == [1]
    tap_strip(screen, "Yes…")
    assert strip(screen)[1:] == ["Anna", "Chloe", "Cancel"], "Ben has voted"


# -- a whole game, and a restart ---------------------------------------------------------------
@pytest.mark.slow
def test_a_whole_physical_game_is_played_by_taps(window, tmp_path):
    clock = FakeClock()
    table = kiosk_table(tmp_path / "g.sqlite3", clock=clock)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (800, 480))
    names = ["Anna", "Ben", "Chloe"]
    for round_ in range(1, 7):
        sg = names[(round_ - 1) % 3]
        assert screen.sg_text.startswith(f"Secretary-General: {sg}")
        for _issue in range(5):  # each disk: one tap on the agenda it shows
            prompt, first_agenda = strip(screen)[:2]
            assert prompt.endswith(":")
            tap_strip(screen, first_agenda)
        assert screen.status_text == f"{sg}, strike the gavel to start the negotiation."
        tap(screen.ids.gavel)
        frames(2)
        tap(tile(screen, "Peacekeeping"))
        if round_ % 2:
            tap(tile(screen, "Nuclear disarmament"))
        tap(screen.ids.gavel)  # Vote!
        for name in names:  # each vote: the choice, then the player
            tap_strip(screen, "Veto…" if (round_, name) == (3, "Ben") else "Yes…", name)
        until_revealed(screen.ids.ballot)
        assert screen.ids.ballot.result_text == (
            "Vetoed by Ben." if round_ == 3 else "Passed with 3 Yes."
        )
        if round_ < 6:
            tap_strip(screen, f"Round {round_ + 1}: {names[round_ % 3]} takes the gavel")
    assert screen.sounds.played == ["gavel", "gavel"] * 6
    screenshot(window, "a27-game-final-800x480")
    for seat, (digits, agenda) in enumerate((("14", "Peace"), ("9", "Justice"), ("21", "Wealth"))):
        assert screen.status_text.startswith(f"{names[seat]}: type the influence")
        assert strip_button(screen, agenda).disabled, "a number first"
        tap_strip(screen, *digits)
        assert strip(screen)[0] == f"{names[seat]}: {digits} influence"
        tap_strip(screen, agenda)
    view = table.public_view()
    assert view["phase"] == "over"
    winner = next(r for r in view["results"] if r["rank"] == 1)
    assert screen.status_text == f"{names[winner['seat']]} wins the game!"
    lines = screen.results_text.split("\n")
    assert len(lines) == 3 and lines[0].startswith(
        f"1. {names[winner['seat']]}: {winner['total']} ("
    )
    assert {r["agenda"] for r in view["results"]} == {"peace", "justice", "wealth"}
    assert "Chloe: " in screen.results_text and "21 influence" in screen.results_text
    assert not screen.ids.bar.ids.new_game.disabled
    screenshot(window, "a27-game-over-800x480")


def snapshot(screen):
    """Everything the table screen says."""
    ballot = screen.ids.ballot
    return (
        screen.info_text,
        screen.status_text,
        screen.sg_text,
        screen.countdown_text,
        screen.timer_caption,
        screen.timer_warning,
        floor_names(screen),
        table_names(screen),
        screen.floor_title,
        [(r.agenda, r.disks, r.value) for r in screen._rows],
        screen.bribes_text,
        ballot.title,
        [c.text for c in ballot.chips],
        ballot.result_text,
        strip(screen),
        screen.results_text,
    )


def test_a_restarted_app_shows_the_same_table(window, tmp_path):
    clock = FakeClock()
    path = tmp_path / "g.sqlite3"
    table = revealed_table(tmp_path, clock)
    screen = show(window, a27_screen(table, tmp_path / "sounds"), (1280, 720))
    tap(screen.ids.gavel)
    tap(tile(screen, "Humanitarian concerns"))
    clock.advance(275)  # 25 s left: the warning state
    screen.tick()
    before = snapshot(screen)
    assert before[3:6] == ("0:25", "Last 30 seconds!", True)
    table.store.close()

    resumed = Table.resume(EventStore(path), clock=clock)
    again = show(window, a27_screen(resumed, tmp_path / "sounds-2"), (1280, 720))
    assert snapshot(again) == before
    assert again.sounds.played == [], "a restart strikes nothing and warns of nothing"
    again.tick()
    assert again.sounds.played == []

    tap(again.ids.gavel)
    for seat, choice in enumerate(("yes", "abstain", "yes")):
        resumed.execute({"type": "vote", "seat": seat, "choice": choice}, source=seat_source(seat))
    until_revealed(again.ids.ballot)
    before = snapshot(again)
    resumed.store.close()

    restarted = Table.resume(EventStore(path), clock=clock)
    third = show(window, a27_screen(restarted, tmp_path / "sounds-3"), (1280, 720))
    assert not third.ids.ballot.revealing, "the last result is shown as it was, not turned again"
    assert snapshot(third) == before
    assert third.ids.ballot.result_text == "Passed with 2 Yes."
    screenshot(window, "a27-restarted-1280x720")
