"""The pad's firmware entry point (MicroPython on a Raspberry Pi Pico), run at
power-up. The only module that touches the hardware: it scans the button
matrix every millisecond, feeds the levels and the host's bytes to
votepad.pad.Pad, writes out what the pad sends, and lights the LEDs. Never
imported on the host. README.md has the wiring; PROTOCOL.md the link.
"""

import os
import select
import sys
import time

import micropython
import rp2
from machine import Pin

from votepad.pad import Pad

ROW_PINS = (2, 3, 4)  # button 1, 2, 3 of every seat
SEAT_PINS = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14)  # seat 1..10, one per seat
LED_PINS = (15, 16, 17, 18, 19, 20, 21, 22, 26, 27)  # seat 1..10 "voted" LED
SCAN_MS = 1
SETTLE_US = 20  # a row's line charges through its cable before it is read
READ_MAX = 256  # host bytes taken per loop, so a flood cannot stall the scan
BOOTSEL_EVERY = 100  # loops between looks at the BOOTSEL button (it pauses flash)


def scan(rows, seats, levels):
    """Pull one row low at a time; a closed switch pulls its seat's column
    low through its diode. levels[seat * 3 + row] is True while held."""
    buttons = len(rows)
    for row_index in range(buttons):
        row = rows[row_index]
        row.value(0)
        time.sleep_us(SETTLE_US)
        for seat_index in range(len(seats)):
            levels[seat_index * buttons + row_index] = seats[seat_index].value() == 0
        row.value(1)


def main():
    # A 0x03 byte from the host is data, not Ctrl-C. To reach the REPL (to
    # update the firmware with mpremote), hold BOOTSEL for a moment.
    micropython.kbd_intr(-1)
    rows = [Pin(pin, Pin.OUT, value=1) for pin in ROW_PINS]
    seats = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in SEAT_PINS]
    leds = [Pin(pin, Pin.OUT, value=0) for pin in LED_PINS]
    session = "%04X" % int.from_bytes(os.urandom(2), "big")
    pad = Pad(sys.stdout.buffer.write, session, len(SEAT_PINS), len(ROW_PINS))
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    levels = [False] * (len(SEAT_PINS) * len(ROW_PINS))
    uptime_ms = 0  # ticks_ms wraps; the protocol's clock must not
    last = time.ticks_ms()
    loops = 0
    while True:
        loops += 1
        if loops % BOOTSEL_EVERY == 0 and rp2.bootsel_button():
            for led in leds:
                led.value(0)
            micropython.kbd_intr(3)
            return
        now = time.ticks_ms()
        uptime_ms += time.ticks_diff(now, last)
        last = now
        received = bytearray()
        while len(received) < READ_MAX and poller.poll(0):
            received += sys.stdin.buffer.read(1)
        if received:
            pad.receive(bytes(received), uptime_ms)
        scan(rows, seats, levels)
        pad.tick(uptime_ms, levels)
        lit = pad.led_levels(uptime_ms)
        for seat_index in range(len(leds)):
            leds[seat_index].value(1 if lit[seat_index] else 0)
        time.sleep_ms(SCAN_MS)


main()
