"""A turn at the table: roll, move (or the secret passage, or stay), end it; the turn
timer, players away, and who plays next."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.board.movement import nearest_room
from engine.deadlines import live_deadline
from engine.decision import Decision
from engine.errors import AwayTooShort, NotAway
from engine.outcomes import end_if_nobody_can_accuse
from engine.rules import require_active, require_player
from engine.state import Game
from engine.table.checks import acting, reach, reaches, require_table, require_turn
from engine.table.edition import table_edition
from engine.table.errors import (
    AlreadyMoved,
    AlreadyRolled,
    CannotStay,
    MustMove,
    MustRollFirst,
    NoClueCard,
    NoSecretPassage,
    OutOfReach,
    RefutationPending,
    RoomInReach,
)
from engine.table.setup import board_of
from engine.table.state import MoveKind, Step, Table, TurnEnd
from engine.table.suggest import answer_for_absent


def _before_moving(table: Table) -> None:
    """Rolling, the passage and staying are the turn's first move."""
    if table.step is Step.MOVE:
        raise AlreadyRolled()
    if table.step is not Step.ROLL:
        raise AlreadyMoved()


def instead_of_walking_now(game: Game) -> bool:
    """Whether the passage and staying may be chosen at this step: instead of rolling
    (classic), or after the roll instead of walking (an edition whose every turn begins
    with the dice: its `instead_of_walking` step)."""
    table = game.table
    assert table is not None
    return table.step is table_edition(game).instead_of_walking


def instead_of_walking(game: Game, table: Table) -> None:
    """The passage and staying, at their moment of the turn (see instead_of_walking_now)."""
    if table_edition(game).instead_of_walking is Step.ROLL:
        _before_moving(table)
    elif table.step is Step.ROLL:
        raise MustRollFirst()
    elif table.step is not Step.MOVE:
        raise AlreadyMoved()


def roll(state: Game | None, c: cmd.Roll, now: datetime) -> Decision:
    """The current player rolls the edition's dice (the classic: the game's one or two)."""
    game, table, player = require_turn(state, c.actor)
    _before_moving(table)
    decision = Decision(game)
    acting(decision, player.seat, now)
    dice = table_edition(game).roll(game, table.turn)
    decision.emit(ev.DiceRolled(at=now, turn=table.turn, seat=player.seat, dice=dice))
    return decision


def draw_clue(state: Game | None, c: cmd.DrawClue, now: datetime) -> Decision:
    """An edition with clue cards (the 2023 edition: a glass was rolled): the player
    chooses to take one; elsewhere NoClueCard."""
    game, table, player = require_turn(state, c.actor)
    edition = table_edition(game)
    if not edition.may_draw_clue(table):
        raise NoClueCard()
    decision = Decision(game)
    acting(decision, player.seat, now)
    edition.draw_clue(decision, player.seat, now)
    return decision


def move(state: Game | None, c: cmd.Move, now: datetime) -> Decision:
    """Exactly the roll's squares, orthogonally, never through a token nor twice on one;
    fewer only to enter a room, which ends the move; not back into the room just left."""
    game, table, player = require_turn(state, c.actor)
    if table.step is Step.ROLL:
        raise MustRollFirst()
    if table.step is not Step.MOVE:
        raise AlreadyMoved()
    to = tuple(c.to) if isinstance(c.to, list) else c.to
    if not reaches(reach(game, player), to, table.place_of(player.role)):
        raise OutOfReach()
    decision = Decision(game)
    acting(decision, player.seat, now)
    kind = MoveKind.WALK
    decision.emit(ev.TokenMoved(at=now, turn=table.turn, suspect=player.role, to=to, kind=kind))
    table_edition(game).after_entering(decision, player.seat, now)
    return decision


