"""Who belongs to a game: its lobby, then its seats (kept for "my games" lookups)."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.engine import Connection

from engine.state import Game
from storage.models import MemberRecord
from storage.sql import insert_for


def members(state: Game | None) -> set[int]:
    """Everyone in the lobby or holding a seat (a replaced person no longer does)."""
    if state is None:
        return set()
    return {entry.user for entry in state.lobby} | {player.user for player in state.players}


def sync_members(conn: Connection, game_id: int, before: Game | None, after: Game) -> None:
    """Apply the change in membership between two states of a game."""
    old, new = members(before), members(after)
    if old == new:
        return
    joined = [{"game_id": game_id, "user_id": user} for user in sorted(new - old)]
    if joined:
        insert = insert_for(conn.dialect.name, MemberRecord).on_conflict_do_nothing()
        conn.execute(insert, joined)
    left = old - new
    if left:
        m = MemberRecord
        conn.execute(delete(m).where(m.game_id == game_id, m.user_id.in_(left)))
