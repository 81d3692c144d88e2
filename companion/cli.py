"""``companion`` — the command line: run the kiosk, replay a script, check the hardware."""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .devices.pinmap import PINS_ENV
from .i18n import LANGUAGES
from .logs import DEFAULT_LEVEL, LEVELS, configure_logging
from .paths import DB_ENV, default_db
from .ui.app import TOUCH_SOURCES  # importing it does not import Kivy

if TYPE_CHECKING:
    from .fleet import StatusPublisher
    from .table import EventStore, Table
    from .table.damage import StoreDamage

log = logging.getLogger(__name__)

# The Wi-Fi password, from the environment rather than the command line, which
# every user of the machine can read (ps, systemctl status).
WIFI_PASSWORD_ENV = "COMPANION_WIFI_PASSWORD"


def _parser(lang: str = "en") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Table Companion: a touchscreen referee beside a board game."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # Every command takes --log-level (after its name, as the others).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--log-level",
        default=None,
        choices=LEVELS,
        help=f"how much the log on stderr says (default: the kiosk's "
        f"setting for run, else {DEFAULT_LEVEL})",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        parents=[common],
        help="open the kiosk: the unfinished game, or the home "
        "screen to choose one (--game starts one directly)",
    )
    _game_arguments(run, modes=["physical", "keeper"], lang=lang)
    run.add_argument(
        "--pins",
        type=Path,
        default=None,
        help="the GPIO pin map (default: $COMPANION_PINS or the built-in map); "
        "used on a Raspberry Pi",
    )
    run.add_argument(
        "--pad",
        default=None,
        metavar="PORT",
        help="the serial button pad's port (default: the first Pico found "
        "under /dev/serial/by-id, whenever it is plugged in; 'none': no pad)",
    )
    run.add_argument(
        "--mock-pins",
        action="store_true",
        help="open the pin map on simulated pins (tests; no GPIO needed)",
    )
    run.add_argument(
        "--web-port", type=int, default=8080, help="the phone server's port (0: no phone server)"
    )
    run.add_argument("--web-host", default="0.0.0.0", help="the phone server's address")
    run.add_argument(
        "--public-url",
        default=None,
        help="the address phones open (default: http://<host name>.local:PORT/, "
        "without :PORT for port 80)",
    )
    run.add_argument(
        "--wifi",
        default=None,
        metavar="SSID",
        help="show a Wi-Fi QR for this network first (the Pi's own access point)",
    )
    run.add_argument(
        "--wifi-password",
        default=os.environ.get(WIFI_PASSWORD_ENV),
        help=f"its password (default: ${WIFI_PASSWORD_ENV}, which other users "
        "cannot read as they can a command line)",
    )
    run.add_argument(
        "--exit-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="close the window after this many seconds (a start-up smoke test)",
    )
    run.add_argument("--size", default="1280x720", help="window size, WxH")
    run.add_argument(
        "--fullscreen",
        action="store_true",
        help="fill the display at its own resolution (the Pi's kiosk)",
    )
    run.add_argument(
        "--touch",
        default="sdl",
        choices=TOUCH_SOURCES,
        help="who reads the touchscreen: sdl (default), or Kivy's mtdev or "
        "hidinput provider (see docs/deploy.md, touch doubled or missing)",
    )
    run.add_argument(
        "--dim-after",
        type=float,
        default=0,
        metavar="SECONDS",
        help="dim the screen's backlight after this long without a touch; "
        "a touch wakes it (default 0: never)",
    )
    run.add_argument(
        "--captive",
        action="store_true",
        help="answer a phone asking for any other host name with a redirect "
        "to --public-url (the Pi's own access point)",
    )
    _fleet_arguments(run)
    _option_arguments(run, lang)

    serve = sub.add_parser(
        "serve",
        parents=[common],
        help="serve the phones and the table page, without "
        "the kiosk window (headless tables, tests)",
    )
    _game_arguments(serve, modes=["physical", "keeper"], lang=lang)
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument(
        "--print-links",
        action="store_true",
        help="print each seat's join link on the terminal (they are "
        "secrets: not for a terminal that is logged)",
    )
    serve.add_argument(
        "--exit-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop after this many seconds (a smoke test)",
    )
    _fleet_arguments(serve)
    _option_arguments(serve, lang)

    status = sub.add_parser(
        "status",
        parents=[common],
        help="say whether a game is in progress (exit status 3 if one is, 0 if none or it "
        "cannot be read, 2 if the store cannot be looked at): the installer asks before an "
        "upgrade",
    )
    status.add_argument(
        "--db", type=Path, default=None, help=f"game store (default: ${DB_ENV} or the XDG data dir)"
    )
    status.add_argument("--lang", default="en", choices=LANGUAGES)

    export = sub.add_parser(
        "export",
        parents=[common],
        help="write one zip for support: a consistent copy of the game store, the settings "
        "without the PIN, the service's journal (exit status 1: written, but some games or "
        "the store could not be read)",
    )
    export.add_argument(
        "--db", type=Path, default=None, help=f"game store (default: ${DB_ENV} or the XDG data dir)"
    )
    export.add_argument(
        "--output",
        type=Path,
        default=None,
        help="the zip to write (default: table-companion-export-<time>.zip here)",
    )
    export.add_argument(
        "--unit", default="table-companion.service", help="the systemd unit whose journal goes in"
    )
    export.add_argument("--lang", default="en", choices=LANGUAGES)

    replay = sub.add_parser(
        "replay", parents=[common], help="play a JSON-lines script, print the views"
    )
    replay.add_argument("file", type=Path, help="the script ('-' reads stdin)")
    replay.add_argument("--lang", default="en", choices=LANGUAGES)

    doctor = sub.add_parser(
        "doctor",
        parents=[common],
        help="check the buttons, LEDs, buzzer and pad: list them, show presses live",
    )
    doctor.add_argument(
        "--pins",
        type=Path,
        default=None,
        help=f"pin map file (default: ${PINS_ENV} or the built-in map)",
    )
    doctor.add_argument(
        "--mock", action="store_true", help="use simulated pins even on a Raspberry Pi"
    )
    doctor.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="how long to show presses (default: until Ctrl-C)",
    )
    doctor.add_argument(
        "--pad",
        default=None,
        metavar="PORT",
        help="the serial button pad's port (default: the first Pico found "
        "under /dev/serial/by-id; 'none': no pad)",
    )
    doctor.add_argument("--lang", default="en", choices=LANGUAGES)
    _console_arguments(sub, common)
    return parser


