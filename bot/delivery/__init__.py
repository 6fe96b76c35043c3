"""Delivery: from the outbox to Telegram.

What an outbox row carries is `bot/payload.py`, below every package that plans, renders or
sends it. `sender` (claims rows and sends them in order), `post` (a row rendered for its
reader), `line` (the sender's way to Telegram: its bot, limiter slots and requests at
once), the attempts that answer what came of them (`outcomes`: `texts`, `edits`,
`photos`, over `raw`), `records` (the one writer of those outcomes: marks, deferrals,
retries; `unreachable` for a 403), `limiter` (Telegram's send limits per chat and overall;
`limiters` picks a shared one), `request_limiter` (the same limiter for the handlers' own
calls), `index_post` (a game's index filled in at send time, its days' posts resolved) and
`pins` (pinning it).
"""
