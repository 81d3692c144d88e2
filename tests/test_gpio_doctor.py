"""`companion doctor` on mock pins: it lists the pin map, blinks and beeps,
prints the pad's status and shows presses as they come."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from companion.devices.doctor import run_doctor
from companion.devices.pad import SerialPad
from companion.devices.pad_sim import PadSimulator, PtyLink
from companion.devices.pinmap import parse_pinmap
from companion.i18n import Messages

PINMAP = parse_pinmap(
    "gavel = 4\nbuzzer = 12\n[seats.1]\nbuttons = [17, 18]\nled = 20\n[seats.3]\nbuttons = [22]\n"
)


@pytest.fixture
def factory():
    pins = MockFactory()
    yield pins
    pins.reset()


def doctor(
    factory,
    open_pad=None,
    presses=(),
    seconds=0.3,
    simulated="mock",
    pinmap=PINMAP,
    on_listen=lambda: None,
):
    """Run the doctor; when it starts listening, press ``presses`` (pins)."""
    lines = []

    def say(line: str) -> None:
        lines.append(line)
        if line.startswith("Press any button"):
            for pin in presses:
                factory.pin(pin).drive_low()
                factory.pin(pin).drive_high()
            on_listen()

    status = run_doctor(
        pinmap,
        factory,
        simulated=simulated,
        t=Messages("en"),
        seconds=seconds,
        open_pad=open_pad,
        say=say,
    )
    return status, lines


def test_the_doctor_lists_checks_and_shows_presses(factory, tmp_path):
    link = PtyLink(tmp_path)
    sim = PadSimulator(link, seats=4)
    sim.start()

    def open_pad(deliver):
        pad = SerialPad(deliver, link.path, retry_interval=0.05)
        pad.start()
        return pad

    try:
        status, lines = doctor(
            factory,
            open_pad=open_pad,
            presses=[18, 4],
            seconds=1.0,
            on_listen=lambda: sim.press(sim.now_ms + 50, 2, 1),
        )
    finally:
        sim.stop()
        link.unplug()
    assert status == 0
    listening = lines.index("Press any button: each press is shown here for 1.0 s.")
    assert lines[:10] == [
        "Simulated pins (--mock): nothing on the header is touched.",
        "2 seats in the pin map:",
        "  Seat 1: buttons GPIO 17 (header pin 11), GPIO 18 (header pin 12); "
        "voted LED GPIO 20 (header pin 38)",
        "  Seat 3: buttons GPIO 22 (header pin 15); no LED",
        "Gavel: GPIO 4 (header pin 7)",
        "Buzzer: GPIO 12 (header pin 32)",
        "Blinking the LED of seat 1, GPIO 20 (header pin 38).",
        "Sounding the buzzer: the timer ran out (three long beeps).",
        "Sounding the buzzer: the gavel (a double knock).",
        "Button pad:",
    ]
    assert f"  port: {link.path}" in lines[10:listening]
    assert "  online: True" in lines[10:listening]
    shown = lines[listening + 1 : -1]
    assert shown[0].endswith(" s  seat 1, button 2, GPIO 18 (header pin 12)")
    assert shown[1].endswith(" s  gavel, GPIO 4 (header pin 7)")
    assert shown[2].endswith(" s  seat 3, button 2, on the pad")
    assert lines[-1] == "3 presses seen."
    assert [s.state for s in factory.pin(20).states] == [False] + [True, False] * 3
    assert [s.state for s in factory.pin(12).states] == [False] + [True, False] * 5


def test_no_gpio_and_no_pad_are_said_plainly(factory, tmp_path):
    def open_pad(deliver):
        pad = SerialPad(deliver, str(tmp_path / "no-pad-here"), retry_interval=0.05)
        pad.start()
        return pad

    quiet = parse_pinmap("[seats.1]\nbuttons = [17]\n")  # nothing to blink or beep
    status, lines = doctor(factory, open_pad=open_pad, simulated="no pin library", pinmap=quiet)
    assert status == 0
    assert lines[0] == "No GPIO here: using simulated pins (no pin library)."
    assert "  connected: False" in lines and "  online: False" in lines
    assert lines[-1] == "0 presses seen."


def test_pins_that_cannot_be_opened_are_reported(factory):
    holder = LED(17, pin_factory=factory)  # something else holds seat 1's first button
    status, lines = doctor(factory)
    holder.close()
    assert status == 1
    assert lines[-1].startswith("The pins of the pin map cannot be opened: ")


def companion(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


@pytest.mark.slow
def test_companion_doctor_with_mock_pins():
    done = companion("doctor", "--mock", "--seconds", "0.5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Simulated pins (--mock): nothing on the header is touched."
    assert "6 seats in the pin map:" in lines
    assert "Press any button: each press is shown here for 0.5 s." in lines
    assert lines[-1] == "0 presses seen."


def test_companion_doctor_without_gpio_says_so_and_reads_a_user_map(tmp_path):
    pins = tmp_path / "pins.toml"
    pins.write_text("[seats.2]\nbuttons = [5]\n")
    done = companion(
        "doctor", "--seconds", "0", "--pins", str(pins), GPIOZERO_PIN_FACTORY="no-such-library"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("No GPIO here: using simulated pins (")
    assert lines[1:3] == [
        "1 seat in the pin map:",
        "  Seat 2: buttons GPIO 5 (header pin 29); no LED",
    ]


def test_companion_doctor_refuses_a_bad_pin_map(tmp_path):
    pins = tmp_path / "pins.toml"
    pins.write_text("gavel = 14\n")
    done = companion("doctor", "--mock", "--seconds", "0", COMPANION_PINS=str(pins))
    assert done.returncode == 2
    assert "GPIO 14 is the serial port" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("seconds", ["nan", "-1", "inf"])
def test_companion_doctor_refuses_a_time_that_is_no_time(seconds):
    """Before, nan listened for no time at all and inf for ever, silently."""
    done = companion("doctor", "--mock", "--seconds", seconds, "--lang", "el")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        f"companion doctor: Το --seconds δέχεται αριθμό δευτερολέπτων, 0 ή περισσότερα "
        f"(όχι {float(seconds)})."
    )
