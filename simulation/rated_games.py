"""A chat's many finished games for the ratings' tests and benchmarks: people's random
games of the forum and at the table, and games where one person sits with computer
detectives (seated as the bot seats them, so each plays under its level's id) in every
format; each stored as an ended game's log, without running it through the bot."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection

from engine import commands as cmd
from engine.deadlines import deadlines
from engine.events import Event
from engine.evolve import replay
from engine.settings import GameFormat, Settings
from engine.state import Game
from simulation.detectives import DetectiveGame, seats
from simulation.randomplay import RandomGame
from simulation.tableplay import RandomTable
from storage.log import event_rows
from storage.members import members
from storage.models import EventRecord, GameRecord, MemberRecord, SnapshotRecord
from storage.service import Store
from storage.snapshots import encode_state, snapshot_format
from storage.sql import dumps

DETECTIVE_FORMATS = (GameFormat.FORUM, GameFormat.CLASSIC, GameFormat.Y2023, GameFormat.LIARS)


class SeatedDetectives(DetectiveGame):
    """Person 1 opens the lobby and seats detectives of `levels[1:]`, as a host does in
    the bot; every seat (the person's too, by `levels[0]`) is played by its detective. The
    bot's cues are left out: every seat is asked for its move each round anyway."""

    def setup(self) -> None:
        self._run(cmd.OpenLobby(actor=1, seed=self.seed, settings=self.settings))
        for level in self.levels[1:]:
            self._run(cmd.AddDetective(actor=1, level=level))
        self._run(cmd.StartGame(actor=1))

    def tick(self) -> None:
        due = [d for d in deadlines(self.state) if not isinstance(d.command, cmd.DetectiveCue)]
        if not due:
            raise RuntimeError(f"game {self.seed} waits for nothing")
        self.now = max(self.now, due[0].at)
        self._run(due[0].command)


@dataclass
class PeopleGame(RandomGame):
    """A random forum game among `people` (their ids, the first opens it), not users 1..n."""

    people: tuple[int, ...] = ()

    def setup(self) -> None:
        self.run(cmd.OpenLobby(actor=self.people[0], seed=self.seed, settings=self.settings))
        for user in self.people[1:]:
            self.run(cmd.JoinLobby(actor=user))
        self.run(cmd.StartGame(actor=self.people[0]))


def played(seed: int, detectives_every: int = 5) -> list[Event]:
    """Game `seed`'s whole log: every `detectives_every`th game one person and three
    detectives (the formats in turn), else a random people's game of three to six, the
    forum and the classic table in turn."""
    if seed % detectives_every == 0:
        found = DETECTIVE_FORMATS[(seed // detectives_every) % len(DETECTIVE_FORMATS)]
        detectives = SeatedDetectives(seed, seats(seed, 4), settings=Settings(format=found))
        detectives.play()
        return detectives.events
    players = 3 + seed % 4
    game: RandomGame | RandomTable
    game = RandomGame(seed, players) if seed % 2 else RandomTable(seed, players)
    game.play()
    return game.events


def chat_games(count: int, first_seed: int = 0, detectives_every: int = 5) -> Iterator[list[Event]]:
    """`count` games' logs, one after the other."""
    for seed in range(first_seed, first_seed + count):
        yield played(seed, detectives_every)


async def archive(store: Store, chat_id: int, events: list[Event], at: datetime) -> int:
    """Store a game's log as it stands (its row, events, members and a snapshot of its
    end), as the bot would; its id."""
    state = replay(events)
    assert state is not None
    return await store.db.run_write(_archive, chat_id, events, state, at)


def _archive(conn: Connection, chat_id: int, events: list[Event], state: Game, at: datetime) -> int:
    row: dict[str, Any] = {"chat_id": chat_id, "topic_id": 0, "status": state.phase.value}
    row |= {"last_seq": len(events), "created_at": at, "updated_at": at}
    game_id = conn.execute(insert(GameRecord).returning(GameRecord.id), row).scalar_one()
    conn.execute(insert(EventRecord), event_rows(game_id, 1, events, at))
    people = [{"game_id": game_id, "user_id": user} for user in sorted(members(state))]
    if people:
        conn.execute(insert(MemberRecord), people)
    snapshot = dumps(encode_state(state))
    conn.execute(
        insert(SnapshotRecord),
        {
            "game_id": game_id,
            "seq": len(events),
            "format": snapshot_format(),
            "data": snapshot,
            "written_at": at,
        },
    )
    return game_id
