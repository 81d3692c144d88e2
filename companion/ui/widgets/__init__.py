"""The pieces the screens and panels are built from: buttons and the
command strip, the seat buttons, the on-screen keyboard, icons, QR codes,
the ballot, a line of two parts, hiding in place, and the shared colours."""
