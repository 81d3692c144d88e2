"""The Kivy kiosk. Importing this package does not import Kivy; see app.py."""
