"""Delivery: from the outbox to Telegram.

`payload` (what an outbox row carries and the one function that builds it), `sender`
(claims rows and sends them in order, with retries), `limiter` (Telegram's send limits per
chat and overall), `request_limiter` (the same limiter for the handlers' own calls).
"""
