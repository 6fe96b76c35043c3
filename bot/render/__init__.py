"""Turning outbox payloads into what Telegram shows: texts and keyboards in the reader's language.

`reader` (who reads: language, zone, names), `arguments` (typed arguments formatted),
the composers of the shared messages (`game_messages`, `listings`, `table_messages`, ...;
`bot.editions.messages` joins them with each edition's), `wording` (shared phrasing: lines,
cards in a sentence, a day's length), what a board's drawing gives (`BoardView`, and the
square boards in `board_view`,
`board_picture`, `board_text`), `keyboards` (button specs to inline keyboards),
`splitting` (a long HTML text cut into Telegram-sized parts). Nothing here sends or
stores.
"""
