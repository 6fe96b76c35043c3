"""Helpers shared by the tests (fixtures stay in the conftest files).

Engine: `table` (one game driven command by command, with its clock), `invariants`.
Storage: `stored_games` (real games through `Store`, a stand-in planner, a consistency
check), `postgres` (the test server, databases made and dropped), `storage_worker` (a
process writing to a game). Bot end to end: `harness` (the real Application against the
fake Bot API, and the `Party` of the `table` fixture), `play` (steps people take in
Telegram), `catalogs`, `windows` (rate-limit counting). Processes: `processes` (the real
`whodunit run`), `crashes` (killing it again and again), `sweeper` (a sweeping process).
Random games and crowds of games are in the installed `simulation` package.
"""
