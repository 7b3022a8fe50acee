"""What comes in from Discord (DESIGN "Discord layer"): the click handlers, the checks of what users send, the rule
panels, the seasons' choices. It reads games through the adapter and answers through ``cogs.uno.output``; nothing
below it (output, screens) imports it."""
