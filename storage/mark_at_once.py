"""PostgreSQL: a message's mark, and the claim of its chat's next row, in one statement
on the asyncpg connection itself (storage.database.run_driver).

A sender that knows rows wait behind the message it sent asks its mark to claim the
chat's next row (storage.marks). In a transaction that is four round trips (BEGIN, the
mark, the claim, COMMIT); here it is one, in autocommit. The statement's parts share one
snapshot, so the claim cannot see the mark: it counts the marked row as finished itself
(only an unfinished row can be marked, and a row that is not unfinished holds nothing
back either way), and a next row that replies to it gets the message id just written.
Otherwise the rule is storage.outbox's: the chat's first unfinished row, claimable when
it is due (or its lease ran out) and nothing unfinished ahead of it holds it back. What
it writes equals the transaction's (tests/storage/test_marks.py compares them). A mark
alone is one UPDATE there too: on the driver, without SQLAlchemy's cost per statement.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from storage.outbox import claimed_row
from storage.sql import numbered

if TYPE_CHECKING:
    from storage.marks import Mark, Marked

_SQL = """
WITH marked AS (
    UPDATE outbox SET claimed_by = NULL, lease_until = NULL, status = 'sent',
                      sent_message_id = CAST(:message AS BIGINT),
                      sent_at = CAST(:at AS TIMESTAMPTZ), last_error = NULL
    WHERE id = CAST(:row AS BIGINT) AND status IN ('pending', 'claimed', 'waiting_for_person')
    RETURNING id
), chosen AS (
    SELECT o.id FROM outbox o
    WHERE o.chat_id = CAST(:chat AS BIGINT)
      AND o.status IN ('pending', 'claimed', 'waiting_for_person')
      AND o.id <> CAST(:row AS BIGINT)
      AND (o.status = 'pending' AND o.next_attempt_at <= CAST(:now AS TIMESTAMPTZ)
           OR o.status = 'claimed' AND o.lease_until <= CAST(:now AS TIMESTAMPTZ))
      AND NOT EXISTS (
        SELECT 1 FROM outbox e
        WHERE e.chat_id = o.chat_id
          AND e.status IN ('pending', 'claimed', 'waiting_for_person')
          AND e.id < o.id AND e.id <> CAST(:row AS BIGINT)
          AND (e.status IN ('claimed', 'waiting_for_person')
               OR e.status = 'pending' AND (e.next_attempt_at <= CAST(:now AS TIMESTAMPTZ)
                                            OR e.attempts > 0 OR e.last_error IS NOT NULL))
      )
    ORDER BY o.id LIMIT 1
    FOR UPDATE OF o SKIP LOCKED
), claimed AS (
    UPDATE outbox SET claimed_by = CAST(:worker AS VARCHAR),
                      lease_until = CAST(:until AS TIMESTAMPTZ), status = 'claimed'
    WHERE id IN (SELECT id FROM chosen)
    RETURNING outbox.*, (
        SELECT CASE WHEN s.status = 'sent' THEN s.sent_message_id
                    ELSE CAST(:message AS BIGINT) END
        FROM outbox s
        WHERE s.key = outbox.reply_to_key AND s.chat_id = outbox.chat_id
          AND (s.status = 'sent' OR s.id IN (SELECT id FROM marked))
    ) AS replied_message_id
)
SELECT (SELECT count(*) FROM marked) AS settled, c.*
FROM (SELECT 1) AS one LEFT JOIN claimed c ON true
"""


_MARK = """
UPDATE outbox SET claimed_by = NULL, lease_until = NULL, status = 'sent',
                  sent_message_id = $2, sent_at = $3, last_error = NULL
WHERE id = $1 AND status IN ('pending', 'claimed', 'waiting_for_person')
"""


async def mark_on_driver(driver: Any, mark: Mark, lease: timedelta) -> Marked:
    """Write `mark` and, if it has next_for, claim its chat's next row: one statement."""
    if mark.next_for is None:
        status = await driver.execute(_MARK, mark.row_id, mark.message_id, mark.now)
        return status == "UPDATE 1", []
    mark.asked_next = True
    worker, chat = mark.next_for
    params: dict[str, Any] = {"row": mark.row_id, "message": mark.message_id, "at": mark.now}
    params |= {"chat": chat, "now": mark.now, "worker": worker, "until": mark.now + lease}
    sql, names = _positional()
    found = await driver.fetch(sql, *(params[name] for name in names))
    rows = [SimpleNamespace(**dict(record)) for record in found]
    claimed = [claimed_row(row) for row in rows if row.id is not None]
    return rows[0].settled == 1, claimed


@cache
def _positional() -> tuple[str, tuple[str, ...]]:
    """The statement with asyncpg's numbered parameters, and their names in that order."""
    names = ("row", "message", "at", "chat", "now", "worker", "until")
    return numbered(_SQL, names), names
