"""`whodunit demo`: a whole game of a chosen format and language played by computer
detectives through the real bot against the in-repo fake Bot API (no token, no network),
printed as it happens: the group thread and each player's private chat, then the story.

`options` is what was asked for (light: the command line reads it before loading the bot),
`stage` runs the fake and the bot on the demo's clock, `cast` seats the people, `scene`
makes them type and press, `transcript` prints, `lobby` opens the game, `play` drives it
(`run_demo`), and `editions` names each format's hands: the moves of the forum (`forum`),
of the table (`table`), and the Liars Edition's own (`liars`)."""
