"""Where the fleet's broker is, and who the table is to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

MQTT_PORT = 1883


class BrokerError(ValueError):
    """A broker address or credential the table cannot use (said in English:
    it is the operator's command line)."""


@dataclass(frozen=True)
class Broker:
    """An MQTT broker (``mqtt://host:port``) and the table's credentials on it."""

    host: str
    port: int = MQTT_PORT
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def from_url(cls, url: str, username: str | None = None, password: str | None = None) -> Broker:
        """``mqtt://host[:port]``. Credentials come separately, never in the
        address (a command line is readable by every user of the machine).
        ``mqtts://`` (TLS) is not supported yet."""
        parts = urlsplit(url)
        if parts.scheme == "mqtts":
            raise BrokerError(f"{url}: TLS (mqtts://) is not supported yet; use mqtt://")
        if parts.scheme != "mqtt" or not parts.hostname:
            raise BrokerError(f"{url}: a broker address looks like mqtt://host:port")
        if parts.username or parts.password:
            raise BrokerError(
                f"{parts.hostname}: give credentials with --fleet-user and "
                "--fleet-password-file, not in the address"
            )
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise BrokerError(f"{url}: a broker address has no path or query")
        try:
            port = parts.port or MQTT_PORT
        except ValueError:
            raise BrokerError(f"{url}: the port must be a number from 1 to 65535") from None
        if password is not None and username is None:
            raise BrokerError("a broker password needs a user name (--fleet-user)")
        return cls(parts.hostname, port, username, password)


def read_password_file(path: Path) -> str:
    """The password in ``path``: its first line, without the line's end."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BrokerError(f"cannot read the broker password from {path}: {exc}") from None
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise BrokerError(f"{path} holds no password on its first line")
    return lines[0]
