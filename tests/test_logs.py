"""The app's log: configured once at start, the app's messages and Kivy's in
one stream on stderr, journal-style (a syslog priority on every line) when
systemd reads it, at the level of --log-level or the kiosk's setting. A
real `companion run` on a desktop starts to its first frame with no
traceback, no CRITICAL and no ERROR line."""

from __future__ import annotations

import ctypes.util
import io
import logging
import os
import re
import socket
import subprocess
import sys

import pytest

from companion.logs import JournalFormatter, RepeatLimit, configure_logging, to_journal


def kiosk(tmp_path, *args: str, journal: bool = False):
    """A real `companion run` at home for 3 seconds, its stderr in a file
    (systemd's journal stream, if ``journal``); (stderr, what it told the
    service manager)."""
    notify = tmp_path / "notify.sock"
    notify.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(0)
    errors = open(tmp_path / "stderr.txt", "w+")
    environ = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    environ["NOTIFY_SOCKET"] = str(notify)
    if journal:
        info = os.fstat(errors.fileno())
        environ["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "run",
                "--db",
                str(tmp_path / "g.sqlite3"),
                "--web-port",
                "0",
                "--pad",
                "none",
                "--exit-after",
                "3",
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            timeout=90,
            env=environ,
        )
        errors.seek(0)
        text = errors.read()
        assert done.returncode == 0, text[-3000:]
        told = []
        while True:
            try:
                told.append(listener.recv(256).decode())
            except BlockingIOError:
                break
        return done.stdout + text, told
    finally:
        errors.close()
        listener.close()


def test_under_systemd_every_line_carries_its_priority_and_kivy_joins_in(tmp_path):
    output, told = kiosk(tmp_path, "--log-level", "debug", journal=True)
    assert "READY=1" in told, "the first frame was drawn"
    lines = [line for line in output.splitlines() if line]
    assert lines and all(re.match(r"<[0-7]>\S", line) for line in lines), [
        line for line in lines if not re.match(r"<[0-7]>", line)
    ][:5]
    assert any(re.match(r"<6>companion\.cli: no GPIO buttons", line) for line in lines)
    assert "<6>kivy: Base: Start application main loop" in lines
    assert any(line.startswith("<7>kivy: ") for line in lines), "Kivy's debug lines too"
    if ctypes.util.find_library("mtdev") is None:
        # A desktop without libmtdev: Kivy's traceback for the mtdev provider,
        # which --touch sdl does not use, is one debug line.
        assert any(
            line.startswith("<7>kivy: Input: MTDev is not supported")
            and "not needed with this touch source" in line
            for line in lines
        )


@pytest.mark.slow
def test_a_desktop_start_is_clean_and_the_level_is_the_kiosk_s_setting(tmp_path):
    output, told = kiosk(tmp_path)
    assert "READY=1" in told
    for word in ("Traceback", "CRITICAL", "ERROR"):
        assert word not in output, output
    assert re.search(r"^\d\d:\d\d:\d\d INFO companion\.cli: no GPIO buttons", output, re.M)
    assert re.search(r"^\d\d:\d\d:\d\d INFO kivy: GL: OpenGL version", output, re.M)

    (tmp_path / "kiosk.ini").write_text("[kiosk]\nlog_level = warning\n")
    quiet, _ = kiosk(tmp_path)
    assert " INFO " not in quiet, "the operator's setting holds without --log-level"
    chatty, _ = kiosk(tmp_path, "--log-level", "info")
    assert " INFO companion.cli: " in chatty, "--log-level overrides it"


def test_a_traceback_keeps_its_priority_on_every_line():
    stream = io.StringIO()
    record = logging.LogRecord("companion.x", logging.ERROR, __file__, 1, "it broke", None, None)
    try:
        raise ValueError("inner")
    except ValueError:
        record.exc_info = sys.exc_info()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter())
    handler.emit(record)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "<3>companion.x: it broke" and len(lines) > 2
    assert all(line.startswith("<3>") for line in lines)


def test_the_journal_is_recognised_by_its_stream_only(tmp_path):
    with open(tmp_path / "a", "w") as a, open(tmp_path / "b", "w") as b:
        info = os.fstat(a.fileno())
        environ = {"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"}
        assert to_journal(a, environ) and not to_journal(b, environ)
        assert not to_journal(a, {}) and not to_journal(a, {"JOURNAL_STREAM": "x:y"})
    with pytest.raises(ValueError):
        configure_logging("loud")


def test_one_error_repeating_writes_a_few_lines_not_millions():
    stream = io.StringIO()
    handler = configure_logging("info", stream=stream, environ={})
    try:
        log = logging.getLogger("companion.test_flood")
        for _ in range(100_000):
            log.error("accept failed: %s", "too many open files")
        log.warning("something else")
        lines = stream.getvalue().splitlines()
    finally:
        logging.getLogger().removeHandler(handler)
    assert len([line for line in lines if "accept failed" in line]) == 10
    assert any("something else" in line for line in lines), "another message still gets through"


def test_held_back_lines_are_counted_when_the_window_ends():
    now = [0.0]
    limit = RepeatLimit(burst=2, window=60.0, clock=lambda: now[0])

    def record() -> logging.LogRecord:
        return logging.LogRecord("companion.x", logging.ERROR, __file__, 1, "boom", (), None)

    passed = [limit.filter(record()) for _ in range(5)]
    assert passed == [True, True, False, False, False]
    now[0] = 61.0
    late = record()
    assert limit.filter(late) and late.getMessage() == "boom [3 more like this held back]"
