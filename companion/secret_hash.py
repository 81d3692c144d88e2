"""A secret as a salted scrypt hash (standard library only), and a
comparison that takes the same time whatever the guess: the kiosk operator's
PIN, so kiosk.ini never holds the PIN itself, and the console staff's
password (``companion console --set-password``).

A 4-digit PIN has only 10,000 values: the hash does not make a stolen
kiosk.ini safe (it is readable by its owner only, and export leaves it out),
it keeps the PIN from being read off the file at a glance or reused."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# scrypt's cost: 16 MiB and about 0.1 s on a Pi 4 per check (RFC 7914's
# interactive setting); stored with each hash, so it can be raised later.
_N, _R, _P = 2**14, 8, 1
_PREFIX = "scrypt"


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$digest``, the salt new and random unless given."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = _digest(pin, salt, _N, _R, _P)
    return "$".join([_PREFIX, str(_N), str(_R), str(_P), salt.hex(), digest.hex()])


def is_pin_hash(stored: str) -> bool:
    return _parse(stored) is not None


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` hashes to ``stored``: False for a malformed ``stored``."""
    parsed = _parse(stored)
    if parsed is None:
        return False
    n, r, p, salt, digest = parsed
    return hmac.compare_digest(_digest(pin, salt, n, r, p), digest)


def same_secret(given: str, expected: str) -> bool:
    """Whether a token sent (a CSRF token) is the one expected, in a time that
    tells nothing of how much of it was right; any text, not only ASCII
    (``hmac.compare_digest`` refuses other strings with an error)."""
    return hmac.compare_digest(
        given.encode("utf-8", "surrogateescape"), expected.encode("utf-8", "surrogateescape")
    )


def _digest(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=32
    )


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes] | None:
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != _PREFIX:
        return None
    try:
        n, r, p = (int(part) for part in parts[1:4])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
    except ValueError:
        return None
    # Bounds a hand-edited file cannot exceed: no hash that takes a minute.
    if not (
        2 <= n <= 2**20
        and n & (n - 1) == 0
        and 1 <= r <= 32
        and 1 <= p <= 4
        and len(digest) == 32
        and salt
    ):
        return None
    return n, r, p, salt, digest
