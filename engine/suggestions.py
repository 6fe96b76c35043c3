"""Suggestions and their answers: refutation, no refutation, the GM's answer for the silent."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import (
    AlreadyAnswered,
    CannotTargetSelf,
    CardNotHeld,
    CardNotNamed,
    EliminatedCannotSuggest,
    MustRefute,
    NoSuggestionsLeft,
    NotYourAnswer,
    ReceivedLimitReached,
    SuggestionAlreadyMade,
    SuggestionIsVoided,
    TargetAway,
    TargetLimitReached,
    TargetNotInGame,
)
from engine.rules import (
    gm_choice,
    matching_cards,
    require_active,
    require_cards,
    require_open_day,
    require_player,
    require_running,
    require_suggestion,
)
from engine.state import Answer, Game, Suggestion


def make_suggestion(state: Game | None, c: cmd.MakeSuggestion, now: datetime) -> Decision:
    """A player names suspect, weapon and place to one other player."""
    game = require_running(state)
    require_open_day(game, now)
    suggester = require_active(require_player(game, c.actor))
    if c.number is not None and c.number != game.made_today(suggester.seat) + 1:
        raise SuggestionAlreadyMade(number=c.number)
    if suggester.eliminated and not game.settings.eliminated_may_suggest:
        raise EliminatedCannotSuggest()
    target = game.player_of(c.target)
    if target is None:
        raise TargetNotInGame()
    if target.seat == suggester.seat:
        raise CannotTargetSelf()
    if target.away_at(now) and not game.settings.away_asked:
        raise TargetAway(until=target.away_until)
    if game.quota_left(suggester) == 0:
        raise NoSuggestionsLeft(resets_at=game.day_ends_at)
    limit = game.settings.max_per_target_per_day
    if game.sent_today(suggester.seat, target.seat) >= limit:
        raise TargetLimitReached(limit=limit, resets_at=game.day_ends_at)
    received = game.settings.max_received_per_day
    if received is not None and game.received_today(target.seat) >= received:
        raise ReceivedLimitReached(limit=received, resets_at=game.day_ends_at)
    cards = (c.suspect, c.weapon, c.place)
    require_cards(game, cards)
    assert game.day_ends_at is not None
    decision = Decision(game)
    decision.emit(
        ev.SuggestionMade(
            at=now,
            suggestion=len(game.suggestions) + 1,
            day=game.day,
            number=game.made_today(suggester.seat) + 1,
            suggester=suggester.seat,
            target=target.seat,
            suspect=c.suspect,
            weapon=c.weapon,
            place=c.place,
            answer_due=max(game.day_ends_at, now + game.settings.effective_answer_grace),
        )
    )
    made = decision.state.suggestions[-1]
    if not target.active or target.away_at(now):
        decision.emit(gm_answer(decision.state, made, now, penalized=False))
    elif game.settings.auto_no_refutation and not matching_cards(game, made):
        decision.emit(ev.SuggestionNotRefuted(at=now, suggestion=made.id, automatic=True))
    return decision


def gm_answer(game: Game, s: Suggestion, now: datetime, *, penalized: bool) -> ev.Event:
    """The GM answers for the target: their standing answer's first named card, else the
    first matching card, suspect → weapon → place."""
    target = game.players[s.target]
    card = gm_choice(target.hand, s.cards, target.standing)
    if card is not None:
        return ev.SuggestionRefuted(
            at=now,
            suggestion=s.id,
            card=card,
            by_gm=True,
            penalized=penalized,
            standing=bool(target.standing),
        )
    return ev.SuggestionNotRefuted(at=now, suggestion=s.id, by_gm=True, penalized=penalized)


def _require_answerable(game: Game, actor: int, suggestion_id: int) -> Suggestion:
    suggestion = require_suggestion(game, suggestion_id)
    if game.players[suggestion.target].user != actor:
        raise NotYourAnswer(suggestion=suggestion_id)
    if suggestion.answer is Answer.VOIDED:
        raise SuggestionIsVoided(suggestion=suggestion_id)
    if suggestion.answer is not Answer.PENDING:
        raise AlreadyAnswered(suggestion=suggestion_id)
    return suggestion


def refute(state: Game | None, c: cmd.Refute, now: datetime) -> Decision:
    """The target shows one named card they hold; only the suggester will see it."""
    game = require_running(state)
    suggestion = _require_answerable(game, c.actor, c.suggestion)
    if c.card not in suggestion.cards:
        raise CardNotNamed(card=c.card)
    if c.card not in game.players[suggestion.target].hand:
        raise CardNotHeld(card=c.card)
    return Decision(game, ev.SuggestionRefuted(at=now, suggestion=suggestion.id, card=c.card))


def declare_no_refutation(
    state: Game | None, c: cmd.DeclareNoRefutation, now: datetime
) -> Decision:
    """The target holds none of the named cards, and says so."""
    game = require_running(state)
    suggestion = _require_answerable(game, c.actor, c.suggestion)
    if matching_cards(game, suggestion):
        raise MustRefute(suggestion=suggestion.id)
    return Decision(game, ev.SuggestionNotRefuted(at=now, suggestion=suggestion.id))


def answer_deadline(state: Game | None, c: cmd.AnswerDeadline, now: datetime) -> Decision:
    """At the answer deadline the GM answers for a silent target, with the penalty."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    suggestion = game.suggestion(c.suggestion)
    assert suggestion is not None
    penalized = _penalized(game, suggestion, now, excused=c.excused)
    return Decision(game, gm_answer(game, suggestion, now, penalized=penalized))


def _penalized(game: Game, s: Suggestion, now: datetime, *, excused: bool) -> bool:
    """A missed answer costs the penalty, unless the bot was down (`excused`) or the target
    is away."""
    away = game.players[s.target].away_at(now)
    return not excused and not away and game.settings.missed_answer_penalty > 0


def answer_overdue(decision: Decision, now: datetime, *, excused: bool) -> None:
    """Answer every suggestion whose deadline has passed (used when a day ends)."""
    for suggestion in decision.state.pending_answers():
        if suggestion.answer_due <= now:
            penalized = _penalized(decision.state, suggestion, now, excused=excused)
            decision.emit(gm_answer(decision.state, suggestion, now, penalized=penalized))


def answer_all_for(decision: Decision, seat: int, now: datetime) -> None:
    """A seat that left: the GM answers everything addressed to it at once, no penalty."""
    for suggestion in decision.state.answers_owed_by(seat):
        decision.emit(gm_answer(decision.state, suggestion, now, penalized=False))
