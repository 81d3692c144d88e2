"""Instructions counted by valgrind's callgrind, for stretches of a process
the process itself marks.

Why callgrind and not ``perf stat -e instructions``: perf needs the CPU's
performance counters, which a virtual machine (this one, and most CI
runners) does not expose (``perf stat`` says "<not supported>"), while
callgrind simulates the CPU and counts every instruction it executes on any
machine, the same count from run to run. It also says in which shared
object each instruction ran, which is how Mesa's software renderer (the
GL rasterisation that a Pi's GPU does, not its CPU) is told apart from
the work the Pi's CPU does.

The measured process runs under ``valgrind --tool=callgrind
--instr-atstart=no`` (:func:`run`): nothing is counted but each ``with
meter.stretch(name):``, instrumented, zeroed before and dumped after, to a
file of its own. The marks are valgrind's
client requests: the instruction sequence ``valgrind.h`` emits (a rotation
preamble on ``rdi``, then ``xchg rbx, rbx``), here as ten bytes of x86-64
machine code called through ctypes, so no compiler is needed. Outside
valgrind the sequence does nothing and the meter says it counts nothing.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# valgrind.h: VG_USERREQ__RUNNING_ON_VALGRIND; callgrind.h: the tool's
# requests start at VG_USERREQ_TOOL_BASE('C', 'T').
_RUNNING_ON_VALGRIND = 0x1001
_CALLGRIND = (ord("C") << 24) | (ord("T") << 16)
_ZERO_STATS = _CALLGRIND + 1
_DUMP_STATS_AT = _CALLGRIND + 3
_START_INSTRUMENTATION = _CALLGRIND + 4
_STOP_INSTRUMENTATION = _CALLGRIND + 5

# uint64 request(uint64 *args /* rdi */, uint64 default /* rsi */):
# valgrind.h's VALGRIND_DO_CLIENT_REQUEST_EXPR for amd64 (args in rax,
# default in and result out of rdx).
_AMD64_REQUEST = bytes.fromhex(
    "4889f8"  # mov rax, rdi
    "4889f2"  # mov rdx, rsi
    "48c1c703"  # rol rdi, 3
    "48c1c70d"  # rol rdi, 13
    "48c1c73d"  # rol rdi, 61
    "48c1c733"  # rol rdi, 51
    "4887db"  # xchg rbx, rbx
    "4889d0"  # mov rax, rdx
    "c3"  # ret
)

# The shared objects of Mesa's GL driver: on this machine llvmpipe, which
# rasterises on the CPU (with code LLVM compiles at run time, which
# callgrind finds in no object). On a Pi the V3D GPU does that work.
GL_DRIVER = re.compile(r"(_dri\.so|libgallium|libLLVM|libGLX_mesa|libEGL_mesa|libglapi)")


class Meter:
    """The process's own marks for callgrind (does nothing outside valgrind)."""

    def __init__(self) -> None:
        self._memory: mmap.mmap | None = None
        self._request = None
        if platform.machine() in ("x86_64", "AMD64"):
            memory = mmap.mmap(
                -1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC
            )
            memory.write(_AMD64_REQUEST)
            address = ctypes.addressof(ctypes.c_char.from_buffer(memory))
            kind = ctypes.CFUNCTYPE(
                ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint64
            )
            self._memory, self._request = memory, kind(address)
        self.counting = self._call(_RUNNING_ON_VALGRIND) > 0

    def _call(self, request: int, argument: int = 0) -> int:
        if self._request is None:
            return 0
        args = (ctypes.c_uint64 * 6)(request, argument, 0, 0, 0, 0)
        return int(self._request(args, 0))

    def mark(self, name: str) -> None:
        """Dump what was counted since the last dump (or the start), as ``name``."""
        label = ctypes.create_string_buffer(name.encode())
        self._call(_DUMP_STATS_AT, ctypes.addressof(label))

    @contextmanager
    def stretch(self, name: str) -> Iterator[None]:
        """Count what the block runs, into a dump of its own named ``name``.
        Outside the stretches the process runs uninstrumented (several
        times faster under valgrind), unless it was started ``from_start``."""
        self._call(_START_INSTRUMENTATION)
        self._call(_ZERO_STATS)
        yield
        self.mark(name)
        self._call(_STOP_INSTRUMENTATION)