def _console_arguments(sub, common: argparse.ArgumentParser) -> None:
    """The café's operator console (companion/console)."""
    from .paths import data_dir

    console = sub.add_parser("console", parents=[common], help="the café's operator console")
    console.add_argument(
        "--set-password",
        type=Path,
        default=None,
        metavar="FILE",
        help="read a new staff password from stdin, write its hash to FILE",
    )
    console.add_argument("--broker", default=None, help="the broker, mqtt://host:port")
    console.add_argument("--broker-user", default=None)
    console.add_argument("--broker-password-file", type=Path, default=None)
    console.add_argument("--action-key-file", type=Path, default=None)
    console.add_argument("--staff-password-file", type=Path, default=None)
    console.add_argument("--host", default="127.0.0.1")
    console.add_argument("--port", type=int, default=8090)
    console.add_argument(
        "--trusted-proxy",
        type=_proxy_address,
        default=None,
        metavar="ADDRESS",
        help="the IP address of the TLS reverse proxy in front of the console: its "
        "X-Forwarded-For/-Proto/-Host are taken (from no other peer)",
    )
    console.add_argument("--db", type=Path, default=data_dir() / "console.sqlite3")


def _proxy_address(text: str) -> str:
    from .console.guard import proxy_address

    try:
        return proxy_address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an IP address: {text!r}") from None


def _console(args: argparse.Namespace) -> int:
    from .console.run import run, set_password
    from .fleet import BrokerError

    if args.set_password is not None:
        return set_password(args.set_password)
    if not (args.broker and args.action_key_file and args.staff_password_file):
        print(
            "companion console: give --broker, --action-key-file and --staff-password-file",
            file=sys.stderr,
        )
        return 2
    try:
        return run(args)
    except (BrokerError, OSError) as exc:
        print(f"companion console: {exc}", file=sys.stderr)
        return 2


