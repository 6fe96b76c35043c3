"""A planner may read the game's log (PlanContext.log: a forum game's index shows what the
state forgets): storage reads it in the command's transaction, the whole log up to the
command's last event, on every path a command takes (a new game's, the optimistic one on
the cached state, the locked one, and on PostgreSQL the one statement, which leaves such a
command to a transaction)."""

from __future__ import annotations

from engine import commands as cmd
from engine import events as ev
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Store
from storage.updates import UpdateMark
from tests.support.stored_games import CHAT, NOW, ROOMY, planner, suggestion_for


class LogReader:
    """A planner that reads the log at every command, and says what it read in a row."""

    def __init__(self) -> None:
        self.read: list[list[ev.Event]] = []

    def __call__(self, ctx: PlanContext) -> list[OutboxItem]:
        log = ctx.log()
        self.read.append(log)
        last = ctx.first_seq + len(ctx.events) - 1
        assert len(log) == last and log[-len(ctx.events) :] == ctx.events
        row = OutboxItem(f"g{ctx.game_id}:log{last}", ctx.chat_id, payload={"read": len(log)})
        return [*planner(ctx), row]


async def test_a_planner_reads_the_whole_log_on_every_path(store: Store) -> None:
    reader = LogReader()
    opening = cmd.OpenLobby(actor=1, seed=7, settings=ROOMY)
    game = await store.create_game(CHAT, 0, opening, NOW, reader)
    for user in (2, 3, 4):
        game = await store.execute(game.game_id, cmd.JoinLobby(actor=user), NOW, reader)
    game = await store.execute(game.game_id, cmd.StartGame(actor=1), NOW, reader)
    state = game.state
    for n in range(4):  # an update's command (optimistic), or on a state not cached (locked)
        if n % 2:
            store.forget_cached_states()
        command = suggestion_for(state, actor=1 + n % 2, target=3, n=n)
        made = await store.execute(game.game_id, command, NOW, reader, update=UpdateMark(50 + n))
        state = made.state
    logged = await store.events(game.game_id)
    assert len(reader.read) == 9 and reader.read[-1] == logged
    assert all(read == logged[: len(read)] for read in reader.read)
