"""Speech: lines from the catalogs, spoken offline in the kiosk's language.

A line is rendered once per language and voice into a WAV file in the cache
(``voices``: espeak-ng, or a Piper voice an operator put in the data
directory; ``cache``: the files), before the table needs it, so a Pi never
synthesises while a timer runs. Playing the files is the kiosk's
(``companion.ui.system.narrator``): through the same player, volume and mute as its
sounds. Nothing here needs Kivy.
"""