def take_passage(state: Game | None, c: cmd.TakePassage, now: datetime) -> Decision:
    """From a corner room to the opposite corner, instead of rolling (the 2023 edition:
    after it, instead of walking)."""
    game, table, player = require_turn(state, c.actor)
    instead_of_walking(game, table)
    here = table.place_of(player.role)
    passages = board_of(game).passages
    if not isinstance(here, str) or here not in passages:
        raise NoSecretPassage()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(
        ev.TokenMoved(
            at=now, turn=table.turn, suspect=player.role, to=passages[here], kind=MoveKind.PASSAGE
        )
    )
    table_edition(game).after_entering(decision, player.seat, now)
    return decision


def may_stay(game: Game, seat: int) -> bool:
    """Whether the seat may stay to suggest (the edition's rule: classic, moved into a
    room by another's suggestion since the last turn, and still there)."""
    return table_edition(game).may_stay(game, seat)


def stay_to_suggest(state: Game | None, c: cmd.StayToSuggest, now: datetime) -> Decision:
    """Instead of rolling, a player moved in by a suggestion suggests where they are (the
    2023 edition: after rolling, anyone whose turn began in a room)."""
    game, table, player = require_turn(state, c.actor)
    instead_of_walking(game, table)
    if not may_stay(game, player.seat):
        raise CannotStay()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(ev.StayedToSuggest(at=now, turn=table.turn, seat=player.seat))
    table_edition(game).after_entering(decision, player.seat, now)
    return decision


def may_end_turn(game: Game) -> bool:
    """After moving; not while a card is owed. After the roll, only when the token has no
    move at all: no walk of exactly its count, no room within it, no passage or staying
    where they come after the roll ("giving up a turn is against the rules")."""
    table = game.table
    assert table is not None
    if table.step in (Step.MOVED, Step.SUGGESTED):
        return True
    return table.step is Step.MOVE and not has_move(game)


def has_move(game: Game) -> bool:
    """Whether the current player, having rolled, has any move left to make."""
    table = game.table
    assert table is not None
    player = game.players[table.current]
    found = reach(game, player)
    if found.rooms or found.squares:
        return True
    if not instead_of_walking_now(game):
        return False
    here = table.place_of(player.role)
    return (isinstance(here, str) and here in board_of(game).passages) or may_stay(
        game, player.seat
    )


def end_turn(state: Game | None, c: cmd.EndTurn, now: datetime) -> Decision:
    """The player ends their turn; skipping one without moving is not allowed, nor is
    stopping short of a room within the roll when no walk of exactly it is left."""
    game, table, player = require_turn(state, c.actor)
    if table.step is Step.REFUTING:
        raise RefutationPending()
    if not may_end_turn(game):
        found = reach(game, player) if table.step is Step.MOVE else None
        if found is not None and found.rooms and not found.squares:
            raise RoomInReach()
        raise MustMove()
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(ev.TurnEnded(at=now, turn=table.turn, seat=player.seat, reason=TurnEnd.ENDED))
    start_next(decision, now)
    return decision


def start_next(decision: Decision, now: datetime) -> None:
    """The next seat to the left still in the game plays; away seats are skipped at once.
    With nobody left who may accuse the game ends; with everyone left away it waits
    (a turn without a deadline) until one of them is back."""
    end_if_nobody_can_accuse(decision, now)
    game = decision.state
    table = game.table
    assert table is not None
    if not game.running:
        return
    count = len(game.players)
    order = [(table.current + k) % count for k in range(1, count + 1)]
    seats = [s for s in order if game.can_accuse(game.players[s])]
    here = [s for s in seats if not table.seats[s].away]
    turn = table.turn + 1
    if not here:
        decision.emit(ev.TurnStarted(at=now, turn=turn, seat=seats[0], due=None))
        return
    for seat in seats[: seats.index(here[0])]:
        decision.emit(ev.TurnSkipped(at=now, turn=turn, seat=seat))
        turn += 1
    due = now + game.settings.turn_time
    decision.emit(ev.TurnStarted(at=now, turn=turn, seat=here[0], due=due))


