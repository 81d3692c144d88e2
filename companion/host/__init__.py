"""All the wiring around the table's session: devices, phones, the fleet,
the console's actions and the tick (see :mod:`.host`). No Kivy here: the
kiosk is a front end that attaches to the host's session (companion/ui/)."""

from .host import Device, DeviceOpener, Front, Host
from .phones import WebConfig

__all__ = ["Device", "DeviceOpener", "Front", "Host", "WebConfig"]
