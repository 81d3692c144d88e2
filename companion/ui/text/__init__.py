"""How the kiosk writes: its font, measured wrapping, the direction each
language runs and the on-screen keyboard's layouts."""
