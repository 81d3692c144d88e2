"""The kiosk's screens: home, and the table screen every game's screen is
built on (with the plain one for a game that brings none)."""