def turn_deadline(state: Game | None, c: cmd.TurnDeadline, now: datetime) -> Decision:
    """The turn timer ran out: the turn is skipped; too many in a row and the player is away.
    Excused (it ran out while the bot was down): a fresh timer of the full turn time, from now."""
    game = live_deadline(state, c, now)
    if game is None or game.table is None:
        return Decision(state)
    seat = game.table.current
    decision = Decision(game)
    if c.excused:
        due = now + game.settings.turn_time
        decision.emit(ev.TurnTimerRenewed(at=now, turn=c.turn, seat=seat, due=due))
        return decision
    time_out(decision, c.turn, seat, now)
    return decision


def time_out(decision: Decision, turn: int, seat: int, now: datetime) -> None:
    """The turn ends as timed out; too many in a row and the player is away (their token
    off the corridor, so it blocks no doorway while they are gone); the next plays."""
    decision.emit(ev.TurnEnded(at=now, turn=turn, seat=seat, reason=TurnEnd.TIMED_OUT))
    after = decision.state.table
    assert after is not None
    facts = after.seats[seat]
    if not facts.away and facts.missed >= decision.state.settings.away_after:
        decision.emit(ev.PlayerAway(at=now, seat=seat))
        off_the_corridor(decision, decision.state.players[seat].role, now)
    start_next(decision, now)


def go_away(state: Game | None, c: cmd.GoAway, now: datetime) -> Decision:
    """A player says they will be away (until `c.until`): their turns are skipped and the GM
    refutes for them, as after missed turns, until they are back (a refutation asked of
    them already waits for its timer); their token leaves the corridor, as a leaver's."""
    game, table = require_table(state)
    player = require_active(require_player(game, c.actor))
    if c.until <= now:
        raise AwayTooShort()
    decision = Decision(game, ev.PlayerAway(at=now, seat=player.seat, until=c.until))
    if table.current != player.seat:  # their own turn goes on where they stand
        off_the_corridor(decision, player.role, now)
    return decision


def return_to_table(
    state: Game | None, c: cmd.ReturnToTable | cmd.ComeBack, now: datetime
) -> Decision:
    """An away player is back; if the game was waiting for anyone, it is their turn."""
    game, table = require_table(state)
    player = require_active(require_player(game, c.actor))
    if not table.seats[player.seat].away:
        raise NotAway()
    decision = Decision(game)
    came_back = isinstance(c, cmd.ComeBack)
    decision.emit(ev.PlayerReturned(at=now, seat=player.seat, came_back=came_back))
    if table.due is None and table.current != player.seat:
        due = now + game.settings.turn_time
        decision.emit(ev.TurnStarted(at=now, turn=table.turn + 1, seat=player.seat, due=due))
    return decision


def off_the_corridor(decision: Decision, suspect: str, now: datetime) -> None:
    """A token that plays no more, or not for a while (a wrong accuser's, a leaver's, an
    away player's), goes from the corridor to the nearest room, so it never blocks a
    doorway."""
    table = decision.state.table
    assert table is not None
    here = table.place_of(suspect)
    if isinstance(here, str):
        return
    room = nearest_room(board_of(decision.state), here)
    decision.emit(
        ev.TokenMoved(at=now, turn=table.turn, suspect=suspect, to=room, kind=MoveKind.OUT)
    )


def after_leaving(decision: Decision, seat: int, now: datetime) -> None:
    """A player left: the GM refutes for them if they were asked; their token leaves the
    corridor for the nearest room; their turn ends."""
    table = decision.state.table
    assert table is not None
    pending = table.pending
    if pending is not None and (pending.refuter == seat or table.current == seat):
        answer_for_absent(decision, now)
    table_edition(decision.state).on_leaving(decision, seat, now)
    off_the_corridor(decision, decision.state.players[seat].role, now)
    table = decision.state.table
    assert table is not None
    if table.current == seat:
        decision.emit(ev.TurnEnded(at=now, turn=table.turn, seat=seat, reason=TurnEnd.LEFT))
        start_next(decision, now)
