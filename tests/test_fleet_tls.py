"""A table over TLS (mqtts://) to a real Mosquitto with the shipped TLS
listener (deploy/mosquitto/companion-tls.conf) and a CA made here: with the
café's CA its status arrives; with a CA the broker's certificate does not
chain to it never connects, says so once, and the table plays on."""

from __future__ import annotations

import logging
import time

import pytest
from mqtt_helpers import Mosquitto, Publishing, Recorder, make_ca, make_certificates
from test_fleet import coup_table, play

USERS = {"t1": "pw-t1", "console": "pw-console"}
STATUS = "companion/t1/status"


@pytest.fixture
def certificates(tmp_path):
    return make_certificates(tmp_path / "cafe-ca")


@pytest.fixture
def broker(tmp_path, certificates):
    mosquitto = Mosquitto(tmp_path, USERS, shipped=True, certificates=certificates)
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture
def console(broker):
    recorder = Recorder(broker.port, ("console", USERS["console"]))
    yield recorder
    recorder.close()


def test_a_table_over_tls_with_the_cafes_ca_delivers_its_status(
    store, broker, console, certificates
):
    table = coup_table(store)
    user = ("t1", USERS["t1"])
    with Publishing(table, broker, user=user, url=broker.tls_url, ca_file=certificates.ca) as fleet:
        assert fleet.publisher.broker.tls and fleet.publisher.broker.port == broker.tls_port
        play(table, 2)
        console.wait_for(STATUS, lambda s: s["turn"] == table.public_view()["turn"])
        assert console.wait_for("companion/t1/online", lambda s: True) == {"online": True}


def test_a_broker_the_ca_does_not_vouch_for_is_never_joined_and_the_table_plays_on(
    tmp_path, store, broker, console, certificates, caplog
):
    stranger, _key = make_ca(tmp_path / "stranger", "stranger")
    table = coup_table(store)
    user = ("t1", USERS["t1"])
    with caplog.at_level(logging.WARNING, logger="companion.fleet"):
        with Publishing(table, broker, user=user, url=broker.tls_url, ca_file=stranger) as fleet:
            start = time.monotonic()
            play(table, 5)
            assert time.monotonic() - start < 1.0, "the table waited for the broker"
            time.sleep(2.5)  # reconnect (1, 1): two tries or more, each refused
            assert not fleet.publisher.idle()
    assert console.latest(STATUS) is None and console.latest("companion/t1/online") is None
    failures = [r for r in caplog.records if "cannot connect to mqtts://" in r.getMessage()]
    assert len(failures) == 1, [r.getMessage() for r in caplog.records]
    # The same table with the café's CA is let in: the stranger CA was the cause.
    with Publishing(table, broker, user=user, url=broker.tls_url, ca_file=certificates.ca):
        play(table, 1)
        console.wait_for(STATUS, lambda s: s["turn"] == table.public_view()["turn"])
