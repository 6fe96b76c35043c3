"""Each player's notebook as the bot shows it: worked out from the game's events off the
event loop (engine.notebook), kept per game, and sent as a picture or as text in the
reader's language (bot.render.notebook_*)."""
