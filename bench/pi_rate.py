"""From x86-64 instructions counted here (callgrind) to time on a Raspberry Pi.

The constants are x86-64 instructions per millisecond of a Pi core running
the same CPython 3.11 work (Raspberry Pi OS Bookworm ships Debian's 3.11):

- Pi 5 (Cortex-A76, 2.4 GHz): 7.5 M/ms (plausibly 6.0–8.5). Calibrated on
  pyperformance's ``nbody``: its default workload (20,000 steps) costs
  0.99×10⁹ x86 instructions under Debian's CPython 3.11 here (callgrind,
  an empty script's start subtracted) and takes a median 136.5 ms on a
  Pi 5 under CPython 3.13.7 (PGO+LTO; github.com/savannahostrowski/
  pyperf_bench, results/bm-20250814-3.13.7-bcee1c3, runner "blueberry",
  Linux 6.12.47+rpt-rpi-2712). CPython 3.13 runs 8.4% more instructions
  than 3.11 on it (measured here), hence 7.3–7.9 M/ms.
- Pi 4 (Cortex-A72): 3.0 M/ms at 1.8 GHz (the clock of every Pi 4 made
  since 2020; plausibly 2.2–4.0) and 2.5 M/ms at 1.5 GHz (the first
  boards; 1.8–3.3). No published CPython 3.11 run on a Pi 4 was found:
  the Pi 5's rate over published single-core ratios of Pi 5 to Pi 4
  (sysbench 1.85–2.27×: leoncode.co.uk/articles/raspberry-pi-benchmarks,
  zbotic.in), checked against an N-body run on a 1.5 GHz Pi 4 (158.3 s for
  5×10⁶ steps under an older Python, chaitanyamehta.github.io, 2020:
  1.6 M/ms, a floor, before 3.11's 1.25× speed-up).

As instructions per cycle: 1.7 x86 instructions a cycle on the A72, 3.1 on
the A76 (high for a 4-wide core: the Pi 5 figure may be optimistic). The
estimates hold for CPU-bound Python and C extensions' work, within about a
third; this machine's interpreter (a pyenv build, no PGO) counts about 4%
more than Debian's, which errs on the slow side.
"""

from __future__ import annotations

PI4_PER_MS = 3.0e6  # Cortex-A72 at 1.8 GHz
PI4_1500_PER_MS = 2.5e6  # Cortex-A72 at 1.5 GHz
PI5_PER_MS = 7.5e6  # Cortex-A76 at 2.4 GHz


def pi4_ms(instructions: float) -> float:
    return instructions / PI4_PER_MS


def pi4_1500_ms(instructions: float) -> float:
    return instructions / PI4_1500_PER_MS


def pi5_ms(instructions: float) -> float:
    return instructions / PI5_PER_MS
