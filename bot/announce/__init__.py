"""Who is told what: each engine event becomes the outbox messages it owes.

`table.EVENT_HANDLERS` maps an event type to the function that plans its messages; those
live in one module per engine area (`lobby`, `days`, `suggestions`, `accusations`, `admin`),
on the `plan.Plan` of one command. This is where secrecy is decided: a shown card goes only
to the suggester, a hand only to its holder, accusations and the envelope only at the end.
Payloads name a catalog key and typed arguments; `bot.render` turns them into text.
"""
