"""No key leaves the kiosk. A café's table has strangers and, now and then,
a keyboard someone plugs in: Esc (which closes a Kivy app), F1 (which opens
Kivy's own settings panel, with no PIN), Alt+F4, Ctrl+Q, Ctrl+W or any
other key does nothing here. The only ways out are the operator's: **Close
the kiosk** in the PIN-gated settings, or the service manager (SIGTERM).

Every key press reaches the window's ``on_key_down`` first; a handler that
returns True there stops Kivy from going on to ``on_keyboard``, where Esc,
F1 and every other built-in shortcut live. A focused name field still takes
typed text (``on_textinput``, another event) and binds its own editing keys
ahead of this one (:mod:`companion.ui.widgets.touch_keyboard`).

What the service does about the Linux console's own keys (Ctrl+Alt+F1…F12,
Ctrl+Alt+Del, SysRq) is in docs/deploy.md, "Locked down"."""

from __future__ import annotations

from typing import Any


def lock_down(window: Any) -> None:
    """Swallow every key press, and refuse every request to close the window
    (Alt+F4 or a window manager's close button on a desktop). The app's own
    stop (``App.stop``) closes the window without asking."""
    window.bind(on_key_down=_swallow_key, on_request_close=_refuse_close)


def _swallow_key(_window: Any, *_key: Any) -> bool:
    return True


def _refuse_close(_window: Any, *_args: Any, **_kwargs: Any) -> bool:
    return True
