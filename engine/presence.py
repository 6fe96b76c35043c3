"""Away players, standing answers and silent days: a player may say they will be away (the GM
answers for them at once, with no penalty), choose in advance what the GM shows for them,
and is counted silent for each whole day with no move of theirs."""

from __future__ import annotations

import math
from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.decision import Decision
from engine.errors import AwayLimitReached, AwayNotAllowed, AwayTooShort, NotAway, StandingNotHeld
from engine.rules import require_active, require_game, require_player, require_running
from engine.state import Game, Phase, Player
from engine.suggestions import gm_answer


def _days(game: Game, start: datetime, end: datetime) -> int:
    """The game days a stretch of time counts as: begun days of the game's length."""
    return max(0, math.ceil((end - start) / game.settings.day_length))


def _unused(game: Game, player: Player, now: datetime) -> int:
    """The game days of a player's away time not yet begun (given back on return); the
    first begins as they go."""
    if not player.away_at(now):
        return 0
    assert player.away_until is not None and player.away_from is not None
    charged = _days(game, player.away_from, player.away_until)
    begun = max(1, _days(game, player.away_from, now))
    return max(0, charged - begun)


def go_away(state: Game | None, c: cmd.GoAway, now: datetime) -> Decision:
    """A forum player will be away until `c.until`, within the game's away days; what they
    owe is answered at once (their standing answer, else the GM's order), with no penalty.
    Going away again while away replaces the earlier time (its unused days given back)."""
    game = require_running(state)
    player = require_active(require_player(game, c.actor))
    limit = game.settings.away_days
    if limit == 0:
        raise AwayNotAllowed()
    if c.until <= now:
        raise AwayTooShort()
    taken = player.away_days - _unused(game, player, now)
    days = _days(game, now, c.until)
    if taken + days > limit:
        raise AwayLimitReached(limit=limit, left=max(0, limit - taken))
    decision = Decision(game)
    if player.away_at(now):
        decision.emit(ev.CameBack(at=now, seat=player.seat, refund=_unused(game, player, now)))
    decision.emit(ev.WentAway(at=now, seat=player.seat, until=c.until, days=days))
    for suggestion in decision.state.answers_owed_by(player.seat):
        decision.emit(gm_answer(decision.state, suggestion, now, penalized=False))
    return decision


def come_back(state: Game | None, c: cmd.ComeBack, now: datetime) -> Decision:
    """An away forum player is back early; whole days not begun are given back."""
    game = require_running(state)
    player = require_player(game, c.actor)
    if not player.away_at(now):
        raise NotAway()
    refund = _unused(game, player, now)
    return Decision(game, ev.CameBack(at=now, seat=player.seat, refund=refund))


def set_standing_answer(state: Game | None, c: cmd.SetStandingAnswer, now: datetime) -> Decision:
    """A player's standing answer, in any format, while the game is on: their own cards in
    the order the GM should prefer them (repeats dropped); empty clears it."""
    game = require_game(state)
    if game.phase is not Phase.RUNNING:
        require_running(game)
    player = require_player(game, c.actor)
    for card in c.order:
        if card not in player.hand:
            raise StandingNotHeld(card=card)
    order = tuple(dict.fromkeys(c.order))
    return Decision(game, ev.StandingAnswerSet(at=now, seat=player.seat, order=order))


def _could_move(game: Game, player: Player) -> bool:
    """The player had something to do today: a suggestion to make, or one to answer."""
    if game.may_suggest(player) and game.quota_today(player) > 0:
        return True
    return any(s.target == player.seat for s in game.today())


def count_idle(decision: Decision, now: datetime) -> None:
    """At a day's end (not one the bot slept through): each active player who could move
    but made no move of their own all day (a suggestion, an answer, an accusation), and was
    not away during it, has one more silent day in a row."""
    game = decision.state
    start = game.day_opened_at
    for player in game.players:
        away = player.away_until is not None and start is not None and player.away_until > start
        if not player.active or away or player.moved_day == game.day:
            continue
        if _could_move(game, player):
            decision.emit(ev.PlayerIdle(at=now, seat=player.seat, days=player.idle_days + 1))
