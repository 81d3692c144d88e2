"""Talk to a running QEMU through its QMP socket (the machine protocol of
QEMU's monitor), for scripts/pi-system-check. Standard library only: it runs
with the host's python3.

    python3 qmp.py SOCKET screendump FILE.ppm    the screen, as QEMU shows it
    python3 qmp.py SOCKET hmp 'COMMAND'          a human monitor command
                                                 (sendkey ctrl-alt-f2, ...)

Prints what QEMU returned; exit status 1 on an error reply."""

from __future__ import annotations

import json
import socket
import sys


class Qmp:
    """One QMP session: the greeting read, capabilities negotiated."""

    def __init__(self, path: str, timeout: float = 60) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rwb")
        self._read()  # {"QMP": {...}}
        self.execute("qmp_capabilities")

    def _read(self) -> dict:
        line = self.file.readline()
        if not line:
            raise ConnectionError("QEMU closed its QMP socket")
        return json.loads(line)

    def execute(self, command: str, **arguments: object) -> object:
        """Run COMMAND; its return value, events in between skipped."""
        message: dict[str, object] = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.file.write(json.dumps(message).encode() + b"\n")
        self.file.flush()
        while True:
            reply = self._read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"{command}: {reply['error'].get('desc', reply['error'])}")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[2] not in ("screendump", "hmp"):
        print(__doc__, file=sys.stderr)
        return 2
    path, command, argument = argv[1:]
    qmp = Qmp(path)
    try:
        if command == "screendump":
            qmp.execute("screendump", filename=argument)
            print(argument)
        else:
            print(qmp.execute("human-monitor-command", **{"command-line": argument}), end="")
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        qmp.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
