"""PostgreSQL: marks, and the claim of their chats' next rows, in one statement on the
asyncpg connection itself (storage.database.run_driver).

Marks that meet are written together (storage.marks), and a sender that knows rows wait
behind the message it sent asks its mark to claim the chat's next row. In a transaction
that is BEGIN, a statement per mark, the claim and COMMIT; here it is one statement, in
autocommit. The statement's parts share one snapshot, so the claim cannot see the marks:
it counts the marked rows as finished itself (only an unfinished row can be marked, and a
row that is not unfinished holds nothing back either way), and a next row that replies to
one of them gets the message id just written. Otherwise the rule is storage.claims': the
chat's head row (`claimable`, the marked rows counted as finished). What it writes equals
the transaction's (tests/storage/test_marks.py compares them).

Marks that claim nothing (most of them) take a plain UPDATE instead: PostgreSQL plans the
whole statement anew at every execution (its custom plans; 0.46 ms of the server's time
a mark, three quarters of the statement's cost), the plain one once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from functools import cache
from types import SimpleNamespace
from typing import Any

from storage.claims import Mark, Marked, OutboxRow, claimable, claimed_row
from storage.sql import numbered

_SQL = (
    """
WITH m AS (
    SELECT * FROM unnest(CAST(:rows AS BIGINT[]), CAST(:messages AS BIGINT[]),
                         CAST(:ats AS TIMESTAMPTZ[])) AS m(id, message, at)
), marked AS (
    UPDATE outbox SET claimed_by = NULL, lease_until = NULL, status = 'sent',
                      sent_message_id = m.message, sent_at = m.at, last_error = NULL
    FROM m
    WHERE outbox.id = m.id AND outbox.status IN ('pending', 'claimed', 'waiting_for_person')
    RETURNING outbox.id
), w AS (
    SELECT * FROM unnest(CAST(:chats AS BIGINT[]), CAST(:workers AS VARCHAR[]),
                         CAST(:nows AS TIMESTAMPTZ[]), CAST(:untils AS TIMESTAMPTZ[]))
        AS w(chat, worker, now, until)
), chosen AS (
    SELECT c.id, w.worker, w.until FROM w CROSS JOIN LATERAL (
        SELECT o.id FROM outbox o
        WHERE o.chat_id = w.chat AND o.id <> ALL(CAST(:rows AS BIGINT[]))
          AND {CLAIMABLE}
        ORDER BY o.id LIMIT 1
        FOR UPDATE OF o SKIP LOCKED
    ) AS c
), claimed AS (
    UPDATE outbox SET claimed_by = chosen.worker, lease_until = chosen.until,
                      status = 'claimed'
    FROM chosen
    WHERE outbox.id = chosen.id
    RETURNING outbox.*, (
        SELECT CASE WHEN s.status = 'sent' THEN s.sent_message_id ELSE (
                   SELECT m.message FROM m WHERE m.id = s.id) END
        FROM outbox s
        WHERE s.key = outbox.reply_to_key AND s.chat_id = outbox.chat_id
          AND (s.status = 'sent' OR s.id IN (SELECT id FROM marked))
    ) AS replied_message_id
)
SELECT (SELECT array_agg(id) FROM marked) AS settled, c.*
FROM (SELECT 1) AS one LEFT JOIN claimed c ON true
"""
).replace("{CLAIMABLE}", claimable("o", "w.now", besides="CAST(:rows AS BIGINT[])"))


_PLAIN = """
UPDATE outbox SET claimed_by = NULL, lease_until = NULL, status = 'sent',
                  sent_message_id = m.message, sent_at = m.at, last_error = NULL
FROM unnest(CAST(:rows AS BIGINT[]), CAST(:messages AS BIGINT[]),
            CAST(:ats AS TIMESTAMPTZ[])) AS m(id, message, at)
WHERE outbox.id = m.id AND outbox.status IN ('pending', 'claimed', 'waiting_for_person')
RETURNING outbox.id
"""


def fits(batch: Sequence[Mark]) -> bool:
    """Whether one statement can write these marks: each of another row, and those that
    claim next of chats that differ (else the marks go through a transaction)."""
    rows = [mark.row_id for mark in batch]
    chats = [mark.next_for[1] for mark in batch if mark.next_for is not None]
    return len(set(rows)) == len(rows) and len(set(chats)) == len(chats)


async def marks_on_driver(driver: Any, batch: Sequence[Mark], lease: timedelta) -> list[Marked]:
    """Write the marks (which `fit`) and claim next for those that ask: one statement."""
    wanted = [mark for mark in batch if mark.next_for is not None]
    for mark in wanted:
        mark.asked_next = True
    params: dict[str, Any] = {
        "rows": [mark.row_id for mark in batch],
        "messages": [mark.message_id for mark in batch],
        "ats": [mark.now for mark in batch],
        "chats": [mark.next_for[1] for mark in wanted if mark.next_for is not None],
        "workers": [mark.next_for[0] for mark in wanted if mark.next_for is not None],
        "nows": [mark.now for mark in wanted],
        "untils": [mark.now + lease for mark in wanted],
    }
    if not wanted:
        sql, names = _positional(plain=True)
        found = await driver.fetch(sql, *(params[name] for name in names))
        settled = {record["id"] for record in found}
        return [(mark.row_id in settled, []) for mark in batch]
    sql, names = _positional()
    found = await driver.fetch(sql, *(params[name] for name in names))
    settled = set(found[0]["settled"] or ())
    claimed: dict[int, list[OutboxRow]] = {}
    for record in found:
        if record["id"] is not None:
            row = claimed_row(SimpleNamespace(**dict(record)))
            claimed.setdefault(row.chat_id, []).append(row)
    results: list[Marked] = []
    for mark in batch:
        chat = mark.next_for[1] if mark.next_for is not None else None
        results.append((mark.row_id in settled, claimed.pop(chat, []) if chat is not None else []))
    return results


@cache
def _positional(plain: bool = False) -> tuple[str, tuple[str, ...]]:
    """The statement (the plain one: marks only) with asyncpg's numbered parameters, and
    their names in that order."""
    if plain:
        names: tuple[str, ...] = ("rows", "messages", "ats")
        return numbered(_PLAIN, names), names
    names = ("rows", "messages", "ats", "chats", "workers", "nows", "untils")
    return numbered(_SQL, names), names
