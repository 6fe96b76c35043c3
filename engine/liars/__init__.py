"""Clue: Liars Edition (2020) at the table: a ring of rooms, investigation cards, Liar!

The classic table machinery (deal, envelope, suggestion going left, accusation, turns,
timers) is reused; this package adds the edition's cards, board, moves and the
investigation card with its Liar! window.
"""
