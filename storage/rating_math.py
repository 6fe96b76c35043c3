"""The rating arithmetic (OpenSkill's Plackett-Luce model, made for games of many players
and Bayesian: a rating is a mean and an uncertainty) over the engine's standings. No I/O:
`RatingBook` folds rated games one by one into ratings kept per scope, so the stored table
and a recompute from scratch run the very same code in the same order; `SeasonStarts`
says which of its chat's seasons a rated game counts in."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from engine.events import SeatReplaced
from engine.standings import Standing, family, pool, standings, subject
from engine.state import Game

EVERY_CHAT = 0  # the scope of a rating across every chat (no Telegram chat has id 0)
MU, SIGMA = 25.0, 25.0 / 3  # a newcomer's rating, OpenSkill's defaults (tau stays 25/300)
FIRST_SEASON = 1  # a chat's season before any new one; the ratings across chats stay in it


@dataclass(frozen=True)
class RatingKey:
    """Whose rating, where: a chat (EVERY_CHAT: all of them), the format family (forum,
    table), the pool (people's games, or games with a computer detective), the subject
    (a person's id, or a detective level's: engine.standings.subject) and the chat's
    season (across every chat: always the first)."""

    chat_id: int
    family: str
    pool: str
    subject: int
    season: int = FIRST_SEASON


@dataclass(frozen=True)
class Rating:
    """A subject's rating (`mu` ± `sigma`) and the rated games behind it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    right: int = 0  # accusations judged right
    wrong: int = 0  # ... and wrong

    @property
    def conservative(self) -> float:
        """The leaderboard's measure: mu - 3 sigma (OpenSkill's ordinal)."""
        return self.mu - 3 * self.sigma


class RatingBook:
    """Ratings by key, as rated games change them."""

    def __init__(self, ratings: Mapping[RatingKey, Rating] | None = None) -> None:
        self.ratings: dict[RatingKey, Rating] = dict(ratings or {})
        self.model = PlackettLuce(mu=MU, sigma=SIGMA)

    def keys(
        self,
        chat_id: int,
        game: Game,
        replaced: Iterable[SeatReplaced] = (),
        season: int = FIRST_SEASON,
    ) -> list[RatingKey]:
        """The ratings a game changes (none for a game that is not rated)."""
        placed = standings(game, replaced)
        return [
            RatingKey(scope, family(game), pool(game), subject(s.user), where)
            for scope, where in ((chat_id, season), (EVERY_CHAT, FIRST_SEASON))
            for s in placed
        ]

    def rate(
        self,
        chat_id: int,
        game: Game,
        replaced: Iterable[SeatReplaced] = (),
        season: int = FIRST_SEASON,
    ) -> dict[RatingKey, Rating]:
        """Fold a finished game into the chat's ratings of its `season` and those across
        every chat (which seasons never reset); the ratings it changed (none for a game
        that is not rated)."""
        placed = standings(game, replaced)
        if not placed:
            return {}
        changed: dict[RatingKey, Rating] = {}
        for scope, where in ((chat_id, season), (EVERY_CHAT, FIRST_SEASON)):
            keys = [
                RatingKey(scope, family(game), pool(game), subject(s.user), where) for s in placed
            ]
            changed.update(self._rate(keys, placed))
        self.ratings.update(changed)
        return changed

    def _rate(self, keys: list[RatingKey], placed: tuple[Standing, ...]) -> dict[RatingKey, Rating]:
        """One OpenSkill update, every seat a team of one. A subject in several seats (two
        detectives of one level) plays each from its rating before the game, and takes the
        mean of its seats' new ratings."""
        before = [self.ratings.get(key, Rating()) for key in keys]
        teams = [[self.model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = self.model.rate(teams, ranks=[float(s.place) for s in placed])
        seats: dict[RatingKey, list[tuple[float, float, Standing]]] = {}
        for key, team, standing in zip(keys, after, placed, strict=True):
            seats.setdefault(key, []).append((team[0].mu, team[0].sigma, standing))
        changed = {}
        for key, rows in seats.items():
            old = self.ratings.get(key, Rating())
            changed[key] = replace(
                old,
                mu=sum(mu for mu, _, _ in rows) / len(rows),
                sigma=sum(sigma for _, sigma, _ in rows) / len(rows),
                games=old.games + 1,
                wins=old.wins + any(s.place == 1 for _, _, s in rows),
                right=old.right + sum(s.right for _, _, s in rows),
                wrong=old.wrong + sum(s.wrong for _, _, s in rows),
            )
        return changed


class SeasonStarts:
    """Where a chat's seasons begin: season n + 1 after the n-th boundary, each the last
    rated game (`rated_games.seq`) before it. A chat with none is in FIRST_SEASON."""

    def __init__(self, starts: Iterable[tuple[int, int, int]] = ()) -> None:
        """`starts`: (chat, season number, the seq after which it starts)."""
        after: dict[int, list[tuple[int, int]]] = {}
        for chat_id, number, seq in starts:
            after.setdefault(chat_id, []).append((number, seq))
        self.after = {chat: [seq for _, seq in sorted(rows)] for chat, rows in after.items()}

    def of(self, chat_id: int, seq: int) -> int:
        """The chat's season that the rated game numbered `seq` counts in."""
        return FIRST_SEASON + bisect_left(self.after.get(chat_id, []), seq)
