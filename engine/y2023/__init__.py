"""The 2023 edition at the table: its cards, board, cards placed in rooms, clue cards and
the rules that differ from the classic format (edition.py, among the shipped
formats of engine/editions.py)."""
