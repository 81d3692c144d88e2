"""What opens over a screen and closes again: the rules at hand, the
operator's settings, a script read aloud, a chart, past games, a panel of
lines and a message from the staff."""
