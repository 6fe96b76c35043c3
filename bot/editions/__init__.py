"""Each format's presentation, one module (or package) per edition: its event planners,
turn prompt, composers, board picture, lobby extras, toasts, and the words of `/newgame`
and `/rules`. `base.Edition` is what an edition gives; `registry` is the one module that
imports the editions, and the shared code asks it by the game's format. An edition's own
buttons are answered in `bot.handlers` (`edition_buttons`), above the editions."""
