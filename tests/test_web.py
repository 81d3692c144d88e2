"""The phone server through real HTTP on 127.0.0.1: join links, claims,
refusals, re-pairing, restarts, private state, commands with CSRF, live
sockets and the public table page."""

from __future__ import annotations

import asyncio
import json

import pytest
from ports import free_port
from sh_helpers import nominate, sh_table
from web_helpers import join, seat_json, served, state

from companion.games.base import Fate, Setup
from companion.table import OPERATOR, EventStore, Table, seat_source
from companion.web.server import COOKIE, CSRF_HEADER, FAILED_JOINS


def coup_keeper(store):
    setup = Setup(
        game="coup",
        seats=["Ann", "Bob", "Cat"],
        mode="keeper",
        options={"first": 0, "direction": "clockwise"},
    )
    deal = {"hands": [["duke", "captain"], ["contessa", "assassin"], ["duke", "ambassador"]]}
    return Table.start(store, setup, fate=Fate(seed=2, script=deal))


def run(coroutine):
    return asyncio.run(coroutine)


def test_the_first_phone_claims_a_seat_and_sees_only_its_own_cards(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            ann = await phone()
            response = await join(ann, server.links.token(table.game_id, 0))
            assert response.status == 303 and response.headers["Location"] == "/seat"
            cookie = response.cookies[COOKIE]
            assert cookie["httponly"] and cookie["samesite"] == "Strict"
            mine = await state(ann)
            assert mine["seat"] == 0 and mine["private"]["hand"] == ["captain", "duke"]
            assert mine["secrets"] == ["Your cards: 1. Captain, 2. Duke"]
            assert "csrf" in mine
            page = await ann.get("/seat")
            assert page.status == 200 and "seat.js" in await page.text()

    run(scenario())


def test_a_second_phone_is_refused_and_told_to_ask_for_a_re_pair(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            token = server.links.token(table.game_id, 1)
            first, second = await phone(), await phone()
            assert (await join(first, token)).status == 303
            refused = await join(second, token)
            assert refused.status == 403
            assert "Ask the table to re-pair your seat" in await refused.text()
            assert (await second.get("/api/seat")).status == 401
            # The phone that holds the seat may open its link again.
            assert (await join(first, token)).status == 303
            assert (await state(first))["seat"] == 1

    run(scenario())


def test_forged_and_guessed_links_are_refused_then_rate_limited(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            forged = await phone()
            forged.session.cookie_jar.update_cookies({COOKIE: f"{table.game_id}.0.not-the-secret"})
            assert (await forged.get("/api/seat")).status == 401
            other = await phone()
            assert (await join(other, server.links.token(table.game_id, 2))).status == 303
            cookie = [c for c in other.session.cookie_jar if c.key == COOKIE][0].value
            game, _, secret = cookie.split(".", 2)
            thief = await phone()  # another seat's number, same secret
            thief.session.cookie_jar.update_cookies({COOKIE: f"{game}.1.{secret}"})
            assert (await thief.get("/api/seat")).status == 401
            guesser = await phone()
            for attempt in range(FAILED_JOINS):
                response = await join(guesser, f"guess-{attempt}")
                assert response.status == 404
                assert "does not open a seat" in await response.text()
            limited = await join(guesser, server.links.token(table.game_id, 0))
            assert limited.status == 429, "even a right link waits after many wrong ones"
            assert "Wait a minute" in await limited.text()

    run(scenario())


def test_re_pairing_invalidates_the_old_link_cookie_and_socket(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            old_token = server.links.token(table.game_id, 0)
            lost = await phone()
            await join(lost, old_token)
            socket = await lost.ws_connect("/ws?frames=binary")
            assert (await seat_json(socket))["seat"] == 0
            new_token = server.repair(0)
            message = await socket.receive()
            assert (message.type.name, message.data) == ("CLOSE", 4001)
            assert (await lost.get("/api/seat")).status == 401
            assert (await join(await phone(), old_token)).status == 404
            found = await phone()
            assert (await join(found, new_token)).status == 303
            assert (await state(found))["seat"] == 0
            table_view = await (await found.get("/api/table")).json()
            assert table_view["public"]["phones"][0] == {"seat": 0, "phone": True, "repairs": 1}

    run(scenario())


def test_a_restarted_server_gives_the_phone_its_seat_back(tmp_path):
    async def scenario():
        path = tmp_path / "g.sqlite3"
        table = coup_keeper(EventStore(path))
        async with served(table) as (server, phone):
            ann = await phone()
            await join(ann, server.links.token(table.game_id, 0))
            cookie = [c for c in ann.session.cookie_jar if c.key == COOKIE][0].value
        table.store.close()
        resumed = Table.resume(EventStore(path))
        async with served(resumed) as (server, phone):
            back = await phone()
            back.session.cookie_jar.update_cookies({COOKIE: cookie})
            assert (await state(back))["private"]["hand"] == ["captain", "duke"]

    run(scenario())


def election(store):
    """Secret Hitler, keeper mode: the ballot on Cat as chancellor is open."""
    table = sh_table(store, 5, mode="keeper")
    nominate(table, 2)
    return table


async def seat_phone(server, phone, seat):
    """A phone that has claimed ``seat``, and its first state."""
    client = await phone()
    await join(client, server.links.token(server.table.game_id, seat))
    return client, await state(client)


def test_commands_need_the_seats_csrf_token_and_this_sites_origin(store):
    async def scenario():
        table = election(store)
        async with served(table) as (server, phone):
            bob, mine = await seat_phone(server, phone, 1)
            csrf = mine["csrf"]
            vote = {"type": "vote", "seat": 1, "choice": "nein"}
            assert (await bob.post("/api/command", json=vote)).status == 403
            forged = await bob.post(
                "/api/command",
                json=vote,
                headers={CSRF_HEADER: csrf, "Origin": "http://evil.example"},
            )
            assert forged.status == 403
            host = forged.url.host + ":" + str(forged.url.port)
            other_scheme = await bob.post(
                "/api/command", json=vote, headers={CSRF_HEADER: csrf, "Origin": f"https://{host}"}
            )
            assert other_scheme.status == 403, "the same host by another scheme is another site"
            # A phone acts for its own seat, whatever the command says.
            sent = await bob.post(
                "/api/command",
                headers={CSRF_HEADER: csrf},
                json={"type": "vote", "seat": 3, "choice": "nein"},
            )
            assert sent.status == 200
            assert table.public_view()["ballot"]["voted"] == [1]
            assert [e["by"] for _, e in table.log if e["type"] == "vote"] == [seat_source(1)]
            bad = await bob.post(
                "/api/command",
                headers={CSRF_HEADER: csrf},
                json={"type": "vote", "choice": "maybe"},
            )
            assert bad.status == 400
            assert (await bad.json())["message"] == "“maybe” is not a choice in this ballot."
            junk = await bob.post(
                "/api/command",
                headers={CSRF_HEADER: csrf, "Content-Type": "application/json"},
                data=b"{nope",
            )
            assert junk.status == 400

    run(scenario())


def test_a_vote_from_the_phone_and_the_reveal_arrive_live(store):
    async def scenario():
        table = election(store)
        async with served(table) as (server, phone):
            bob, mine = await seat_phone(server, phone, 1)
            labels = [a["label"] for a in mine["actions"]]
            assert labels == ["Ja!", "Nein"]
            socket = await bob.ws_connect("/ws?frames=binary")
            await seat_json(socket)
            spectator = await phone()
            board = await spectator.ws_connect("/ws/table")
            await board.receive()
            vote = mine["actions"][1]["command"]
            await bob.post("/api/command", json=vote, headers={CSRF_HEADER: mine["csrf"]})
            after = await seat_json(socket)
            assert after["private"]["ballot_vote"] == "nein"
            assert "Your vote: Nein" in after["secrets"]
            shown = json.loads((await board.receive()).data)
            assert shown["public"]["ballot"]["voted"] == [1]
            assert "private" not in shown and "nein" not in json.dumps(shown["public"]["log"])
            for seat in (0, 2, 3, 4):
                table.execute(
                    {"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat)
                )
            for _ in range(10):
                revealed = json.loads((await board.receive()).data)
                if revealed["public"]["ballot"] is None:
                    break
            assert revealed["public"]["last_votes"] == ["ja", "nein", "ja", "ja", "ja"]

    run(scenario())


def test_the_table_page_needs_no_token_and_holds_no_secret(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            spectator = await phone()
            page = await spectator.get("/table")
            assert page.status == 200
            assert "default-src 'self'" in page.headers["Content-Security-Policy"]
            data = await (await spectator.get("/api/table")).json()
            assert "private" not in data
            text = json.dumps(data)
            for seat in range(3):
                assert server.links.token(table.game_id, seat) not in text
            assert (await spectator.get("/static/app.css")).status == 200
            assert (await spectator.get("/api/messages/en")).status == 200
            assert (await spectator.get("/api/messages/xx")).status == 404

    run(scenario())


def test_a_new_game_at_the_kiosk_retires_the_old_games_phones(store):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            ann = await phone()
            await join(ann, server.links.token(table.game_id, 0))
            table.execute({"type": "income", "seat": 0})
            new = table.next_game(fate=Fate(seed=4), source=OPERATOR)
            server.session.switch(new)
            assert (await ann.get("/api/seat")).status == 401
            assert (await ann.get("/seat")).status == 401

    run(scenario())


@pytest.mark.parametrize(
    "lang_header, expected",
    [
        ("el-GR,el;q=0.9", "el"),
        ("", "en"),
        ("de;q=1.0, en;q=0.2, ru;q=0.8", "ru"),  # by q-value, not by order
        ("fa;q=0, el", "el"),  # q=0: not this one
        ("xx, fa;q=bad, en;q=0.5", "en"),
    ],
)
def test_refusals_speak_the_phones_language_when_it_has_one(store, lang_header, expected):
    async def scenario():
        table = coup_keeper(store)
        async with served(table) as (server, phone):
            guesser = await phone()
            response = await guesser.get(
                "/join/nothing", headers={"Accept-Language": lang_header}, allow_redirects=False
            )
            assert f'lang="{expected}"' in await response.text()

    run(scenario())


def test_companion_serve_runs_the_server_alone(tmp_path):
    """The command a headless table runs: a real process, a real socket."""
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--db",
            str(tmp_path / "g.sqlite3"),
            "--game",
            "secret_hitler",
            "--mode",
            "keeper",
            "--players",
            "A,B,C,D,E",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--print-links",
            "--exit-after",
            "20",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [process.stdout.readline() for _ in range(6)]
        assert lines[0].strip() == f"Serving the table at http://127.0.0.1:{port}/table"
        link = lines[1].split(": ", 1)[1].strip()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table") as response:
            public = json.loads(response.read())
        assert public["game"] == "secret_hitler" and "private" not in public

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        with opener.open(link) as page:
            assert page.status == 200 and 'method="post"' in page.read().decode()
        with pytest.raises(urllib.error.HTTPError) as answer:
            opener.open(urllib.request.Request(link, data=b"", method="POST"))
        assert answer.value.code == 303
        assert "HttpOnly" in answer.value.headers["Set-Cookie"]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_each_game_s_secrets_read_as_words_on_the_phone():
    """Every kind of secret a phone shows, worded on the server."""
    from companion.games import spec_for
    from companion.i18n import Messages
    from companion.web.words import secret_lines

    t = Messages("en", ["Ann", "Bob", "Cat"])
    assert secret_lines(
        spec_for("g54").words, {"hand": ["banker"], "drawn": ["spy", "judge"]}, t
    ) == ["Your cards: 1. Banker, 2. Spy, 3. Judge"]
    assert secret_lines(
        spec_for("secret_hitler").words,
        {
            "role": "fascist",
            "teammates": [{"seat": 2, "role": "hitler"}],
            "hand": ["liberal", "fascist"],
            "knowledge": [
                {"kind": "investigate", "target": 1, "party": "liberal"},
                {"kind": "peek", "tiles": ["fascist", "fascist", "liberal"]},
            ],
        },
        t,
    ) == [
        "You are a Fascist.",
        "Cat is Hitler.",
        "Tiles in your hand: Liberal policy, Fascist policy",
        "Bob belongs to the Liberal party.",
        "You saw the next three tiles: Fascist policy, Fascist policy, Liberal policy",
    ]
    assert secret_lines(
        spec_for("article27").words,
        {
            "agenda": {"agenda": "wealth", "value": 3, "best": 7},
            "influence": 1,
            "slots": [{"value": 5, "issue": "nuclear"}, {"value": -2, "issue": "peacekeeping"}],
            "if_passed": 2,
            "ballot_vote": "abstain",
        },
        t,
    ) == [
        "Your agenda: Wealth (now 3, at best 7)",
        "1 influence behind your screen",
        "Your slots: +5 Nuclear disarmament, -2 Peacekeeping",
        "If the proposal passes: 2 points",
        "Your vote: Abstain",
    ]
    assert secret_lines(spec_for("coup").words, {"seat": 0}, t) == []


def test_the_night_phase_acknowledgement_is_on_each_phone(store):
    async def scenario():
        setup = Setup(
            game="secret_hitler", seats=list("ABCDE"), mode="keeper", options={"first": 0}
        )
        table = Table.start(store, setup, fate=Fate(seed=5))
        async with served(table) as (server, phone):
            ann, mine = await seat_phone(server, phone, 0)
            assert [a["label"] for a in mine["actions"]] == ["I have seen it"]
            sent = await ann.post(
                "/api/command",
                json=mine["actions"][0]["command"],
                headers={CSRF_HEADER: mine["csrf"]},
            )
            assert sent.status == 200
            assert (await state(ann))["actions"] == []

    run(scenario())


def test_a_challenged_phone_looks_the_same_bluffing_or_not(store):
    """Coup, keeper mode: Ann claims the Duke and is challenged. Her phone
    offers "show" and "concede" whether she holds a Duke or not."""

    async def offered(hands):
        setup = Setup(
            game="coup",
            seats=["Ann", "Bob", "Cat"],
            mode="keeper",
            options={"first": 0, "direction": "clockwise"},
        )
        table = Table.start(
            EventStore(":memory:"), setup, fate=Fate(seed=2, script={"hands": hands})
        )
        table.execute({"type": "tax", "seat": 0})
        table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
        async with served(table) as (server, phone):
            ann, mine = await seat_phone(server, phone, 0)
            labels = [a["label"] for a in mine["actions"]]
            show = mine["actions"][0]["command"]
            answer = await ann.post("/api/command", json=show, headers={CSRF_HEADER: mine["csrf"]})
            return labels, answer.status

    honest = asyncio.run(
        offered([["duke", "captain"], ["contessa", "assassin"], ["duke", "ambassador"]])
    )
    bluff = asyncio.run(
        offered([["captain", "captain"], ["contessa", "assassin"], ["duke", "ambassador"]])
    )
    assert honest[0] == bluff[0] == ["Ann shows the Duke", "Ann cannot show it"]
    assert (honest[1], bluff[1]) == (200, 400)  # the bluff is refused on her phone


def test_choices_among_ones_own_cards_name_them_by_number_only(store):
    """Coup, keeper mode: Bob loses an influence; his phone's buttons say
    "card 1", "card 2" (his secrets, held, say which is which), so a
    glance at the buttons shows no card."""

    async def scenario():
        table = coup_keeper(store)
        table.execute({"type": "tax", "seat": 0})
        table.execute({"type": "challenge", "seat": 1}, source=seat_source(1))
        table.execute({"type": "show", "seat": 0}, source=seat_source(0))
        async with served(table) as (server, phone):
            bob, mine = await seat_phone(server, phone, 1)
            assert mine["secrets"] == ["Your cards: 1. Assassin, 2. Contessa"]
            assert [a["label"] for a in mine["actions"]] == ["Turn up card 1", "Turn up card 2"]
            assert mine["actions"][1]["command"]["card"] == "contessa"

    run(scenario())


def test_exchange_and_reaction_choices_are_numbered_too():
    from companion.games import spec_for
    from companion.i18n import Messages

    t = Messages("en", ["Ann", "Bob"])
    mine = {"hand": ["duke", "captain"], "drawn": ["duke", "contessa"]}
    assert (
        spec_for("coup").words.phone_label(
            {"type": "keep", "seat": 0, "cards": ["duke", "duke"]}, {}, t, mine
        )
        == "Keep cards 1, 3"
    )
    assert (
        spec_for("g54").words.phone_label(
            {"type": "keep", "seat": 0, "cards": ["captain", "contessa"], "give": "duke"},
            {},
            t,
            mine,
        )
        == "Keep cards 2, 4, give back card 1"
    )
    assert spec_for("g54").words.phone_label(
        {"type": "react", "seat": 0, "character": "intellectual", "card": "captain"}, {}, t, mine
    ) == ("Claim card 2 is the Intellectual")


def test_a_presidents_phone_names_the_policy_on_each_button_whatever_the_tiles(tmp_path):
    """Secret Hitler, keeper mode: the president discards a tile by its
    policy, named on the button, so the hand need not be held in view to
    choose; the buttons are the same two for any hand, so a glance at them
    shows no tile. A policy the hand lacks is refused, on that phone."""

    async def president_buttons(seed):
        table = sh_table(EventStore(tmp_path / f"{seed}.sqlite3"), 5, mode="keeper", seed=seed)
        nominate(table, 2)
        for seat in range(5):
            table.execute({"type": "vote", "seat": seat, "choice": "ja"}, source=seat_source(seat))
        async with served(table) as (server, phone):
            ann, mine = await seat_phone(server, phone, 0)
            tiles = table.private_view(0)["hand"]
            answers = []
            for action in mine["actions"]:  # a policy not held first, if any
                if action["command"]["policy"] not in tiles:
                    answers.insert(0, action)
            answers += [a for a in mine["actions"] if a["command"]["policy"] in tiles][:1]
            said = []
            for action in answers:
                response = await ann.post(
                    "/api/command", json=action["command"], headers={CSRF_HEADER: mine["csrf"]}
                )
                said.append((response.status, (await response.json()).get("message")))
            return [a["label"] for a in mine["actions"]], tiles, said, table.public_view()["phase"]

    hands = set()
    for seed in range(1, 8):
        labels, tiles, said, phase = asyncio.run(president_buttons(seed))
        assert labels == ["Discard a Liberal policy", "Discard a Fascist policy"]
        assert phase == "chancellor_enact"
        if len(set(tiles)) == 1:  # the other policy: refused, and said so
            missing = "Liberal" if tiles[0] == "fascist" else "Fascist"
            assert said[0] == (400, f"There is no {missing} policy in your hand.")
        assert said[-1][0] == 200
        hands.add(tuple(sorted(tiles)))
    assert len(hands) > 1, "the seeds deal different hands"
    assert any(len(set(hand)) == 1 for hand in hands), "a hand of one policy is tried"


def test_companion_serve_lets_time_act(store):
    """A headless table: a claim nobody challenges stands when its countdown
    ends, with no kiosk to tick, and the next player may act."""

    from companion.host.serve import serve

    setup = Setup(
        game="coup",
        seats=["A", "B", "C"],
        mode="keeper",
        options={"first": 0, "response_seconds": 1},
    )
    table = Table.start(store, setup, fate=Fate(seed=2))
    table.execute({"type": "tax", "seat": 0})
    assert table.public_view()["phase"] == "challenge"
    port = free_port()
    assert asyncio.run(serve(table, "127.0.0.1", port, exit_after=1.8)) == 0
    assert table.log[-1][1]["type"] == "proceed", "nobody but the clock sent it"
    assert table.public_view()["phase"] == "action" and table.public_view()["current"] != 0


def test_a_phone_names_what_each_of_its_bribes_is_paid_for(tmp_path):
    """A bribe for an issue names the issue, and one for "something else"
    the words the players gave it: on both seats' phones, as on the kiosk's
    board (not the offer form's "for something else (say what)")."""
    from a27_helpers import PK, SM, a27_table, bribe, propose

    from companion.games import spec_for
    from companion.i18n import Messages
    from companion.table import EventStore
    from companion.web.words import secret_lines

    table = a27_table(EventStore(tmp_path / "g.sqlite3"), 4)
    propose(table, PK, call_vote=False)
    bribe(table, 1, 0, 2, "include", issue=SM)
    bribe(table, 2, 0, 1, "other", text="lend me your pen", accept=False)
    words = spec_for("article27").words
    t = Messages("en", table.names)
    issue = "Bribe #{}: B to A, 2 influence to put Smuggling sanctions on the floor: accepted"
    other = "Bribe #{}: C to A, 1 influence for: lend me your pen: waiting for an answer"
    assert secret_lines(words, table.private_view(0), t)[-2:] == [
        issue.format(1),
        other.format(2),
    ]
    assert secret_lines(words, table.private_view(1), t)[-1] == issue.format(1)
    assert secret_lines(words, table.private_view(2), t)[-1] == other.format(1)
