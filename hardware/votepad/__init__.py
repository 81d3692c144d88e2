"""The vote pad: an RP2040 (Raspberry Pi Pico) reading the seats' buttons and
lighting their "voted" LEDs, talking to the kiosk over USB serial.

The modules here run unchanged under MicroPython on the pad and under CPython
on the host: the host driver (``companion.devices.pad``) imports
:mod:`votepad.protocol`, and the tests run :mod:`votepad.pad` as a simulated
pad. Only ``main.py`` touches the pad's hardware and is never imported on the
host. See PROTOCOL.md for the wire format and README.md for the build.
"""
