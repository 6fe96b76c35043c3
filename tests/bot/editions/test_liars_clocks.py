"""Clocks start when people can see them (issue 38, point 4), through the fake Bot API with
Telegram's real group limit (20 posts a minute) on the test's clock: a Liars card read while
the group is at its limit and twenty posts wait gives the others the whole Liar! window
from the moment the read post is delivered, and a press on 🤥 Liar! inside it is taken."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.engine import Connection

from engine.liars import events as lev
from engine.liars.state import Stage, liars_part
from fakebot import FakeMessage
from storage.models import OutboxRecord, OutboxStatus
from tests.support.harness import Party, bot_messages
from tests.support.liars_play import LiarsPlayer
from tests.support.table_play import button, fix_seed, open_classic, prompt

SEED = 21
WAITING = 20  # posts queued behind the twenty the group's minute has already taken


def _read_sent_at(conn: Connection, game_id: int) -> datetime | None:
    """When Telegram took the edit of the turn's card that shows the read card with Liar!
    (its row's mark, on the test's clock): the row that carries the window's clock."""
    o = OutboxRecord
    query = select(o.sent_at).where(
        o.game_id == game_id,
        o.payload.like('%"clock":["liar_window"%'),
        o.status == OutboxStatus.SENT,
    )
    found: datetime | None = conn.execute(query).scalar()
    return found


def _read_post(table: Party, player: LiarsPlayer) -> FakeMessage | None:
    found = [m for m in bot_messages(table.group) if button(m, player.label("button.liar"))]
    return found[-1] if found else None


async def test_a_card_read_while_twenty_posts_wait_gets_its_whole_window_from_delivery(
    limited: Party,
) -> None:
    """Alice has moved and not read her card; her time runs out just as the group is at
    its limit with twenty more posts waiting, and the GM reads it for her: the read post,
    with 🤥 Liar!, reaches the group two minutes later, and the window runs from then.

    (The read post is the edit of the turn's card that shows the card and 🤥 Liar!.)"""
    table = limited
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people, words="/newgame liars")
    player = LiarsPlayer(table, game_id, people)
    game = await player.game()
    assert game.table is not None
    reader = player.user(game.table.current, game)
    await player.press(reader, prompt(table), player.label("button.roll"))
    await player.press(reader, prompt(table), player.label("button.stay_here"))
    services = table.bot.services
    game = await player.game()
    assert game.table is not None and game.table.due is not None
    window = game.settings.liar_window
    await table.bot.advance(game.table.due - services.now() - timedelta(seconds=2))

    for n in range(20 + WAITING):  # the minute's twenty go at once, twenty more wait
        await services.tell(table.group.id, "settings.line", {"name": "n", "value": n})
    await table.bot.settle()
    counts = await services.store.outbox.counts()
    assert counts.get(OutboxStatus.PENDING) == WAITING, counts

    await table.bot.advance(timedelta(seconds=2))  # her time runs out: the GM reads
    game = await player.game()
    play = liars_part(game.table).play
    assert play is not None and play.by_gm and play.stage is Stage.WINDOW
    read_at = play.read_at
    assert _read_post(table, player) is None, "the read post waits behind the others"

    # Long past the window as first set, the read post is still on its way: it stays open.
    await table.bot.advance(timedelta(seconds=100))
    assert _read_post(table, player) is None
    game = await player.game()
    play = liars_part(game.table).play
    assert play is not None and play.stage is Stage.WINDOW and play.challenger is None

    await table.bot.advance(timedelta(seconds=20))  # its slot (two minutes on) comes
    post = _read_post(table, player)
    assert post is not None
    delivered = await services.store.db.run_read(_read_sent_at, game_id)
    assert delivered is not None and delivered - read_at >= timedelta(minutes=1)
    game = await player.game()
    play = liars_part(game.table).play
    assert play is not None and play.due == delivered + window, "the whole window from delivery"

    await table.bot.advance(window - timedelta(seconds=5))  # inside it, long after read_at + 30 s
    assert services.now() > read_at + window
    caller = table.bob if reader is not table.bob else table.carol
    await table.bot.press(caller, post, player.label("button.liar"))
    events = await services.store.events(game_id)
    called = [e for e in events if isinstance(e, lev.LiarCalled)]
    assert [e.seat for e in called] == [game.players[1 if caller is table.bob else 2].seat]
    assert not any(isinstance(e, lev.NoLiarCalled) for e in events)
