"""Every string a person sees goes through the catalogs: English is complete
for every key the code can produce."""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path

import pytest

from companion.games import engine_for, names
from companion.games.base import Fate, Setup
from companion.games.coup import ENGINE as COUP
from companion.games.g54 import ENGINE as G54
from companion.games.g54.roles import ROLES
from companion.i18n import LANGUAGES, PLURAL_FORMS, Messages, catalog, plural_category, translate
from companion.table import EventStore, Table

ROOT = Path(__file__).resolve().parents[1] / "companion"
EN = catalog("en")


def literal_keys() -> set[str]:
    """Keys written literally in the code: RuleError("..."), t("..."),
    translate("..."), and the phone pages' Companion.t("...")."""
    pattern = re.compile(r'(?:RuleError|\bt|translate|self\.t)\(\s*"([a-z_]+\.[a-z_.]+)"')
    keys = set()
    for path in [*ROOT.rglob("*.py"), *ROOT.rglob("*.js")]:
        keys |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def generated_keys() -> set[str]:
    """Keys the code builds from game data and engine vocabulary."""
    keys = {f"game.{name}" for name in names()}
    keys |= {"policy.liberal", "policy.fascist"}
    keys |= {
        f"sh.log.{k}"
        for k in (
            "started",
            "confirm",
            "nominate",
            "ballot",
            "discard",
            "enact",
            "chaos",
            "veto",
            "veto_agreed",
            "veto_refused",
            "reveal_hitler",
            "reveal_not_hitler",
            "reshuffled",
            "investigate",
            "special_election",
            "peek",
            "execute",
        )
    }
    keys |= {"log.vote", "log.ballot_abort"}
    from companion.games.article27.rules import AGENDAS, ISSUES

    keys |= {f"issue.{i}" for i in ISSUES} | {f"agenda.{a}" for a in AGENDAS}
    keys |= {
        f"a27.log.{k}"
        for k in (
            "started",
            "unused",
            "round_started",
            "reveal_disk",
            "gavel",
            "vote_called",
            "move_floor",
            "move_table",
            "pause",
            "resume",
            "timer_expired",
            "bribe_accepted",
            "bribe_withdraw",
            "bribe_reclaim",
            "ballot",
            "announce",
            "challenge_true",
            "challenge_false",
            "final_tally",
            "next_round",
        )
    }
    for rules in (COUP.catalog, G54.catalog):
        keys |= {f"character.{c}" for c in rules.characters}
        keys |= {f"action.{a}" for a in rules.actions}
        keys |= {f"cmd.{a}" for a in rules.actions}
        keys |= {f"log.action.{a}" for a in rules.actions}
    keys |= {f"g54.card.{r.name}" for r in ROLES}
    keys |= {
        f"cmd.{c}"
        for c in (
            "challenge",
            "pass",
            "block",
            "show",
            "concede",
            "lose",
            "keep",
            "undo",
            "join",
            "react",
            "react_card",
        )
    }
    keys |= {f"cmd.proceed.{p}" for p in ("challenge", "block", "join", "elimination", "disappear")}
    keys |= {
        "cmd.choose.extortion.pay",
        "cmd.choose.extortion.refuse",
        "cmd.choose.writer.draw",
        "cmd.choose.writer.stop",
        "cmd.choose.producer",
    }
    keys |= {k.replace("cmd.", "log.", 1) for k in keys if k.startswith("cmd.choose.")}
    keys |= {
        f"status.{p}"
        for p in (
            "join",
            "elimination",
            "disappear",
            "block_every_other",
            "challenge_claim",
            "new_life",
        )
    }
    keys |= {f"status.choice.{k}" for k in ("extortion", "writer", "producer")}
    keys |= {f"ui.claim_kind.{k}" for k in ("join", "react", "elimination", "disappear")}
    keys |= {f"ui.token.{k}" for k in ("peacekeeping", "treaty", "tax", "disappear")}
    keys |= {"ui.general_actions"}
    keys |= {
        f"log.{e}"
        for e in (
            "started",
            "block",
            "challenge",
            "pass",
            "proceed",
            "show",
            "concede",
            "lose",
            "redrawn",
            "exchange_drawn",
            "keep",
            "undo",
        )
    }
    keys |= {
        f"status.{p}" for p in ("setup", "action", "lose", "exchange", "exchange_draw", "redraw")
    }
    keys |= {"ui.claim_kind.action", "ui.claim_kind.block"}
    keys |= {f"ui.claim.{r}" for r in ("open", "unchallenged", "challenged", "upheld", "failed")}
    return keys


def played_keys() -> set[str]:
    """Every log line key that random games of every game produce."""
    return {key for _names, key, _args in played_lines()}


@lru_cache(maxsize=1)
def played_lines() -> list[tuple[list[str], str, dict]]:
    """Every log line (with its table's names) of random games of every game."""
    lines = []
    for name in names():
        engine = engine_for(name)
        for seed in range(40):
            players = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
            mode = ("keeper", "physical")[seed % 2]
            table = Table.start(
                EventStore(":memory:"),
                Setup(game=name, seats=[f"P{i}" for i in range(players)], mode=mode),
                fate=Fate(seed=seed),
            )
            rng = random.Random(seed)
            while not table.is_over:
                table.execute(rng.choice(table.legal_commands()))
            lines += [(table.names, key, args) for key, args in table.log_lines()]
    return lines


def test_english_has_every_key_the_code_uses():
    wanted = literal_keys() | generated_keys() | played_keys()
    assert len(wanted) > 100
    missing = sorted(k for k in wanted if k not in EN)
    assert missing == []


