"""The console's actions and the tables' replies, as they travel over MQTT.

The console publishes an action to ``companion/<table>/command`` (QoS 1, not
retained); the table applies it once and answers on ``companion/<table>/reply``
under the action's id. Both ends import this module, so neither can drift
from the other.

An action is signed: an HMAC-SHA256 of its canonical JSON under the café's
action key, a secret file the console and every table hold (docs/cafe.md).
The broker's ACL already lets only the console write a command topic; the
signature keeps a table safe on a broker that lets anyone publish (a home's
Home Assistant broker often does), and it covers the table's name and the
time the action was issued, so an action captured on the wire cannot be
sent to another table, or sent again later: a table refuses an action
issued more than ``WINDOW`` seconds from its own clock, and answers one it
has applied already with its first reply, marked ``repeated``, without
applying it again.

An action also says when it expires (``expires_at``, ``LIFETIME`` seconds
after it was issued unless the console waits otherwise): the moment the
console stops waiting and tells the staff the table did not answer. A table
refuses one that reaches it later (``EXPIRED``), so an action the staff
were told got no answer, and may well have sent again, is never applied
after all when a broker that was down delivers it.

    action = {"id": "9f1c...", "table": "table-7", "action": "end_game",
              "game_id": 12, "args": {}, "issued_at": 1796151731.2,
              "expires_at": 1796151741.2,
              "sig": "<hex HMAC of all the other fields>"}
    reply  = {"id": "9f1c...", "table": "table-7", "ok": false,
              "key": "fleet.refused.not_over", "args": {}, "result": {},
              "repeated": false}

A table signs what it says back the same way, under the same key: its
every status and every reply carry a ``sig`` over all their other fields
(:func:`sign`), with the kind of message (``status`` or ``reply``) in front,
so no signature of one kind passes for another's. The console believes a
status or a reply only when it is signed and names the table whose topic it
came on (:func:`signed_by`): on a broker anyone may publish to, a fake table
or a forged "done" is told apart from a real one.

``game_id`` is the game the staff saw when they asked (None for an idle
table): an action meant for a game that has since ended is refused, never
applied to the next one. A refusal's ``key`` is a catalog key, worded in the
staff's language by the console.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .broker import BrokerError

END_GAME = "end_game"
PAUSE_TIMER = "pause_timer"
RESUME_TIMER = "resume_timer"
REPAIR_SEAT = "repair_seat"  # args: {"seat": n}
MESSAGE = "message"  # args: {"text": "..."}
NEXT_GAME = "next_game"
ACTIONS = (END_GAME, PAUSE_TIMER, RESUME_TIMER, REPAIR_SEAT, MESSAGE, NEXT_GAME)

WINDOW = 300.0  # seconds either side of the table's clock an action is good for
LIFETIME = 10.0  # seconds from issue to expiry: the console's wait for a reply
MAX_MESSAGE = 200  # characters of a message shown on a kiosk
MAX_ACTION_BYTES = 2048  # an action's JSON, at most: anything longer is not read
# Brackets an action's JSON may nest: an action holds its args, an object
# of plain values. Deeper is garbled, refused before the parser recurses
# (Python's recursion limit is within 2 KB of "[").
MAX_DEPTH = 4
MIN_KEY_BYTES = 16

# Refusals that concern the action itself, decided here; a table adds its own
# (fleet.refused.*) for an action it understood but cannot do now.
GARBLED = "fleet.refused.garbled"
FORGED = "fleet.refused.forged"
STALE = "fleet.refused.stale"
EXPIRED = "fleet.refused.expired"
OTHER_TABLE = "fleet.refused.other_table"
UNKNOWN = "fleet.refused.unknown"

_FIELDS = ("id", "table", "action", "game_id", "args", "issued_at", "expires_at")


class ActionRefused(Exception):
    """An action the table will not apply, said as a catalog key."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args


@dataclass(frozen=True)
class Action:
    id: str
    table: str
    action: str
    game_id: int | None
    args: dict[str, Any] = field(default_factory=dict)
    issued_at: float = 0.0
    expires_at: float = 0.0

    def expired(self, now: float) -> bool:
        return now > self.expires_at


def read_action_key(path: Path) -> bytes:
    """The café's action key: the first line of ``path``, at least
    ``MIN_KEY_BYTES`` long (``openssl rand -hex 32`` makes a good one)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BrokerError(f"cannot read the action key from {path}: {exc}") from None
    key = lines[0].strip().encode() if lines else b""
    if len(key) < MIN_KEY_BYTES:
        raise BrokerError(
            f"{path}: the action key is its first line, at least {MIN_KEY_BYTES} characters"
        )
    return key


def _canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(
        {name: fields[name] for name in _FIELDS},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    ).encode()


def _signature(key: bytes, fields: dict[str, Any]) -> str:
    return hmac.new(key, _canonical(fields), hashlib.sha256).hexdigest()


STATUS = "status"  # kinds of message a table signs
REPLY = "reply"


def _message_signature(key: bytes, kind: str, message: dict[str, Any]) -> str:
    fields = {name: value for name, value in message.items() if name != "sig"}
    body = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(key, f"{kind}\n{body}".encode(), hashlib.sha256).hexdigest()


def sign(key: bytes, kind: str, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` (a table's status or reply) with its ``sig``: the HMAC of
    ``kind`` and the message's canonical JSON under the café's key."""
    return {**message, "sig": _message_signature(key, kind, message)}


