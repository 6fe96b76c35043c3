"""The classic format: table Clue turn by turn on the board (state, setup, turns,
suggestions, accusations, queries, and applying its events)."""