def _game_arguments(parser: argparse.ArgumentParser, modes: list[str], lang: str) -> None:
    """The arguments that open a table: the store, and a new game's set-up
    (any game the registry knows; none: the unfinished game)."""
    from .games import names

    parser.add_argument(
        "--db", type=Path, default=None, help=f"game store (default: ${DB_ENV} or the XDG data dir)"
    )
    parser.add_argument("--game", default=None, choices=names())
    parser.add_argument(
        "--players",
        default="Anna,Ben,Chloé",
        help="comma-separated names in seat order (clockwise)",
    )
    parser.add_argument(
        "--mode",
        default="physical",
        choices=modes,
        help="physical: the table's own cards; keeper: the app holds them "
        "and each player sees theirs on a phone",
    )
    parser.add_argument(
        "--votes",
        default=None,
        choices=["changeable", "locked"],
        help="a new game: may a seat change its vote until the last is in?",
    )
    parser.add_argument(
        "--lang",
        default=None,
        choices=LANGUAGES,
        help="the kiosk's language (default: as last set in its settings)",
    )
    parser.add_argument(
        "--new", action="store_true", help="start a new game even if one is unfinished"
    )


def _option_arguments(parser: argparse.ArgumentParser, lang: str) -> None:
    """A new game's options, as the games' specs declare them (added last:
    the command's own arguments come first): ``--option key=value`` for any,
    and ``--key value`` for each option name some game declares and no
    other argument takes (a flag option: ``--key`` alone sets it). They are
    read against the chosen game's spec in ``_options``."""
    from .games import specs
    from .games.spec import Option
    from .i18n import Messages

    t = Messages(lang)
    known: dict[str, tuple[Option, list[str]]] = {}
    for spec in specs():
        for option in spec.options:
            known.setdefault(option.name, (option, []))[1].append(spec.name)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a new game's option (repeatable); the games' options: "
        + "; ".join(f"{spec.name}: {', '.join(o.name for o in spec.options)}" for spec in specs()),
    )
    for name, (option, games) in known.items():
        written: dict[str, Any] = (
            {"action": "store_const", "const": "true"}
            if option.kind == "flag"
            else {"metavar": option.metavar()}
        )
        try:
            parser.add_argument(
                f"--{name.replace('_', '-')}",
                dest=f"{OPTION_DEST}{name}",
                default=None,
                help=f"{t(option.help)} ({', '.join(games)})",
                **written,
            )
        except argparse.ArgumentError:  # taken by another argument: --option sets it
            continue


# Where each game option's own flag leaves its text.
OPTION_DEST = "game_option_"


def _help_language(argv: list[str] | None) -> str:
    """The language --lang names on this command line (the game options'
    help is worded from the catalogs), else English. Read before parsing,
    which prints the help."""
    words = sys.argv[1:] if argv is None else argv
    for word, following in zip(words, [*words[1:], ""]):
        if word == "--lang" or word.startswith("--lang="):
            lang = following if word == "--lang" else word.partition("=")[2]
            return lang if lang in LANGUAGES else "en"
    return "en"


def _fleet_arguments(parser: argparse.ArgumentParser) -> None:
    """The café fleet: where this table publishes its public status."""
    parser.add_argument(
        "--fleet",
        default=None,
        metavar="mqtt://HOST:PORT",
        help="publish this table's public status (never a secret) to the café's "
        "MQTT broker, retained, with a last will (docs/cafe.md); mqtts:// for TLS",
    )
    parser.add_argument(
        "--fleet-ca-file",
        type=Path,
        default=None,
        metavar="FILE",
        help="with mqtts://: the café CA's certificate (PEM) the broker's must "
        "chain to (default: the system's CAs)",
    )
    parser.add_argument("--fleet-user", default=None, help="the table's user name on the broker")
    parser.add_argument(
        "--fleet-password-file",
        type=Path,
        default=None,
        metavar="FILE",
        help="a file whose first line is that user's password (never on the "
        "command line, which every user of the machine can read)",
    )
    parser.add_argument(
        "--table-name",
        default=None,
        help="this table's name in the fleet's topics, companion/<name>/... "
        "(default: the host name)",
    )
    parser.add_argument(
        "--fleet-key-file",
        type=Path,
        default=None,
        metavar="FILE",
        help="a file whose first line is the café's action key: with it the table "
        "takes the console's signed actions (without it, none)",
    )
    parser.add_argument(
        "--fleet-discovery-prefix",
        default="homeassistant",
        metavar="PREFIX",
        help="offer the table to Home Assistant's MQTT discovery under this topic "
        "prefix (empty: do not)",
    )


