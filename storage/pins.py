"""Whether each game's index post was pinned, and Telegram's refusal when it was not: read
by `/status` in the group and by `whodunit doctor`."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from storage.database import Database
from storage.models import IndexPinRecord
from storage.sql import insert_for


class IndexPins:
    """The outcome of pinning each game's index (one row per game, the latest attempt)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def note(
        self, game_id: int, message_id: int, refusal: str | None, now: datetime | None = None
    ) -> None:
        """The index `message_id` of the game was pinned (`refusal` None) or refused."""
        values = {"message_id": message_id, "refusal": refusal, "at": now or datetime.now(UTC)}
        query = (
            insert_for(self.db.dialect, IndexPinRecord)
            .values(game_id=game_id, **values)
            .on_conflict_do_update(index_elements=["game_id"], set_=values)
        )
        await self.db.run_write(lambda conn: conn.execute(query))

    async def refusal(self, game_id: int) -> str | None:
        """Telegram's answer when the game's index could not be pinned; None otherwise (pinned,
        or not tried yet)."""
        query = select(IndexPinRecord.refusal).where(IndexPinRecord.game_id == game_id)
        found: str | None = await self.db.run_read(lambda conn: conn.execute(query).scalar())
        return found
