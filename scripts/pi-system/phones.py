"""Phones that play, for the power cuts of scripts/pi-system-check: every
seat joins with its link and then, turn about, sends one of the commands its
phone offers (a button, or a form filled in at random), through the table's
phone API on the guest's forwarded port, until it is stopped.

    python3 phones.py play BASE TOKENS JARS LOG [--seed N]
    python3 phones.py verify LOG FACTS

BASE is the table's address (http://127.0.0.1:PORT); TOKENS a JSON file of
{seat: token}; JARS a directory that keeps each seat's cookie from one run to
the next (a claimed link opens nothing for a new phone: after a reboot the
phones come back with their cookies, as real ones do); LOG gets a JSON line
before each command is sent ({"sent": {...}}) and one after its answer
({"acked": n} for 200 OK, {"refused": n, "error": key} for a 400), each
flushed to this machine's disk, so that what the host saw acknowledged
survives the guest's power cut.

``verify`` holds LOG against the store (FACTS: store_facts.py's JSON, read
after the reboot): every command acknowledged must be there, in order, and
every phone command there must be one that was sent and not refused (a
command in flight at the cut may be either). It prints "acknowledged A,
found F, lost L, phantom P, in flight and kept K" and exits 1 on any loss or
phantom. Standard library only."""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

TIMEOUT = 30  # seconds: the emulated guest is slow, not gone