def signed_by(key: bytes, kind: str, message: dict[str, Any], table: str) -> bool:
    """Whether ``message``, read from ``table``'s topic, is one of ``kind``
    that a holder of ``key`` signed for ``table`` (the console's check)."""
    sig = message.get("sig")
    if not isinstance(sig, str) or message.get("table") != table:
        return False
    try:
        expected = _message_signature(key, kind, message)
    except (TypeError, ValueError, RecursionError):  # nothing a table signs
        return False
    return hmac.compare_digest(expected, sig)


def make_action(
    key: bytes,
    table: str,
    action: str,
    game_id: int | None,
    args: dict[str, Any] | None = None,
    now: float | None = None,
    lifetime: float = LIFETIME,
) -> dict[str, Any]:
    """A new signed action (the console's side), as the dict to publish,
    good for ``lifetime`` seconds (the console's wait for its reply)."""
    issued = time.time() if now is None else now
    fields: dict[str, Any] = {
        "id": secrets.token_hex(16),
        "table": table,
        "action": action,
        "game_id": game_id,
        "args": dict(args or {}),
        "issued_at": round(issued, 3),
        "expires_at": round(issued + lifetime, 3),
    }
    return {**fields, "sig": _signature(key, fields)}


def _nested_deeper(payload: bytes, limit: int) -> bool:
    """Whether ``payload``'s JSON nests more than ``limit`` brackets deep
    (brackets inside strings do not count)."""
    if payload.count(b"[") + payload.count(b"{") <= limit:
        return False  # the common case, at C speed
    depth, quoted, escaped = 0, False, False
    for byte in payload:
        if quoted:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # '"'
                quoted = False
        elif byte == 0x22:
            quoted = True
        elif byte in (0x5B, 0x7B):  # '[', '{'
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def _load(payload: bytes) -> Any:
    """``payload``'s JSON, read only when it is small and shallow enough to
    be an action: :class:`ActionRefused` (garbled) otherwise, never an
    exception of the parser's own."""
    if len(payload) > MAX_ACTION_BYTES or _nested_deeper(payload, MAX_DEPTH):
        raise ActionRefused(GARBLED)
    try:
        return json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ActionRefused(GARBLED) from None


def action_id(payload: bytes) -> str | None:
    """The id an action claims, for answering even one that is refused; None
    when there is none to answer to, or the payload is too large or too
    deep to be read at all."""
    try:
        data = _load(payload)
    except ActionRefused:
        return None
    identity = data.get("id") if isinstance(data, dict) else None
    return identity if isinstance(identity, str) and 0 < len(identity) <= 64 else None


def read_action(payload: bytes, key: bytes, table: str, now: float | None = None) -> Action:
    """The action in ``payload``, checked: well formed, signed with ``key``,
    meant for ``table``, issued within ``WINDOW`` of ``now``, and one this
    module knows. :class:`ActionRefused` says which check failed. Whether it
    has expired is the table's to check (:meth:`Action.expired`), after it
    has looked for its reply to an action it applied already."""
    data = _load(payload)
    if not isinstance(data, dict) or not all(name in data for name in (*_FIELDS, "sig")):
        raise ActionRefused(GARBLED)
    if not (
        isinstance(data["id"], str)
        and isinstance(data["table"], str)
        and isinstance(data["action"], str)
        and (data["game_id"] is None or type(data["game_id"]) is int)
        and isinstance(data["args"], dict)
        and type(data["issued_at"]) in (int, float)
        and type(data["expires_at"]) in (int, float)
        # No NaN: each compares, and an action expires within the window.
        and data["issued_at"] < data["expires_at"] <= data["issued_at"] + WINDOW
        and isinstance(data["sig"], str)
    ):
        raise ActionRefused(GARBLED)
    try:
        expected = _signature(key, data)
    except (TypeError, ValueError):  # args that JSON cannot say canonically
        raise ActionRefused(GARBLED) from None
    if not hmac.compare_digest(expected, data["sig"]):
        raise ActionRefused(FORGED)
    if data["table"] != table:
        raise ActionRefused(OTHER_TABLE, table=data["table"])
    now = time.time() if now is None else now
    if abs(now - data["issued_at"]) > WINDOW:
        raise ActionRefused(STALE, seconds=round(now - data["issued_at"]))
    if data["action"] not in ACTIONS:
        raise ActionRefused(UNKNOWN, action=data["action"][:32])
    return Action(*(data[name] for name in _FIELDS))


def make_reply(
    identity: str,
    table: str,
    refused: ActionRefused | None = None,
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The table's answer to action ``identity``: done (with its ``result``,
    public facts only: a new game's number, never a seat's link), or refused."""
    return {
        "id": identity,
        "table": table,
        "ok": refused is None,
        "key": None if refused is None else refused.key,
        "args": {} if refused is None else refused.args_,
        "result": dict(result or {}),
        "repeated": False,
    }
