"""The café's operator console (``companion console``): every table's public
status, alerts, statistics and signed actions, on a staff-only web page.

Kivy-free. :mod:`.link` follows the broker on paho's thread and hands every
message to the aiohttp loop; :mod:`.fleet` keeps the fleet's view (rebuilt
from retained messages at every start); :mod:`.stats` counts games in the
console's own SQLite file; :mod:`.server` serves the page. The console only
ever reads public statuses: no seat's secret reaches it (docs/cafe.md).
"""