def _fleet(args: argparse.Namespace, store: EventStore) -> StatusPublisher | None:
    """The publisher --fleet asks for (not started), or None; BrokerError
    for an address, name or password file it cannot use."""
    if args.fleet is None:
        return None
    from .fleet import (
        Broker,
        BrokerError,
        StatusPublisher,
        default_table_name,
        read_password_file,
    )
    from .fleet.health import system_health
    from .fleet.protocol import read_action_key

    if args.table_name is not None and not args.table_name:
        from .i18n import Messages

        # An empty name once stood for the host name, silently: another table's, maybe.
        raise BrokerError(Messages(args.lang or "en")("cli.table_name_empty"))
    key = None if args.fleet_key_file is None else read_action_key(args.fleet_key_file)
    password = None
    if args.fleet_password_file is not None:
        password = read_password_file(args.fleet_password_file)
    broker = Broker.from_url(args.fleet, args.fleet_user, password, args.fleet_ca_file)
    data_dir = Path(store.path).parent
    return StatusPublisher(
        broker,
        default_table_name() if args.table_name is None else args.table_name,
        health=lambda: system_health(data_dir),
        action_key=key,
        discovery_prefix=args.fleet_discovery_prefix,
    )


def main(argv: list[str] | None = None) -> int:
    args = _parser(_help_language(argv)).parse_args(argv)
    configure_logging(args.log_level or DEFAULT_LEVEL)
    if args.command == "replay":
        return _replay(args)
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "serve":
        return _serve(args)
    if args.command == "status":
        return _status(args)
    if args.command == "export":
        return _export(args)
    if args.command == "console":
        return _console(args)
    return _run(args)


GAME_IN_PROGRESS = 3  # `companion status`: its exit status when a game is unfinished


def _status(args: argparse.Namespace) -> int:
    """0: no game can be resumed (none unfinished; or the store, or the
    unfinished game, cannot be read, and the kiosk sets it aside), 3: one is
    in progress, 2: the store cannot be looked at (see the parser's help)."""
    from datetime import datetime

    from .i18n import Messages
    from .table import EventStore, StoreError, Table
    from .table.store import DamagedGame, DamagedStoreError

    t = Messages(args.lang)
    db = args.db or default_db()
    if not db.exists():  # nothing played yet: do not create a store here
        print(t("status.none"))
        return 0
    try:
        store = EventStore(db, read_only=True)
    except DamagedStoreError as exc:
        print(t("status.store_damaged", reason=str(exc.__cause__ or exc)))
        return 0
    except StoreError as exc:
        print(f"companion status: {exc}", file=sys.stderr)
        return 2
    try:
        active = store.active_game()
        if active is None:
            print(t("status.none"))
            return 0
        players = Table.from_record(store, active).setup.players
    except DamagedGame as exc:
        print(t("status.game_damaged", number=exc.game_id))
        return 0
    except sqlite3.DatabaseError as exc:
        print(t("status.store_damaged", reason=str(exc)))
        return 0
    finally:
        store.close()
    started = datetime.fromtimestamp(active.created_at).strftime("%Y-%m-%d %H:%M")
    print(t("status.in_progress", game=active.game, count=players, started=started))
    return GAME_IN_PROGRESS


# `companion export`: written, but the store or some of its games could not be read
PARTIAL_EXPORT = 1


