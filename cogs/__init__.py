"""discord.py extensions (cogs) of the UNO bot."""
