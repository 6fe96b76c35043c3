"""An accusation at the table: on one's own turn, when and from where the edition allows
(the classic: at any step, anywhere), checked at once.

Right: the game is won and the envelope shown. Wrong: the player is out (no more turns,
still refutes), their token leaves the corridor for the nearest room so it blocks nobody.
"""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.decision import Decision
from engine.outcomes import is_solution
from engine.rules import require_cards
from engine.state import Game
from engine.table.checks import acting, require_turn
from engine.table.edition import table_edition
from engine.table.errors import RefutationPending
from engine.table.state import Step, TurnEnd
from engine.table.turns import off_the_corridor, start_next


def accuse(state: Game | None, c: cmd.Accuse, now: datetime) -> Decision:
    """The current player names suspect, weapon and room; not while a card is owed to them."""
    game, table, player = require_turn(state, c.actor)
    if table.step is Step.REFUTING:
        raise RefutationPending()
    table_edition(game).require_accusing_moment(game, player.seat)
    cards = (c.suspect, c.weapon, c.place)
    require_cards(game, cards)
    correct = is_solution(game, cards)
    decision = Decision(game)
    acting(decision, player.seat, now)
    decision.emit(
        ev.AccusedAtTable(
            at=now,
            turn=table.turn,
            seat=player.seat,
            suspect=c.suspect,
            weapon=c.weapon,
            place=c.place,
            correct=correct,
        )
    )
    if correct:
        decision.emit(ev.GameEnded(at=now, reason=ev.EndReason.WON, winner=player.seat))
        return decision
    off_the_corridor(decision, player.role, now)
    decision.emit(ev.TurnEnded(at=now, turn=table.turn, seat=player.seat, reason=TurnEnd.ACCUSED))
    start_next(decision, now)
    return decision
