"""A separate OS process that writes to a game, for the cross-process and crash tests.

python -m tests.support.storage_worker joins URL GAME START_AT USER...  (all joins at once)
python -m tests.support.storage_worker stream URL GAME  (suggest and answer forever)
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

from engine import commands as cmd
from engine.errors import RuleError
from engine.state import Answer
from storage.messages_owed import OutboxItem, PlanContext
from storage.service import Store
from tests.support.stored_games import NOW, answer_for, planner, suggestion_for


def say(**values: Any) -> None:
    print(json.dumps(values), flush=True)


async def joins(url: str, game_id: int, start_at: float, users: list[int]) -> None:
    store = await Store.open(url, migrate=False)
    accepted: list[list[int]] = []
    refused: Counter[str] = Counter()

    async def join(user: int) -> None:
        try:
            outcome = await store.execute(game_id, cmd.JoinLobby(actor=user), NOW, planner)
            accepted.append([user, outcome.first_seq])
        except RuleError as error:
            refused[error.code] += 1

    await asyncio.sleep(max(0.0, start_at - time.time()))
    await asyncio.gather(*(join(user) for user in users))
    await store.close()
    say(accepted=accepted, refused=refused)


def slow_planner(ctx: PlanContext) -> list[OutboxItem]:
    """Announces the seqs it plans, then dawdles: the events are written, the rest is not."""
    say(planning=ctx.first_seq + len(ctx.events) - 1)
    time.sleep(0.02)
    return planner(ctx)


async def stream(url: str, game_id: int) -> None:
    store = await Store.open(url, migrate=False)
    state = await store.load(game_id)
    n = 0
    while True:
        n += 1
        actor = 1 + n % 4
        target = 1 + (n + 1 + n // 4 % 3) % 4
        state = (
            await store.execute(game_id, suggestion_for(state, actor, target, n), NOW, slow_planner)
        ).state
        made = state.suggestions[-1]
        if made.answer is Answer.PENDING:
            answer = answer_for(state, made.id)
            state = (await store.execute(game_id, answer, NOW, slow_planner)).state
        say(committed=n)


def main() -> None:
    mode, url, game = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "joins":
        users = [int(u) for u in sys.argv[5:]]
        asyncio.run(joins(url, game, float(sys.argv[4]), users))
    else:
        asyncio.run(stream(url, game))


if __name__ == "__main__":
    main()
