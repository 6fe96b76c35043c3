"""Storage: games as append-only event logs, with the outbox and deadline rows written in
the same transaction as the events that owe them. SQLite (default) or PostgreSQL.

- storage.games.Store: the one service the bot and the scheduler use (commands, lookups,
  and, through its bases, the outbox and deadline rows); Store.people, Store.chats.
- storage.planning: OutboxItem, PlanContext and Planner, the bot layer's side.
- storage.migrate: `upgrade(url)` (run at start and by `whodunit db upgrade`).
"""
