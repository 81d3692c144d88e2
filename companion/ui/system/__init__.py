"""What the kiosk does besides drawing: its settings, sounds and voice, a
script read aloud, dimming the screen, and keeping every key away."""
