"""The kiosk's phones panel: the table's Wi-Fi QR (when the Pi runs its own
access point), then each seat: whether a phone holds it, its join QR on
demand (shown until a phone's claim of the seat is final: a phone that
tapped the seat's button but never got its cookie still needs the code),
re-pairing, and its player's name (a player may have typed their own on the
phone; ✎ lets the operator change it, with the on-screen keyboard)."""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ..games.base import RuleError
from ..i18n import Messages
from ..table import OPERATOR
from ..table.store import StoreError
from .text.direction import Row, writing
from .widgets.qr import qr_texture, wifi_payload
from .widgets.touch_keyboard import TextField, keyboard  # noqa: F401 - TextField: the kv rules use it

log = logging.getLogger(__name__)

CLAIM_CHECK = 0.5  # seconds between looks at whether the shown seat was claimed

Builder.load_string("""
#:import MAX_NAME companion.table.seats.MAX_NAME
<PhonesView>:
    size_hint: 0.92, 0.92
    background_color: 0, 0, 0, 0.75
    Row:
        padding: dp(16)
        spacing: dp(16)
        canvas.before:
            Color:
                rgba: 0.12, 0.14, 0.16, 1
            RoundedRectangle:
                pos: self.pos
                size: self.size
                radius: [dp(10)]
        BoxLayout:
            id: seats
            orientation: "vertical"
            spacing: dp(8)
            size_hint_x: 1.5
        BoxLayout:
            orientation: "vertical"
            spacing: dp(6)
            TextField:
                id: name
                kind: "name"
                limit: MAX_NAME
                opacity: 1 if root.renaming is not None else 0
                disabled: root.renaming is None
                height: dp(52) if root.renaming is not None else 0
                on_submit: root.rename_done()
            Image:
                id: code
                texture: root.code_texture
                opacity: 1 if root.code_texture else 0
                fit_mode: "contain"
            Label:
                text: root.code_text
                font_size: sp(16)
                color: 0.92, 0.92, 0.88, 1
                text_size: self.width, None
                size_hint_y: None
                height: self.texture_size[1] + dp(8)
                halign: "center"
""")


class PhonesView(ModalView):
    code_texture = ObjectProperty(None, allownone=True)
    code_text = StringProperty("")
    renaming = ObjectProperty(None, allownone=True)  # the seat whose name is typed

    def __init__(
        self,
        server: Any,
        base_url: str,
        t: Messages,
        wifi: tuple[str, str | None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.server = server  # companion.web.server.TableServer
        self.base_url = base_url.rstrip("/")
        self.t = t
        self.wifi = wifi
        self.shown_seat: int | None = None
        self._check = Clock.schedule_interval(self._follow_claims, CLAIM_CHECK)
        self.bind(on_dismiss=lambda *_: self._check.cancel())
        self._fill()
        if wifi is not None:
            self.show_wifi()

    def _seat_state(self) -> list[dict[str, Any]]:
        table = self.server.table
        return self.server.links.status(table.game_id, table.setup.players)

    def _fill(self) -> None:
        box = self.ids.seats
        box.clear_widgets()
        t = self.t
        t.names = list(self.server.table.names)  # as a phone or the operator renamed them
        if self.wifi is not None:
            box.add_widget(self._button(t("ui.phones.wifi"), lambda *_: self.show_wifi()))
        for seat in self._seat_state():
            number = seat["seat"]
            row = Row(spacing=8, size_hint_y=None, height=56)
            # The player's name, then whether a phone holds the seat: two
            # lines, so neither is cut short on a small screen.
            label = Label(
                text=t(
                    "ui.phones.seat_line",
                    player=number,
                    state=t("ui.phones.on_phone" if seat["phone"] else "ui.phones.no_phone"),
                ),
                font_size=16,
                halign=writing.start,
                valign="middle",
                max_lines=2,
            )
            label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
            row.add_widget(label)
            row.add_widget(self._button("✎", lambda *_, s=number: self.rename(s), width=52))
            if seat["phone"]:
                row.add_widget(
                    self._button(t("ui.phones.repair"), lambda *_, s=number: self.repair(s))
                )
            else:
                row.add_widget(
                    self._button(t("ui.phones.show_code"), lambda *_, s=number: self.show_seat(s))
                )
            box.add_widget(row)
        box.add_widget(self._button(t("ui.phones.close"), lambda *_: self.dismiss()))
        box.add_widget(Widget())  # the rows start at the top

    @staticmethod
    def _button(text: str, action, width: int = 170) -> Button:
        button = Button(
            text=text,
            size_hint=(None, None),
            height=52,
            width=width,
            font_size=17,
            background_normal="",
            background_color=(0.20, 0.42, 0.62, 1),
        )
        button.bind(on_release=action)
        return button

    def rename(self, seat: int) -> None:
        """Type a new name for the seat's player, in place of the code."""
        self.shown_seat, self.code_texture = None, None
        self.renaming = seat
        self.code_text = self.t("ui.phones.rename", player=seat)
        field = self.ids.name
        field.value = self.server.table.names[seat]
        keyboard().attach(field)

    def rename_done(self) -> None:
        """The keyboard let go of the name: keep it at the table (the kiosk
        may rename any seat), or say why not and keep the old one."""
        seat, self.renaming = self.renaming, None
        if seat is None:
            return
        try:
            self.server.table.execute(
                {"type": "rename", "seat": seat, "name": self.ids.name.value}, source=OPERATOR
            )
        except RuleError as exc:
            self.code_text = self.t.error(exc)
            return
        except StoreError:
            log.exception("the store refused a new name")
            self.code_text = self.t("error.unexpected")
            return
        self._fill()
        self.code_text = self.t("ui.phones.renamed", player=seat)

    def show_wifi(self) -> None:
        assert self.wifi is not None  # offered only with a network to join
        ssid, password = self.wifi
        self.shown_seat = None
        self.code_texture = qr_texture(wifi_payload(ssid, password))
        self.code_text = self.t("ui.phones.wifi_hint", network=ssid)

    def show_seat(self, seat: int) -> None:
        table = self.server.table
        token = self.server.links.token(table.game_id, seat)
        self.shown_seat = seat
        self.code_texture = qr_texture(f"{self.base_url}/join/{token}")
        self.code_text = self.t("ui.phones.scan", player=seat)

    def repair(self, seat: int) -> None:
        self.server.repair(seat)
        self._fill()
        self.show_seat(seat)

    def _follow_claims(self, _dt: float) -> None:
        """Hide a seat's code the moment a phone's claim of the seat is final."""
        seat = self.shown_seat
        if seat is not None and self._seat_state()[seat]["phone"]:
            self.shown_seat = None
            self.code_texture = None
            self.code_text = self.t("ui.phones.claimed", player=seat)
            self._fill()
