"""What the phones' pages are sent (see server.py): a seat's state on its
socket or ``/api/seat``, and the public table's on ``/table``. Each is JSON;
these shapes say which members a page may rely on. The public view inside is
the table's (games/views.py declares what the table adds to a game's own)."""

from typing import Any, NotRequired, TypedDict

from ..games.board import Board
from ..games.forms import Form
from ..games.views import View


class Rule(TypedDict):
    name: str
    text: str


class PublicBoard(TypedDict):
    """What the kiosk shows of the table, worded for a page (the same for
    every page in one language)."""

    facts: list[str]
    board: Board
    reference: list[dict[str, Any]]
    explain: list[str]
    rules: list[Rule]


class PhoneState(PublicBoard):
    """What a seat's phone shows: the public view and board, and the seat's
    own secrets and private actions, worded in the phone's language."""

    type: str  # "state"
    seat: int
    game: str
    lang: str
    dir: str  # "ltr" or "rtl"
    languages: list[dict[str, str]]
    names: list[str]
    public: View
    private: View
    secrets: list[str]
    actions: list[dict[str, Any]]
    # The seat's open-ended commands as forms its game declares (games/forms.py).
    forms: list[Form]
    # The table's screen offers the seat a choice now: its phone says so.
    at_table: bool
    status: str
    cue: str | None
    # A refusal of the seat's own buttons or pad, shown once.
    notice: NotRequired[str]
    version: NotRequired[int]
    csrf: NotRequired[str]


class TableState(PublicBoard):
    """The public table, worded in the page's language (``/table``)."""

    type: str  # "state"
    version: int
    game: str
    names: list[str]
    public: View
    status: str
    log: list[str]
