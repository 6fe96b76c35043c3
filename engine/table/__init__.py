"""Table play, turn by turn on a board: the core every table edition shares (state, setup,
turns, suggestions, accusations, queries, applying its events), the edition interface
(edition.py) and the classic edition, the default (classic.py)."""
