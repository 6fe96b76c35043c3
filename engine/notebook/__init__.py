"""The detective's notebook the GM keeps for each player: what they observed (facts), what
follows from it exactly (deductions) and how likely each card is where (odds).

`facts.py` is the shared vocabulary; `observe.py` reads a game's events into one player's
facts (each edition adds its own through `observed.py`'s hook, and `carry.py` keeps the
facts true when cards change hands); `solve.py` reasons over them. Pure: standard library only.
"""
