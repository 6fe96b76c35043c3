"""A group that became a supergroup: everything kept under its old chat id moves to the new.

Telegram gives the upgraded group a new id. What the bot keeps by chat id: the games (so
`/status` and moves in the new chat find them), the chat's defaults row (settings,
language, card pack, the bot's introduction), and the messages still owed to the chat
(unfinished outbox rows, and the `notify` target of private rows, where the thread is
told if a DM cannot go).
The chat's ratings, its seasons and the achievements earned in it move too, so its
leaderboards stay and a recompute (which rates each game under its chat) still equals them.
Events, snapshots, members and deadlines are keyed by game, so they follow the game.
Sent rows stay as they were: they record where a message went.

`move_chat` runs in one write transaction and is idempotent: the two service messages
and a send refused with `migrate_to_chat_id` may each bring the same move, in any order,
twice, from two workers; whatever already moved is not found under the old id again.
The games are moved first, so on PostgreSQL the move waits for a command that holds a
game's row, and then also finds the rows that command wrote.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from engine.codec import to_dict
from engine.settings import Settings
from engine.state import Phase
from storage.achievement_models import AchievementRecord
from storage.models import (
    ChatNameRecord,
    ChatSettingsRecord,
    GameRecord,
    OutboxRecord,
    OutboxStatus,
)
from storage.rating_models import RatingRecord, SeasonRecord
from storage.sql import dumps, loads, rowcount

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Moved:
    """How many rows a move changed (all zero when it had been done already)."""

    games: int = 0
    settings: bool = False
    outbox: int = 0
    notify: int = 0

    @property
    def anything(self) -> bool:
        return bool(self.games or self.settings or self.outbox or self.notify)


def move_chat(conn: Connection, old: int, new: int) -> Moved:
    """Move the chat's games, defaults and owed messages from `old` to `new`."""
    if old == new:
        return Moved()
    games = _move_games(conn, old, new)
    settings = _move_defaults(conn, old, new)
    outbox = _move_owed(conn, old, new)
    notify = _move_notify(conn, old, new)
    _move_names(conn, old, new)
    _move_ratings(conn, old, new)
    return Moved(games, settings, outbox, notify)


def _move_names(conn: Connection, old: int, new: int) -> None:
    """The chat's title (and topic names) label its games in private messages."""
    n = ChatNameRecord
    known = set(conn.execute(select(n.topic_id).where(n.chat_id == new)).scalars())
    movable = n.chat_id == old
    if known:
        movable = movable & n.topic_id.not_in(known)
    conn.execute(update(n).where(movable).values(chat_id=new))


def _move_ratings(conn: Connection, old: int, new: int) -> None:
    """The chat's ratings of every season, its seasons and the achievements earned in it. A
    rating the new chat has already (only by a race: a game rated there before the move)
    keeps the new chat's."""
    r, s, there = RatingRecord, SeasonRecord, aliased(RatingRecord)
    held = select(there.chat_id).where(
        there.chat_id == new,
        there.season == r.season,
        there.family == r.family,
        there.pool == r.pool,
        there.subject == r.subject,
    )
    conn.execute(update(r).where(r.chat_id == old, ~held.exists()).values(chat_id=new))
    begun = set(conn.execute(select(s.number).where(s.chat_id == new)).scalars())
    conn.execute(update(s).where(s.chat_id == old, s.number.not_in(begun)).values(chat_id=new))
    a = AchievementRecord
    conn.execute(update(a).where(a.chat_id == old).values(chat_id=new))


def _move_games(conn: Connection, old: int, new: int) -> int:
    """Every game of the chat, ended ones too (their history stays the chat's)."""
    g = GameRecord
    open_here = select(g.topic_id).where(g.chat_id == new, g.status != Phase.ENDED.value)
    taken = set(conn.execute(open_here).scalars())
    movable = g.chat_id == old
    if taken:  # a game opened in the new chat before the move (only by a race) keeps its place
        stuck = g.topic_id.in_(taken) & (g.status != Phase.ENDED.value)
        for game_id in conn.execute(select(g.id).where(movable, stuck)).scalars():
            log.warning("game %s stays in chat %s: chat %s has a game there", game_id, old, new)
        movable = movable & ~stuck
    return rowcount(conn, update(g).where(movable).values(chat_id=new))


def _move_defaults(conn: Connection, old: int, new: int) -> bool:
    """The defaults row; if the new chat has one too, its own choices win, field by field."""
    c = ChatSettingsRecord
    locked = select(c).where(c.chat_id.in_((old, new))).with_for_update()
    rows = {row.chat_id: row for row in conn.execute(locked).all()}
    if old not in rows:
        return False
    if new not in rows:
        conn.execute(update(c).where(c.chat_id == old).values(chat_id=new))
        return True
    was, now = rows[old], rows[new]
    merged: dict[str, Any] = {
        "language": now.language or was.language,
        "pack": now.pack or was.pack,
        "settings": _merged_settings(was.settings, now.settings),
        "introduced_at": now.introduced_at or was.introduced_at,
        "rights_told": now.rights_told if now.introduced_at else was.rights_told,
    }
    conn.execute(update(c).where(c.chat_id == new).values(**merged))
    conn.execute(delete(c).where(c.chat_id == old))
    return True


def _merged_settings(old: str, new: str) -> str:
    """Settings the new chat set (differing from the engine's defaults) over the old ones."""
    defaults = to_dict(Settings())
    mine = {k: v for k, v in loads(new).items() if defaults.get(k) != v}
    return dumps(loads(old) | mine)


def _move_owed(conn: Connection, old: int, new: int) -> int:
    """Unfinished rows of the chat, and those still to compose. A reply to a message of the
    old chat cannot be made in the new one (its message ids start afresh), so a row's own
    reply target is dropped."""
    o = OutboxRecord
    owed = (o.chat_id == old) & o.status.in_((*OutboxStatus.unfinished(), OutboxStatus.OWED))
    replying = owed & o.payload.like('%"reply_to_message_id"%')
    for row_id, payload in conn.execute(select(o.id, o.payload).where(replying)).all():
        data = loads(payload)
        data.pop("reply_to_message_id", None)
        conn.execute(update(o).where(o.id == row_id).values(payload=dumps(data)))
    return rowcount(conn, update(o).where(owed).values(chat_id=new))


def _move_notify(conn: Connection, old: int, new: int) -> int:
    """Private rows still owed whose thread to tell (payload "notify") is the old chat."""
    o = OutboxRecord
    needle = f'%"notify":[{old},%'
    naming = (
        o.status.in_(OutboxStatus.unfinished()) & o.payload.like(needle) & o.user_id.is_not(None)
    )
    moved = 0
    for row_id, payload in conn.execute(select(o.id, o.payload).where(naming)).all():
        data = loads(payload)
        notify = data.get("notify")
        if isinstance(notify, list) and notify and notify[0] == old:
            data["notify"] = [new, *notify[1:]]
            conn.execute(update(o).where(o.id == row_id).values(payload=dumps(data)))
            moved += 1
    return moved
