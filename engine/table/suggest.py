"""A suggestion at the table: in the player's room, the named suspect and weapon follow
into it, and refutation goes left until the first player who shows a card.

Players holding none of the named cards pass at once (everyone sees they could not); the
first who holds one is asked to choose which to show, within the refuter timer. A player
who left or is away is answered for by the GM at once, as a silent refuter is at the
deadline: the first match, suspect → weapon → place.
"""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import CardNotHeld, CardNotNamed
from engine.rules import gm_choice, matching, require_cards, require_player
from engine.state import Game
from engine.table.checks import acting, require_table, require_turn
from engine.table.errors import AlreadySuggested, MustEnterRoom, NotInRoom, NotYourRefutation
from engine.table.state import MoveKind, Step


def suggest(state: Game | None, c: cmd.Suggest, now: datetime) -> Decision:
    """Suspect and weapon in the room the player has just entered (or stayed in)."""
    game, table, player = require_turn(state, c.actor)
    if table.step in (Step.REFUTING, Step.SUGGESTED):
        raise AlreadySuggested()
    room = table.place_of(player.role)
    if not isinstance(room, str):
        raise NotInRoom()
    if table.step is not Step.MOVED or not table.entered:
        raise MustEnterRoom()
    require_cards(game, (c.suspect, c.weapon, room))
    decision = Decision(game)
    acting(decision, player.seat, now)
    number = len(table.suggestions) + 1
    decision.emit(
        ev.TableSuggestionMade(
            at=now,
            turn=table.turn,
            suggestion=number,
            suggester=player.seat,
            suspect=c.suspect,
            weapon=c.weapon,
            room=room,
        )
    )
    if table.place_of(c.suspect) != room:
        kind = MoveKind.SUGGESTION
        decision.emit(ev.TokenMoved(at=now, turn=table.turn, suspect=c.suspect, to=room, kind=kind))
    if table.room_of_weapon(c.weapon) != room:
        decision.emit(ev.WeaponMoved(at=now, turn=table.turn, weapon=c.weapon, room=room))
    _go_left(decision, now)
    return decision


def _go_left(decision: Decision, now: datetime) -> None:
    """Ask the players left of the suggester in turn, from the last who could not."""
    game = decision.state
    table = game.table
    assert table is not None
    pending = table.pending
    assert pending is not None
    count = len(game.players)
    for k in range(len(pending.passed) + 1, count):
        seat = (pending.suggester + k) % count
        player = game.players[seat]
        card = gm_choice(player.hand, pending.cards, player.standing)
        if card is None:
            decision.emit(ev.CouldNotRefute(at=now, suggestion=pending.number, seat=seat))
        elif not player.active or table.seats[seat].away:
            decision.emit(_shown_by_gm(pending.number, seat, card, player.standing, now))
            return
        else:
            due = now + game.settings.refute_time
            decision.emit(ev.RefuterAsked(at=now, suggestion=pending.number, seat=seat, due=due))
            return
    decision.emit(ev.NobodyRefuted(at=now, suggestion=pending.number))


def refutation_choices(game: Game, user: int) -> tuple[str, ...]:
    """The cards the asked refuter may show: exactly their matching cards."""
    table = game.table
    pending = table.pending if table is not None else None
    player = game.player_of(user)
    if pending is None or player is None or pending.refuter != player.seat:
        raise NotYourRefutation()
    return matching(player.hand, pending.cards)


def show_card(state: Game | None, c: cmd.ShowCard, now: datetime) -> Decision:
    """The asked refuter shows one of their matching cards, to the suggester only."""
    game, table = require_table(state)
    player = require_player(game, c.actor)
    choices = refutation_choices(game, c.actor)
    pending = table.pending
    assert pending is not None
    if c.card not in pending.cards:
        raise CardNotNamed(card=c.card)
    if c.card not in choices:
        raise CardNotHeld(card=c.card)
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(ev.CardShown(at=now, suggestion=pending.number, seat=player.seat, card=c.card))
    return decision


def answer_for_absent(decision: Decision, now: datetime) -> None:
    """The GM shows the asked refuter's first match (timer out, or they left)."""
    table = decision.state.table
    assert table is not None
    pending = table.pending
    assert pending is not None and pending.refuter is not None
    refuter = decision.state.players[pending.refuter]
    card = gm_choice(refuter.hand, pending.cards, refuter.standing)
    assert card is not None, "only a player holding a named card is asked"
    decision.emit(_shown_by_gm(pending.number, refuter.seat, card, refuter.standing, now))


def _shown_by_gm(
    suggestion: int, seat: int, card: str, standing: tuple[str, ...], now: datetime
) -> ev.CardShown:
    """The GM shows a card for a refuter; whether by their standing answer is said, so no
    notebook reads the GM's own order into it."""
    return ev.CardShown(
        at=now, suggestion=suggestion, seat=seat, card=card, by_gm=True, standing=bool(standing)
    )


def refute_deadline(state: Game | None, c: cmd.RefuteDeadline, now: datetime) -> Decision:
    """The refuter timer ran out: the GM shows for them. Excused (it ran out while the bot
    was down): the refuter gets a fresh timer of the full refute time, from now."""
    game = live_deadline(state, c, now)
    if game is None:
        return Decision(state)
    decision = Decision(game)
    pending = game.table.pending if game.table is not None else None
    if c.excused and pending is not None and pending.refuter is not None:
        due = now + game.settings.refute_time
        renewed = ev.RefuteTimerRenewed(
            at=now, suggestion=pending.number, seat=pending.refuter, due=due
        )
        decision.emit(renewed)
        return decision
    answer_for_absent(decision, now)
    return decision