def test_every_log_line_of_random_games_reads_whole():
    """The arguments the engines give fill every field of their texts."""
    unfilled = {
        key for names, key, args in played_lines() if "{" in Messages("en", names)(key, **args)
    }
    assert unfilled == set()


def test_every_english_text_formats_with_its_own_fields():
    for key, text in EN.items():
        forms = text.values() if isinstance(text, dict) else [text]
        for form in forms:
            fields = set(re.findall(r"{(\w+)}", form))
            rendered = translate(key, "en", **{"count": 2, **{f: "X" for f in fields - {"count"}}})
            assert "{" not in rendered, key


@pytest.mark.parametrize(
    "lang, numbers",
    [
        ("en", {1: "one", 0: "other", 2: "other", 21: "other"}),
        ("el", {1: "one", 2: "other"}),
        (
            "ru",
            {
                1: "one",
                21: "one",
                2: "few",
                24: "few",
                5: "many",
                11: "many",
                12: "many",
                0: "many",
                111: "many",
            },
        ),
        ("fa", {0: "one", 1: "one", 2: "other"}),
    ],
)
def test_plural_rules(lang, numbers):
    assert {n: plural_category(lang, n) for n in numbers} == numbers


def test_messages_name_seats_and_translate_terms():
    t = Messages("en", ["Natassa", "Stelios"])
    assert t("coup.not_your_turn", player=1) == "It is not Stelios's turn."
    assert t("coup.card_not_held", character="duke") == "You do not hold the Duke."
    assert t("ui.coins", count=1) == "1 coin" and t("ui.coins", count=7) == "7 coins"
    assert t("no.such.key") == "no.such.key"
    assert translate("log.started", "ru", player="P") == "Игра начинается. Первый ход: P."


def test_a_text_worded_once_is_worded_alike_again(tmp_path):
    """Messages keeps what it worded (a table words the same lines at every
    change): the same key and arguments read the same, other seat names or
    a language read their own, a ``True`` is not taken for a 1, and a
    catalog added later is read."""
    from companion.i18n import add_catalogs, remove_catalogs

    t = Messages("en", ["Natassa", "Stelios"])
    assert t("coup.not_your_turn", player=1) == t("coup.not_your_turn", player=1)
    t.names = ["Natassa", "Yannis"]  # a player renamed
    assert t("coup.not_your_turn", player=1) == "It is not Yannis's turn."
    assert Messages("fa", ["Natassa", "Yannis"])("ui.coins", count=7) == "۷ سکه"
    assert t("ui.coins", count=1) == "1 coin"
    assert (t("ui.coins", count=True), t("ui.coins", count=1.0)) == ("True coin", "1.0 coin")
    (tmp_path / "en.json").write_text(json.dumps({"test.worded": "first"}))
    assert t("test.worded") == "test.worded"  # no such text yet
    add_catalogs(tmp_path)
    try:
        assert t("test.worded") == "first"
    finally:
        remove_catalogs(tmp_path)
    assert t("test.worded") == "test.worded"


def test_unexpected_errors_read_calmly():
    assert Messages("en").error(ZeroDivisionError("boom")) == translate("error.unexpected")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalog_is_complete_with_the_same_fields(lang):
    """Every English key, no other; each text has the fields of its English
    text; counted texts have their language's plural forms, none empty."""
    theirs = catalog(lang)
    assert sorted(set(EN) - set(theirs)) == [], "missing"
    assert sorted(set(theirs) - set(EN)) == [], "not in English"
    for key, english in EN.items():
        text = theirs[key]
        if isinstance(english, dict):
            assert isinstance(text, dict) and set(text) == PLURAL_FORMS[lang], key
        forms = list(text.values()) if isinstance(text, dict) else [text]
        assert all(isinstance(form, str) and form.strip() for form in forms), key
        fields = set(re.findall(r"{(\w+)}", json.dumps(english)))
        assert set(re.findall(r"{(\w+)}", json.dumps(text, ensure_ascii=False))) == fields, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_formats_in_every_language(lang):
    for key, text in catalog(lang).items():
        for count in (1, 2, 5, 21):
            fields = set(re.findall(r"{(\w+)}", json.dumps(text, ensure_ascii=False)))
            rendered = translate(key, lang, count=count, **{f: "X" for f in fields - {"count"}})
            assert "{" not in rendered, (key, count)


@pytest.mark.parametrize(
    "gregorian, solar_hijri",
    [
        ((1970, 1, 1), (1348, 10, 11)),
        ((2000, 1, 1), (1378, 10, 11)),
        ((2024, 3, 19), (1402, 12, 29)),
        ((2024, 3, 20), (1403, 1, 1)),  # Nowruz 1403
        ((2025, 3, 20), (1403, 12, 30)),
        ((2025, 3, 21), (1404, 1, 1)),  # 1403 was leap
        ((2026, 9, 22), (1405, 6, 31)),
        ((2026, 9, 23), (1405, 7, 1)),  # 31-day months end
    ],
)
def test_the_solar_hijri_calendar(gregorian, solar_hijri):
    from datetime import date

    from companion.i18n.calendar import jalali

    assert jalali(date(*gregorian)) == solar_hijri


def test_each_reader_dates_a_game_their_own_way():
    from datetime import datetime

    moment = datetime(2026, 11, 30, 9, 5)
    assert Messages("en").date_time(moment) == "2026-11-30 09:05"
    assert Messages("el").date_time(moment) == "30/11/2026 09:05"
    assert Messages("ru").date_time(moment) == "30.11.2026 09:05"
    # Persian: a right-to-left mark first, so the date (read first) is on the right.
    assert Messages("fa").date_time(moment) == "\u200f۱۴۰۵/۰۹/۰۹ ۰۹:۰۵"
