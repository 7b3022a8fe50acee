"""What goes out to Discord (DESIGN "Discord layer"): the publisher of every committed change, the ephemeral hands,
the turn pings, the game threads, card images (drawn in a worker process) and the replies to interactions. It sends
the screens of ``cogs.uno.screens`` and never imports ``cogs.uno.input``."""
