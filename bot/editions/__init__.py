"""Each format's presentation, one module (or package) per edition: its event planners,
turn prompt, composers, board picture, lobby extras, toasts, and the words of `/newgame`
and `/rules`. `base.Edition` is what an edition gives; `registry` is the one module that
imports the editions; `planning` (the Planner the store calls) and `messages` (`compose`)
join the shared planners and composers with every edition's, and hand the shared code what
it needs of the game's edition (the plan's `edition`). An edition's own
buttons are answered in `bot.handlers` (`edition_buttons`), above the editions."""
