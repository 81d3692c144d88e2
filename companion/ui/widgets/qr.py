"""QR codes for the kiosk: a seat's join link, the table's Wi-Fi."""

from __future__ import annotations

import qrcode

QUIET = 2  # modules of white border: enough for a phone to lock on


def wifi_payload(ssid: str, password: str | None) -> str:
    """The WIFI: text phones read as "join this network" (the ZXing format);
    an open network has no password."""

    def escape(text: str) -> str:
        for char in '\\;,":':
            text = text.replace(char, "\\" + char)
        return text

    if not password:
        return f"WIFI:T:nopass;S:{escape(ssid)};;"
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def qr_texture(text: str):
    """A Kivy texture of ``text`` as a QR code, one pixel per module (shown
    scaled up with crisp edges). Needs the window to exist."""
    from kivy.graphics.texture import Texture

    code = qrcode.QRCode(border=QUIET, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    # Kivy's textures start at the bottom row.
    pixels = bytes(0 if dark else 255 for row in reversed(matrix) for dark in row for _ in range(3))
    texture = Texture.create(size=(size, size), colorfmt="rgb")
    texture.blit_buffer(pixels, colorfmt="rgb", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    return texture
