"""Small SQL helpers that differ by dialect."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection


def insert_for(dialect: str, model: Any) -> Any:
    """An INSERT that knows ON CONFLICT, for the dialect ("sqlite" or "postgresql")."""
    if dialect == "postgresql":
        return postgresql.insert(model)
    return sqlite.insert(model)


def rowcount(conn: Connection, statement: Any, params: dict[str, Any] | None = None) -> int:
    """Run an UPDATE or DELETE; how many rows it changed."""
    return int(conn.execute(statement, params).rowcount or 0)


def numbered(sql: str, names: Sequence[str], types: Mapping[str, str] | None = None) -> str:
    """`sql` with its `:name` parameters numbered `$1`, `$2`... in the order of `names`
    (asyncpg's own style; each cast to `types[name]` if given). Longer names go first, so
    that no name is replaced inside another."""
    for name in sorted(names, key=len, reverse=True):
        number = names.index(name) + 1
        value = f"CAST(${number} AS {types[name]})" if types is not None else f"${number}"
        sql = sql.replace(f":{name}", value)
    return sql


def dumps(value: Any) -> str:
    """Compact JSON text for the database."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    return json.loads(text)
