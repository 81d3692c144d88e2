"""The kiosk's phones panel: the table's Wi-Fi QR (when the Pi runs its own
access point), then each seat: whether a phone holds it, its join QR on
demand (hidden as soon as a phone claims the seat), and re-pairing."""
from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ..i18n import Messages
from .direction import Row, writing
from .qr import qr_texture, wifi_payload

CLAIM_CHECK = 0.5           # seconds between looks at whether the shown seat was claimed

Builder.load_string('''
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
''')


class PhonesView(ModalView):
    code_texture = ObjectProperty(None, allownone=True)
    code_text = StringProperty("")

    def __init__(self, server: Any, base_url: str, t: Messages,
                 wifi: tuple[str, str | None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.server = server              # companion.web.server.TableServer
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
        if self.wifi is not None:
            box.add_widget(self._button(t("ui.phones.wifi"), lambda *_: self.show_wifi()))
        for seat in self._seat_state():
            number = seat["seat"]
            row = Row(spacing=8, size_hint_y=None, height=56)
            label = Label(text=t("ui.phones.seat_phone" if seat["phone"]
                                 else "ui.phones.seat_none", player=number),
                          font_size=17, halign=writing.start, valign="middle", shorten=True,
                          shorten_from="right")
            label.bind(size=lambda widget, size: setattr(widget, "text_size", size))
            row.add_widget(label)
            if seat["phone"]:
                row.add_widget(self._button(t("ui.phones.repair"),
                                            lambda *_, s=number: self.repair(s)))
            else:
                row.add_widget(self._button(t("ui.phones.show_code"),
                                            lambda *_, s=number: self.show_seat(s)))
            box.add_widget(row)
        box.add_widget(self._button(t("ui.phones.close"), lambda *_: self.dismiss()))
        box.add_widget(Widget())             # the rows start at the top

    @staticmethod
    def _button(text: str, action) -> Button:
        button = Button(text=text, size_hint=(None, None), height=52, width=170, font_size=17,
                        background_normal="", background_color=(0.20, 0.42, 0.62, 1))
        button.bind(on_release=action)
        return button

    def show_wifi(self) -> None:
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
        """Hide a seat's code the moment a phone claims the seat."""
        seat = self.shown_seat
        if seat is not None and self._seat_state()[seat]["phone"]:
            self.shown_seat = None
            self.code_texture = None
            self.code_text = self.t("ui.phones.claimed", player=seat)
            self._fill()
