"""Where the fleet's broker is, and who the table is to it."""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

MQTT_PORT = 1883
MQTTS_PORT = 8883


class BrokerError(ValueError):
    """A broker address or credential the table cannot use (said in English:
    it is the operator's command line)."""


@dataclass(frozen=True)
class Broker:
    """An MQTT broker (``mqtt://host:port``, or ``mqtts://`` over TLS) and the
    table's credentials on it. Over TLS the broker's certificate must chain
    to ``ca_file`` (the café's own CA), or to the system's CAs without one,
    and name the host."""

    host: str
    port: int = MQTT_PORT
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: Path | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @classmethod
    def from_url(
        cls,
        url: str,
        username: str | None = None,
        password: str | None = None,
        ca_file: Path | None = None,
    ) -> Broker:
        """``mqtt://host[:port]`` or ``mqtts://host[:port]`` (TLS, port 8883
        unless given). Credentials come separately, never in the address (a
        command line is readable by every user of the machine)."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise BrokerError(f"{url}: a broker address looks like mqtt://host:port")
        if parts.username or parts.password:
            raise BrokerError(
                f"{parts.hostname}: give credentials with --fleet-user and "
                "--fleet-password-file, not in the address"
            )
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise BrokerError(f"{url}: a broker address has no path or query")
        try:
            port = parts.port or (MQTTS_PORT if parts.scheme == "mqtts" else MQTT_PORT)
        except ValueError:
            raise BrokerError(f"{url}: the port must be a number from 1 to 65535") from None
        if password is not None and username is None:
            raise BrokerError("a broker password needs a user name (--fleet-user)")
        if ca_file is not None:
            if parts.scheme != "mqtts":
                raise BrokerError(f"{url}: a CA file (--fleet-ca-file) is for mqtts:// only")
            check_ca_file(ca_file)
        tls = parts.scheme == "mqtts"
        return cls(parts.hostname, port, username, password, tls, ca_file)


def check_ca_file(path: Path) -> None:
    """:class:`BrokerError` unless ``path`` holds CA certificates (PEM): said
    before the table starts, not as a connection that never comes."""
    try:
        ssl.create_default_context(cafile=str(path))
    except (OSError, ssl.SSLError) as exc:
        raise BrokerError(f"cannot use {path} as the broker's CA: {exc}") from None


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
