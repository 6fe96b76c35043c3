"""The notebook's moments (storage.moments): each rated game is noted once, after the
ratings took it in, and a person's averages per family are those of the games' logs."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from statistics import fmean

from engine.events import SeatReplaced
from engine.evolve import replay
from engine.notebook.moments import moments_of
from engine.standings import family, standings
from simulation.randomplay import START
from simulation.rated_games import archive, chat_games
from storage.moments import Averages
from storage.service import Store
from tests.support.stored_games import CHAT

GAMES = 3  # the first with computer detectives; notebooks that named the envelope in two


async def test_each_rated_game_is_noted_once_and_averaged_per_person(store: Store) -> None:
    logs = list(chat_games(GAMES, detectives_every=3))
    forced: dict[tuple[int, str], list[int]] = defaultdict(list)
    accused: dict[tuple[int, str], list[int]] = defaultdict(list)
    rated = 0
    for number, events in enumerate(logs):
        await archive(store, CHAT, events, START + timedelta(hours=number))
        game = replay(events)
        assert game is not None
        if not standings(game, [e for e in events if isinstance(e, SeatReplaced)]):
            continue
        rated += 1
        for m in moments_of(events):
            if m.forced is not None:
                forced[m.user, family(game)].append(m.forced)
            if m.accused is not None:
                accused[m.user, family(game)].append(m.accused)
    assert await store.ratings.note_pending() == 0  # nothing is rated yet
    await store.ratings.rate_pending()
    assert await store.ratings.note_pending(limit=1) == 1  # the newest first
    assert await store.ratings.note_pending() == rated - 1 > 0
    assert await store.ratings.note_pending() == 0
    assert forced  # some notebook named the envelope
    people = {user for user, _ in forced | accused}
    for user in people:
        expected = [
            Averages(
                kind,
                fmean(forced[user, kind]) if forced[user, kind] else None,
                len(forced[user, kind]),
                fmean(accused[user, kind]) if accused[user, kind] else None,
                len(accused[user, kind]),
            )
            for kind in ("forum", "table")
            if (user, kind) in forced or (user, kind) in accused
        ]
        found = await store.ratings.moments(user)
        assert [a for a in found if a.forced_games or a.accused_games] == expected
