"""The table's hardware: seat buttons and the gavel on the Pi's header
(gpiozero), the serial button pad (pyserial), and the buzzer and LEDs that
answer. Every device turns what happens into :class:`~.press.Press` values
handed to the asyncio loop; :mod:`.controls` turns presses into table
commands. Library threads never touch the table."""
