"""Initial schema: games, events, snapshots, members, chat settings, people, outbox, deadlines.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 17:24:06.478023
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_settings",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_chat_settings")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("topic_id", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("last_seq", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_chat_id_topic_id", ["chat_id", "topic_id"], unique=False)
        batch_op.create_index(
            "uq_games_open_per_topic",
            ["chat_id", "topic_id"],
            unique=True,
            sqlite_where=sa.text("status != 'ended'"),
            postgresql_where=sa.text("status != 'ended'"),
        )

    op.create_table(
        "people",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=256), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("username_key", sa.String(length=64), nullable=True),
        sa.Column("language_code", sa.String(length=16), nullable=True),
        sa.Column("dm_ok", sa.Boolean(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_people")),
    )
    op.create_index("ix_people_username_key", "people", ["username_key"], unique=False)
    op.create_table(
        "deadlines",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("claimed_by", sa.String(length=100), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_deadlines_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deadlines")),
        sa.UniqueConstraint("game_id", "key", name=op.f("uq_deadlines_game_id_key")),
    )
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.create_index("ix_deadlines_status_due_at", ["status", "due_at"], unique=False)

    op.create_table(
        "events",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_events_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_events")),
    )
    op.create_table(
        "game_members",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_members_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_game_members")),
    )
    with op.batch_alter_table("game_members", schema=None) as batch_op:
        batch_op.create_index("ix_game_members_user_id", ["user_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("topic_id", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("reply_to_key", sa.String(length=200), nullable=True),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(length=100), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_message_id", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_outbox_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("key", name=op.f("uq_outbox_key")),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index(
            "ix_outbox_status_next_attempt_at", ["status", "next_attempt_at"], unique=False
        )
        batch_op.create_index(
            "ix_outbox_unfinished_per_chat",
            ["chat_id", "id"],
            unique=False,
            sqlite_where=sa.text("status IN ('pending', 'claimed', 'waiting_for_person')"),
            postgresql_where=sa.text("status IN ('pending', 'claimed', 'waiting_for_person')"),
        )
        batch_op.create_index("ix_outbox_user_id_status", ["user_id", "status"], unique=False)
        batch_op.create_index(
            "ix_outbox_chat_id_sent_message_id", ["chat_id", "sent_message_id"], unique=False
        )

    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=64), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_snapshots_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_chat_id_sent_message_id")
        batch_op.drop_index("ix_outbox_user_id_status")
        batch_op.drop_index(
            "ix_outbox_unfinished_per_chat",
            sqlite_where=sa.text("status IN ('pending', 'claimed', 'waiting_for_person')"),
            postgresql_where=sa.text("status IN ('pending', 'claimed', 'waiting_for_person')"),
        )
        batch_op.drop_index("ix_outbox_status_next_attempt_at")

    op.drop_table("outbox")
    with op.batch_alter_table("game_members", schema=None) as batch_op:
        batch_op.drop_index("ix_game_members_user_id")

    op.drop_table("game_members")
    op.drop_table("events")
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.drop_index("ix_deadlines_status_due_at")

    op.drop_table("deadlines")
    op.drop_index("ix_people_username_key", table_name="people")
    op.drop_table("people")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_games_open_per_topic",
            sqlite_where=sa.text("status != 'ended'"),
            postgresql_where=sa.text("status != 'ended'"),
        )
        batch_op.drop_index("ix_games_chat_id_topic_id")

    op.drop_table("games")
    op.drop_table("chat_settings")
