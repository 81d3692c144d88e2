"""What a table needs to join a fleet, checked before anything connects:
the broker's address, the credentials, the table's name; and the machine's
health where this machine reports it (a Raspberry Pi's firmware tool is
stood in for by a script)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.cli import main
from companion.fleet import Broker, BrokerError, read_password_file
from companion.fleet.health import cpu_temperature, disk_free, system_health, throttled
from companion.fleet.topics import Topics, check_table_name


def test_a_broker_is_an_mqtt_address_with_its_credentials_apart():
    assert Broker.from_url("mqtt://cafe.local:1884") == Broker("cafe.local", 1884)
    assert Broker.from_url("mqtt://10.0.0.2").port == 1883
    broker = Broker.from_url("mqtt://cafe.local", "t1", "secret")
    assert (broker.username, broker.password) == ("t1", "secret")
    assert "secret" not in repr(broker)


def test_mqtts_is_tls_on_port_8883_with_an_optional_ca_file(tmp_path):
    plain = Broker.from_url("mqtt://cafe.local")
    assert not plain.tls and plain.url == "mqtt://cafe.local:1883"
    broker = Broker.from_url("mqtts://cafe.local")
    assert broker.tls and broker.port == 8883 and broker.ca_file is None
    assert broker.url == "mqtts://cafe.local:8883"
    assert Broker.from_url("mqtts://cafe.local:9883").port == 9883
    not_a_ca = tmp_path / "ca.crt"
    not_a_ca.write_text("not a certificate\n")
    with pytest.raises(BrokerError, match="cannot use .* as the broker's CA"):
        Broker.from_url("mqtts://cafe.local", ca_file=not_a_ca)
    with pytest.raises(BrokerError, match="cannot use .* as the broker's CA"):
        Broker.from_url("mqtts://cafe.local", ca_file=tmp_path / "missing.crt")
    with pytest.raises(BrokerError, match="is for mqtts:// only"):
        Broker.from_url("mqtt://cafe.local", ca_file=not_a_ca)


@pytest.mark.parametrize(
    "url, says",
    [
        ("mqttx://cafe.local:8883", "mqtt://host:port"),
        ("mqtts://t1:secret@cafe.local", "not in the address"),
        ("http://cafe.local", "mqtt://host:port"),
        ("mqtt://t1:secret@cafe.local", "not in the address"),
        ("mqtt://cafe.local:99999", "the port must be a number"),
        ("mqtt://cafe.local/tables", "no path"),
    ],
)
def test_an_address_the_table_cannot_use_is_refused_in_words(url, says):
    with pytest.raises(BrokerError, match=says.replace("(", r"\(").replace(")", r"\)")):
        Broker.from_url(url)


def test_the_password_is_the_first_line_of_its_file(tmp_path):
    path = tmp_path / "password"
    path.write_text("pass word\nnot this\n")
    assert read_password_file(path) == "pass word"
    path.write_text("\n")
    with pytest.raises(BrokerError, match="no password"):
        read_password_file(path)
    with pytest.raises(BrokerError, match="cannot read"):
        read_password_file(tmp_path / "missing")


def test_a_table_name_is_one_topic_level():
    assert Topics("table-7").status == "companion/table-7/status"
    assert Topics("table-7").online == "companion/table-7/online"
    for bad in ("", "a/b", "a+", "#", " t1", "x" * 65, "table 7", "tablé"):
        with pytest.raises(BrokerError):
            check_table_name(bad)


def test_serve_refuses_a_fleet_it_cannot_join_before_it_serves(tmp_path, capsys):
    common = ["serve", "--db", str(tmp_path / "g.sqlite3"), "--game", "coup", "--exit-after", "0"]
    assert main([*common, "--fleet", "mqtts://cafe.local", "--fleet-ca-file", str(common[2])]) == 2
    assert "as the broker's CA" in capsys.readouterr().err
    assert main([*common, "--fleet", "mqtt://cafe.local", "--fleet-ca-file", str(common[2])]) == 2
    assert "is for mqtts:// only" in capsys.readouterr().err
    assert main([*common, "--fleet", "mqtt://cafe.local", "--table-name", "a/b"]) == 2
    assert "a table name is 1 to 64 letters" in capsys.readouterr().err
    missing = tmp_path / "none"
    assert main([*common, "--fleet", "mqtt://x", "--fleet-password-file", str(missing)]) == 2
    assert "cannot read the broker password" in capsys.readouterr().err


def test_health_reads_the_pi_where_it_reports_and_says_null_elsewhere(tmp_path, monkeypatch):
    zone = tmp_path / "temp"
    zone.write_text("48312\n")
    assert cpu_temperature(zone) == 48.3
    assert cpu_temperature(tmp_path / "no-zone") is None
    assert disk_free(tmp_path) > 0 and disk_free(tmp_path / "gone") is None
    monkeypatch.setenv("PATH", str(tmp_path))
    assert throttled() is None  # no vcgencmd: not a Raspberry Pi
    tool = tmp_path / "vcgencmd"
    tool.write_text('#!/bin/sh\n[ "$1" = get_throttled ] && echo "throttled=0x50005"\n')
    tool.chmod(0o755)
    assert throttled() == "0x50005"
    assert set(system_health(tmp_path)) == {"disk_free", "cpu_temp", "throttled"}


def test_an_empty_table_name_is_refused_not_taken_for_the_host_name(tmp_path):
    """Before, `--table-name ''` published under the host name, silently."""
    done = subprocess.run(
        [
            sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "g.sqlite3"),
            "--game", "coup", "--port", "0", "--exit-after", "0",
            "--fleet", "mqtt://127.0.0.1:9", "--table-name", "", "--lang", "ru",
        ],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "companion serve: Параметр --table-name пуст: укажите имя этого стола в парке "
        "(от 1 до 64 букв, цифр, '-' или '_') или не указывайте параметр, чтобы "
        "использовать имя хоста."
    )
