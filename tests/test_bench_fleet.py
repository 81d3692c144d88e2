"""bench/fleet_publish.py and bench/fleet_console.py at a tiny size: the
fleet's listener is timed where the host wires it (on the reporter's
session), on every commit and across a next game, and the café's changes
reach the console's page. Both once stopped at ``TableReporter.committed``,
gone when the reporter came to follow a session."""

from __future__ import annotations

import json

import pytest

from bench import fleet_console, fleet_publish
from bench.fleet_publish import mosquitto


@pytest.mark.parametrize("hang", [False, True], ids=["broker_up", "broker_hung"])
def test_fleet_publish_times_the_listener_on_every_commit_across_games(tmp_path, monkeypatch, hang):
    monkeypatch.setattr(fleet_publish, "COMMITS", 400)  # a game takes about 330
    with mosquitto(tmp_path) as (broker, port):
        took = fleet_publish.listener_times(tmp_path, broker, port, hang)
    assert len(took) == 400
    assert all(0 < seconds < 0.5 for seconds in took)


@pytest.mark.slow
@pytest.mark.browser
def test_fleet_console_shows_every_change_and_times_the_listener(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fleet_console, "TABLES", 2)
    monkeypatch.setattr(fleet_console, "SECONDS", 2)
    with mosquitto(tmp_path) as (broker, port):
        fleet_console.run(tmp_path, broker, port)
    out = capsys.readouterr().out
    figures = {line["name"]: line["value"] for line in map(json.loads, out.splitlines())}
    assert figures["fleet.changes_shown"] == 100
    assert 0 < figures["fleet.listener_at_50_tables.p50"] < 500  # ms
    assert 0 < figures["fleet.console_update.p99"] < 5000  # ms
