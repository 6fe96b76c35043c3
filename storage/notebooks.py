"""Players' own marks on their notebooks: one row per marked cell (a card against an
owner), kept with the game. What the GM notes itself is never stored: it follows from the
game's events (engine.notebook)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select

from storage.database import Database
from storage.models import NotebookMarkRecord
from storage.sql import insert_for

MARKS = ("yes", "no", "maybe")
MAX_NOTE = 32


@dataclass(frozen=True)
class OwnMark:
    """A player's mark on a cell: "yes", "no", "maybe" or None, and a note of their own."""

    mark: str | None
    note: str | None = None


class NotebookMarks:
    """Read and write players' own marks."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def of(self, game_id: int, seat: int) -> dict[tuple[str, int], OwnMark]:
        """A seat's marks in a game, by (card, owner)."""
        r = NotebookMarkRecord
        query = select(r.card, r.owner, r.mark, r.note).where(r.game_id == game_id, r.seat == seat)
        rows = await self.db.run_read(lambda conn: conn.execute(query).all())
        return {(row.card, row.owner): OwnMark(row.mark, row.note) for row in rows}

    async def put(self, game_id: int, seat: int, card: str, owner: int, own: OwnMark) -> None:
        """Set one cell's mark and note (both None: the cell is cleared)."""
        if own.mark is not None and own.mark not in MARKS:
            raise ValueError(f"not a mark: {own.mark!r}")
        r = NotebookMarkRecord
        note = (own.note or "").strip()[:MAX_NOTE] or None
        key = (r.game_id == game_id, r.seat == seat, r.card == card, r.owner == owner)
        if own.mark is None and note is None:
            clear = delete(r).where(*key)
            await self.db.run_write(lambda conn: conn.execute(clear))
            return
        values = {"mark": own.mark, "note": note, "updated_at": datetime.now(UTC)}
        query = (
            insert_for(self.db.dialect, r)
            .values(game_id=game_id, seat=seat, card=card, owner=owner, **values)
            .on_conflict_do_update(index_elements=["game_id", "seat", "card", "owner"], set_=values)
        )
        await self.db.run_write(lambda conn: conn.execute(query))
