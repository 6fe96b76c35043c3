"""Who is told what: each engine event becomes the outbox messages it owes.

`registry.SHARED_HANDLERS` maps an event type to the function that plans its messages in
every format (`bot.editions.planning` adds each edition's and is the Planner the store
calls, handing each plan its game's edition). Those functions live in one module
per engine area (`lobby`, `days`, `suggestions`, `accusations`, `admin`, the table's
`table_turns`), on the `plan.Plan` of one command (`index`: a forum game's index, posted
at the start and edited once per command that changes it); an edition's own events are planned in
its package under `bot.editions`, and at the table the game's edition's turn prompt
(`table_prompt.TurnPrompt`) says what the current player may do next. `views` builds what a
person asks to see (`/status`, `/log`, `/hand`, an answer prompt again) with the same
argument builders; `toasts` says what a press at the table did. This is where secrecy is
decided: a shown card goes only to the suggester, a hand only to its holder, accusations
and the envelope only at the end.
Payloads name a message kind and typed arguments (`bot.payload`); `bot.render`
turns them into text.
"""
