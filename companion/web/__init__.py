"""The phone server: join links and seat claims, each seat's private view
and actions on its own phone, live updates, and a public table page."""