class Phone:
    """One seat's phone: its cookie jar, its CSRF token."""

    def __init__(self, base: str, seat: int, token: str, jars: Path) -> None:
        self.base, self.seat, self.token = base, seat, token
        self.jar = http.cookiejar.LWPCookieJar(str(jars / f"seat-{seat}.cookies"))
        if os.path.exists(self.jar.filename):
            self.jar.load(ignore_discard=True, ignore_expires=True)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None

    def _open(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None):
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        return self.opener.open(request, timeout=TIMEOUT)

    def state(self) -> dict[str, Any]:
        """The seat's state; joins first if this phone holds no seat yet."""
        try:
            with self._open("/api/seat") as answer:
                state = json.load(answer)
        except urllib.error.HTTPError as error:
            if error.code not in (401, 403, 404):
                raise
            self.join()
            with self._open("/api/seat") as answer:
                state = json.load(answer)
        self.csrf = state.get("csrf")
        return state

    def join(self) -> None:
        """Open the link, tap its button, follow to the seat's page (the
        cookie's first use makes the claim final); keep the cookie."""
        self._open(f"/join/{self.token}").read()
        self._open(f"/join/{self.token}", data=b"").read()  # 303 to /seat, followed
        self.jar.save(ignore_discard=True, ignore_expires=True)

    def send(self, command: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {
            "Content-Type": "application/json",
            "X-Companion-CSRF": self.csrf or "",
            "Origin": self.base,
        }
        try:
            with self._open("/api/command", json.dumps(command).encode(), headers) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def allowed(constraint: dict[str, list[Any]] | None, chosen: dict[str, Any]) -> bool:
    """A form's "when" (or a choice's condition): every named field's value is one listed."""
    return all(chosen.get(name) in values for name, values in (constraint or {}).items())


def fill(form: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The form's command with each field it shows filled in at random."""
    command = dict(form["command"])
    for field in form["fields"]:
        if not allowed(field.get("when"), command):
            continue
        kind = field["kind"]
        if kind == "choice":
            options = [
                c[0] for c in field["choices"] if allowed(c[2] if len(c) > 2 else None, command)
            ]
            if not options:
                return None
            command[field["name"]] = rng.choice(options)
        elif kind == "number":
            command[field["name"]] = rng.randint(field["min"], min(field["max"], field["min"] + 2))
        elif kind == "text":
            command[field["name"]] = "pi-system-check"
        else:
            return None
    return command


def offered(state: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What the seat's phone offers now: its buttons' commands, and its forms filled in."""
    commands = [action["command"] for action in state.get("actions", []) if "command" in action]
    commands += [c for form in state.get("forms", []) if (c := fill(form, rng)) is not None]
    return commands


def same(sent: dict[str, Any], stored: dict[str, Any]) -> bool:
    """The stored command is the one sent: the server adds the seat, and
    keeps every field the phone sent."""
    return stored.get("seat") == sent["seat"] and all(
        stored.get(key) == value for key, value in sent["command"].items()
    )


def align(candidates: list[dict[str, Any]], stored: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """The cheapest way to read the store as the commands sent, in order: a
    list of ("kept", i), ("lost", i) and ("phantom", j) steps (i a sent
    command's index, j a stored one's). A command sent and not answered (in
    flight at a cut) may be kept or missing at no cost; an acknowledged one
    missing costs 1 (lost), so does a stored one matching nothing (phantom).
    A greedy match would keep an unanswered command and then call the same
    command, sent again after the reboot and acknowledged, lost.

    Dynamic programming on a band about the diagonal: the two lists differ
    by the commands in flight (one a cut at most) and by any losses or
    phantoms, which fail the check anyway."""
    band = sum(entry["answer"] is None for entry in candidates) + 20
    best: dict[tuple[int, int], tuple[int, tuple[int, int] | None, str]] = {(0, 0): (0, None, "")}
    for i in range(len(candidates) + 1):
        for j in range(max(0, i - band), min(len(stored), i + band) + 1):
            here = best.get((i, j))
            if here is None:
                continue
            cost = here[0]
            steps = []
            if i < len(candidates) and j < len(stored) and same(candidates[i], stored[j]):
                steps.append(((i + 1, j + 1), cost, "kept"))
            if i < len(candidates):
                steps.append(((i + 1, j), cost + (candidates[i]["answer"] == "acked"), "missing"))
            if j < len(stored):
                steps.append(((i, j + 1), cost + 1, "phantom"))
            for place, new_cost, step in steps:
                if abs(place[0] - place[1]) <= band and (
                    place not in best or new_cost < best[place][0]
                ):
                    best[place] = (new_cost, (i, j), step)
    end = (len(candidates), len(stored))
    if end not in best:  # further apart than the band: everything is in doubt
        return [("lost", i) for i, c in enumerate(candidates) if c["answer"] == "acked"] + [
            ("phantom", j) for j in range(len(stored))
        ]
    path: list[tuple[str, int]] = []
    place = end
    while best[place][1] is not None:
        _, before, step = best[place]
        assert before is not None
        if step == "kept":
            path.append(("kept", before[0]))
        elif step == "phantom":
            path.append(("phantom", before[1]))
        elif candidates[before[0]]["answer"] == "acked":
            path.append(("lost", before[0]))
        place = before
    return path[::-1]


def verify(log: Path, facts: Path) -> int:
    sent: dict[int, dict[str, Any]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "sent" in entry:
            sent[entry["sent"]] = {**entry, "answer": None}
        elif "acked" in entry:
            sent[entry["acked"]]["answer"] = "acked"
        else:
            sent[entry["refused"]]["answer"] = "refused"
    candidates = [entry for _, entry in sorted(sent.items()) if entry["answer"] != "refused"]
    stored = [body for _source, body in json.loads(facts.read_text()).get("phone_commands", [])]
    steps = align(candidates, stored)
    lost = [candidates[i] for step, i in steps if step == "lost"]
    phantom = [stored[j] for step, j in steps if step == "phantom"]
    kept = sum(step == "kept" and candidates[i]["answer"] is None for step, i in steps)
    for entry in lost:
        print(f"lost: {entry['sent']} {entry['command']}")
    for body in phantom:
        print(f"phantom: {body}")
    acknowledged = sum(entry["answer"] == "acked" for entry in candidates)
    print(
        f"acknowledged {acknowledged}, found {acknowledged - len(lost)}, lost {len(lost)}, "
        f"phantom {len(phantom)}, in flight and kept {kept}"
    )
    return 1 if lost or phantom else 0


def main(argv: list[str]) -> int:
    if argv[1:2] == ["verify"] and len(argv) == 4:
        return verify(Path(argv[2]), Path(argv[3]))
    if argv[1:2] != ["play"]:
        print(__doc__, file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("tokens", type=Path)
    parser.add_argument("jars", type=Path)
    parser.add_argument("log", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv[2:])
    rng = random.Random(args.seed)
    tokens = {int(seat): token for seat, token in json.loads(args.tokens.read_text()).items()}
    args.jars.mkdir(parents=True, exist_ok=True)
    phones = [
        Phone(args.base.rstrip("/"), seat, token, args.jars)
        for seat, token in sorted(tokens.items())
    ]
    log = open(args.log, "a", encoding="utf-8")

    def note(entry: dict[str, Any]) -> None:
        log.write(json.dumps(entry) + "\n")
        log.flush()
        os.fsync(log.fileno())

    number = sum(1 for _ in open(args.log, encoding="utf-8"))  # a number no earlier run used
    while True:
        idle = True
        for phone in rng.sample(phones, len(phones)):
            commands = offered(phone.state(), rng)
            if not commands:
                continue
            idle = False
            command = rng.choice(commands)
            number += 1
            note({"sent": number, "seat": phone.seat, "command": command})
            status, answer = phone.send(command)
            if status == 200 and answer.get("ok"):
                note({"acked": number})
            else:
                note({"refused": number, "status": status, "error": answer.get("error")})
        if idle:
            time.sleep(1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
