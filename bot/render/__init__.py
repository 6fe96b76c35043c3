"""Turning outbox payloads into what Telegram shows: texts and keyboards in the reader's language.

`reader` (who reads: language, zone, names), `arguments` (typed arguments formatted),
`messages` (a payload's whole text, a composer per message kind), `wording` (shared phrasing:
cards in a sentence, a day's length), `keyboards` (button specs to inline keyboards),
`splitting` (a long HTML text cut into Telegram-sized parts). Nothing here sends or stores.
"""
