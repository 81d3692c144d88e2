"""Kiosk screens in each language the kiosk speaks besides English, at the
original 7-inch display's 800×480: nothing outside the window, no text
spilling out of its box, no raw key, the touch targets whole. Screenshots:
screenshots/<screen>-<phase>-<lang>-800x480.png. (Article 27 and the Coup
family are not here yet: their Greek and Russian texts still overflow at
800×480; issue 9.)"""
from __future__ import annotations

import pytest

from companion.i18n import KIOSK_LANGUAGES
from companion.table import EventStore

pytest.importorskip("kivy.base")
from kiosk_helpers import assert_readable_layout, wait_for_reveal  # noqa: E402
from test_ui import screenshot, show, window  # noqa: E402,F401
from test_ui_secret_hitler import PHASES, check_screen, to_phase  # noqa: E402

SIZE = (800, 480)
LANGS = [lang for lang in KIOSK_LANGUAGES if lang != "en"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("phase", PHASES)
def test_secret_hitler_reads_in_every_language(window, tmp_path, lang, phase):
    from companion.ui.secret_hitler_screen import SecretHitlerTableScreen

    screen = show(window, SecretHitlerTableScreen(to_phase(tmp_path, phase), lang=lang), SIZE)
    wait_for_reveal(screen.ids.ballot)
    screenshot(window, f"sh-{phase}-{lang}-800x480")
    check_screen(screen, window)


@pytest.mark.parametrize("lang", LANGS)
def test_home_reads_in_every_language(window, tmp_path, lang):
    from companion.ui.kiosk import Kiosk

    kiosk = show(window, Kiosk(EventStore(tmp_path / "h.sqlite3"), None, lang=lang), SIZE)
    screenshot(window, f"home-{lang}-800x480")
    home = kiosk.home
    assert_readable_layout(home, window, [home.ids.start, home.ids.history, home.ids.settings],
                           scrolled=home.ids.scroll)