def _export(args: argparse.Namespace) -> int:
    from datetime import datetime

    from .export import ExportError, export
    from .i18n import Messages
    from .table.damage import game_numbers

    t = Messages(args.lang)
    output = args.output or Path(
        f"table-companion-export-{datetime.now().strftime('%Y%m%d-%H%M%S')}.zip"
    )
    try:
        done = export(args.db or default_db(), output, unit=args.unit)
    except ExportError as exc:
        print(t("export.failed", reason=str(exc)), file=sys.stderr)
        return 2
    print(t("export.written", path=str(done.path), count=done.games))
    if done.journal_missing is not None:
        print(t("export.no_journal", reason=done.journal_missing))
    if done.store_damaged is not None:
        print(t("export.store_damaged", reason=done.store_damaged))
    if done.damaged_files:
        print(t("export.damaged_files", names=t.join(done.damaged_files)))
    if len(done.unreadable) == 1:
        print(t("export.game_unreadable", number=done.unreadable[0]))
    elif done.unreadable:
        print(t("export.games_unreadable", games=game_numbers(done.unreadable, t)))
    return PARTIAL_EXPORT if done.store_damaged is not None or done.unreadable else 0


def _replay(args: argparse.Namespace) -> int:
    from .table.replay import ReplayError, replay

    try:
        if str(args.file) == "-":
            lines = sys.stdin.read().splitlines()
        else:
            lines = args.file.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"companion replay: cannot read {args.file}: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        result = replay(lines, lang=args.lang)
    except ReplayError as exc:
        print(f"companion replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    try:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from .devices.doctor import run_doctor
    from .devices.gpio import open_pin_factory
    from .devices.pinmap import PinMapError, load_pinmap, pinmap_path
    from .i18n import Messages

    t = Messages(args.lang)
    if args.seconds is not None and not (math.isfinite(args.seconds) and args.seconds >= 0):
        print(f"companion doctor: {t('doctor.bad_seconds', value=args.seconds)}", file=sys.stderr)
        return 2
    try:
        pinmap = load_pinmap(pinmap_path(args.pins))
    except PinMapError as exc:
        print(f"companion doctor: {t.error(exc)}", file=sys.stderr)
        return 2
    factory, simulated = open_pin_factory(mock=args.mock)
    return run_doctor(
        pinmap,
        factory,
        simulated=simulated,
        t=t,
        seconds=args.seconds,
        open_pad=_pad_opener(args.pad),
    )


def _pad_opener(port: str | None):
    """Opens the serial pad at ``port`` (None: wherever a Pico appears), or
    None for no pad."""
    if port == "none":
        return None
    from .devices.pad import SerialPad

    def open_pad(deliver):
        pad = SerialPad(deliver, port)
        pad.start()
        return pad

    return open_pad


def _options(args: argparse.Namespace) -> dict:
    """The options the command line sets for a new game of ``args.game``,
    read as its spec declares them: RuleError for a malformed ``--option``,
    an option the game does not take or a value it cannot have (the engine
    judges the rest)."""
    from .games import spec_for
    from .games.base import RuleError

    written = [
        (name[len(OPTION_DEST) :], text)
        for name, text in vars(args).items()
        if name.startswith(OPTION_DEST) and text is not None
    ]
    for pair in args.option:
        name, equals, text = pair.partition("=")
        if not (equals and name.strip()):
            raise RuleError("cli.option_form", text=pair[:40])
        written.append((name.strip(), text))
    return spec_for(args.game).parse_options(written)


def _table_settings(args: argparse.Namespace) -> dict:
    return {} if args.votes is None else {"votes": args.votes}


def _devices(args: argparse.Namespace) -> tuple[list, object, object] | None:
    """(openers, pin map, simulated pins): openers for the table's hardware,
    the serial pad and the header's buttons, LEDs and buzzer. Where the pins
    are simulated (no GPIO here, or --mock-pins) the header is opened on them
    too, and the kiosk offers them as on-screen buttons (the third item is
    None on real pins). None: a bad pin map, already reported."""
    from .devices.gpio import GpioTable, open_pin_factory
    from .devices.pinmap import PinMapError, load_pinmap, pinmap_path
    from .i18n import Messages

    try:
        pinmap = load_pinmap(pinmap_path(args.pins))
    except PinMapError as exc:
        print(f"companion run: {Messages(args.lang).error(exc)}", file=sys.stderr)
        return None
    pad = _pad_opener(args.pad)
    openers = [] if pad is None else [pad]
    factory, simulated = open_pin_factory(mock=args.mock_pins)
    if simulated is not None and not args.mock_pins:
        log.info("no GPIO buttons (%s): the seat buttons are simulated on screen", simulated)
    openers.append(lambda deliver: GpioTable(pinmap, deliver, factory=factory))
    return openers, pinmap, (None if simulated is None else factory)


def _open_table(args: argparse.Namespace) -> tuple[EventStore, Table | None, StoreDamage] | None:
    """(store, table, damage): the unfinished game (unless --new), or a new
    one from the arguments; the table is None when no game is named and none
    is unfinished (the kiosk then opens at home). A damaged store opens on
    what can still be read, and ``damage`` says what was set aside
    (companion/table/damage.py). None after reporting why the table cannot
    be opened."""
    from .games.base import RuleError, Setup
    from .i18n import Messages
    from .table import OPERATOR, StoreError, Table
    from .table.damage import open_store, resume_active

    try:
        store, damage = open_store(args.db or default_db())
        table = None
        if not args.new:
            table, set_aside = resume_active(store)
            damage = damage.and_set_aside(set_aside)
        if table is None and args.game is not None:
            names = [n for n in args.players.split(",") if n.strip()]
            setup = Setup(
                game=args.game,
                seats=names,
                mode=args.mode,
                options=_options(args),
                table=_table_settings(args),
            )
            table = Table.start(store, setup, source=OPERATOR)
    except StoreError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return None
    except RuleError as exc:
        print(f"companion {args.command}: {Messages(args.lang).error(exc)}", file=sys.stderr)
        return None
    return store, table, damage


def _run(args: argparse.Namespace) -> int:
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print("companion run: --size must look like 1280x720", file=sys.stderr)
        return 2
    opened = _open_table(args)
    if opened is None:
        return 2
    if args.log_level is None:  # the operator's setting (Settings, Log detail)
        from .ui.system.kiosk_settings import KioskSettings, settings_path

        configure_logging(KioskSettings(settings_path(opened[0].path)).log_level)
    devices = _devices(args)
    if devices is None:
        return 2
    openers, pinmap, simulated_pins = devices
    from .fleet import BrokerError

    try:
        fleet = _fleet(args, opened[0])
    except BrokerError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    from .host import WebConfig
    from .ui.app import run_kiosk

    web = None
    if args.web_port:
        web = WebConfig(
            args.web_host,
            args.web_port,
            args.public_url or default_public_url(args.web_port),
            None if args.wifi is None else (args.wifi, args.wifi_password),
            captive=args.captive,
        )
    store, table, damage = opened
    return run_kiosk(
        store,
        table,
        damage=damage,
        lang=args.lang,
        size=(width, height),
        devices=openers,
        pinmap=pinmap,
        simulated_pins=simulated_pins,
        exit_after=args.exit_after,
        web=web,
        fullscreen=args.fullscreen,
        touch=args.touch,
        dim_after=args.dim_after,
        fleet=fleet,
    )


def default_public_url(port: int) -> str:
    """The address phones open: this machine's mDNS name (avahi advertises
    it), with the port unless it is HTTP's own."""
    import socket

    host = f"{socket.gethostname()}.local"
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    opened = _open_table(args)
    if opened is None:
        return 2
    table = opened[1]
    if table is None:
        print("companion serve: no unfinished game; name one with --game", file=sys.stderr)
        return 2
    from .fleet import BrokerError
    from .host.serve import serve

    try:
        fleet = _fleet(args, opened[0])
    except BrokerError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    return asyncio.run(
        serve(
            table,
            args.host,
            args.port,
            print_links=args.print_links,
            exit_after=args.exit_after,
            fleet=fleet,
        )
    )
