"""Storage: games as append-only event logs, with the outbox and deadline rows written in
the same transaction as the events that owe them. SQLite (default) or PostgreSQL.

- storage.service.Store: the one object the bot and the scheduler use. Store.execute and
  Store.create_game decide, plan and write a command; Store.load and the game look-ups
  (storage.games) answer questions. Its attributes: Store.outbox (storage.outbox: the
  sender's side), Store.owed (storage.owed: rows composed after the commit that owes
  them, such as a game's story), Store.deadlines (storage.deadlines: the scheduler's side),
  Store.people, Store.chats, Store.workers, Store.updates (handled Telegram updates),
  Store.index_pins (storage.pins: whether each game's index post could be pinned).
- storage.commands: how a command runs (decided once per attempt, optimistic or under the
  game row's lock); storage.deciding: the decision and the messages it owes (the planner
  may read the game's log in the transaction); storage.command_write: what it writes,
  described once; written by one SQL path per database (storage.write_postgresql,
  storage.write_sqlite).
- storage.claims: the outbox rows a sender claims, the handoff, the marks, and the one rule
  of what may be claimed (a chat's head row).
- storage.messages_owed: OutboxItem, PlanContext and Planner, what the bot's planner is
  given and returns, and how its items are stored as outbox rows.
- storage.leases: how outbox and deadline rows are claimed by one worker at a time.
- storage.migrate: `upgrade(url)` (run at start and by `whodunit db upgrade`).
"""