@dataclass(frozen=True)
class Count:
    """One stretch's instructions: those the CPU does, and those of the GL
    driver's rasteriser (left out of every estimate)."""

    name: str
    cpu: int
    gl: int


def available() -> str | None:
    """None if callgrind can count here, else why not."""
    if shutil.which("valgrind") is None:
        return "valgrind is not installed (scripts/system-packages.sh installs it)"
    if platform.machine() not in ("x86_64", "AMD64"):
        return f"the marks are written for x86-64, not {platform.machine()}"
    return None


def run(
    args: list[str],
    directory: Path,
    env: dict[str, str] | None = None,
    from_start: bool = False,
    timeout: float = 3600,
) -> list[Count]:
    """Run ``python args`` under callgrind; the counts of the stretches it
    marked, in order. ``from_start``: instrument from the first
    instruction (else from :meth:`Meter.start`)."""
    directory.mkdir(parents=True, exist_ok=True)
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--instr-atstart={'yes' if from_start else 'no'}",
        f"--callgrind-out-file={directory}/cg.out",
        "--log-file=" + str(directory / "valgrind.log"),
        sys.executable,
        *args,
    ]
    child = subprocess.run(
        command, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=timeout
    )
    if child.returncode != 0:
        log = (directory / "valgrind.log").read_text(errors="replace")[-3000:]
        raise RuntimeError(
            f"{' '.join(args)} failed under callgrind:\n{child.stderr[-3000:]}\n{log}"
        )
    dumps = sorted(directory.glob("cg.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
    return [count for count in map(read_dump, dumps) if count is not None]


def read_dump(path: Path) -> Count | None:
    """A dump's stretch name and its instructions by kind; None for a dump
    no stretch made (the one valgrind writes at exit)."""
    with path.open(errors="replace") as lines:
        for line in lines:
            if line.startswith("desc: Trigger: Client Request: "):
                cpu, gl = split_costs(path)
                return Count(line.split(": ", 3)[3].strip(), cpu, gl)
    return None


# A call under way when a stretch zeroed the counts ends with a count below
# the one it began with; callgrind writes that negative cost as unsigned.
# Read as the negative number it is, the sums came within 0.2% of the runs
# without one (2026-12-03: home's screen change read 2**64 - 122 M once,
# then 122.2 M, against 122.3 M in a run without it).
WRAPPED = 1 << 63


def split_costs(path: Path) -> tuple[int, int]:
    """A dump's instructions: (the CPU's, the GL driver's). The driver's are
    those in its objects (``GL_DRIVER``) and all that their calls into other
    code ran (libc's memset for a texture, the shaders llvmpipe compiled,
    which are in no object): a call's inclusive cost, which callgrind
    writes after its ``calls=`` line."""
    total = gl = 0
    objects: dict[str, str] = {}
    functions: dict[str, str] = {}
    here = "???"  # the object of the function whose lines these are
    callee: str | None = None  # the object a call goes to, for its next line
    called: str | None = None  # cob= of the next call
    with path.open(errors="replace") as lines:
        for line in lines:
            head = line[:1]
            if head.isdigit() or head in "+-*":
                fields = line.split()
                cost = int(fields[1]) if len(fields) > 1 else 0
                if cost >= WRAPPED:  # see WRAPPED
                    cost -= 1 << 64
                if callee is None:
                    total += cost
                    gl += cost if _is_driver(here) else 0
                elif _is_driver(here) and not _is_driver(callee):
                    gl += cost
                callee = None
            elif line.startswith("ob="):
                here = _name(line[3:], objects)
            elif line.startswith("fn="):
                _name(line[3:], functions)
            elif line.startswith("cob="):
                called = _name(line[4:], objects)
            elif line.startswith("cfn="):
                _name(line[4:], functions)
            elif line.startswith("calls="):
                callee, called = called or here, None
    return total - gl, gl


def _is_driver(path: str) -> bool:
    return GL_DRIVER.search(os.path.basename(path)) is not None


def _name(text: str, names: dict[str, str]) -> str:
    """A compressed name: ``(3) /usr/lib/x.so`` defines 3, ``(3)`` uses it."""
    text = text.strip()
    if not text.startswith("("):
        return text
    key, _, rest = text.partition(")")
    if rest.strip():
        names[key] = rest.strip()
    return names.get(key, "???")
