"""Rule errors of table play, turn by turn on a board (every table edition's): the
turn, the dice, the move, the suggestion in a room and its refutation."""

from __future__ import annotations

from engine.errors import RuleError, kinds_in


class NotYourTurn(RuleError, code="not_your_turn"):
    pass


class AlreadyRolled(RuleError, code="already_rolled"):
    pass


class AlreadyMoved(RuleError, code="already_moved"):
    pass


class MustRollFirst(RuleError, code="must_roll_first"):
    pass


class OutOfReach(RuleError, code="out_of_reach"):
    """The place is not reachable with this roll (or is no place of the board)."""


class NoSecretPassage(RuleError, code="no_secret_passage"):
    pass


class CannotStay(RuleError, code="cannot_stay"):
    """Only a player moved into the room by another's suggestion may stay to suggest."""


class NotInRoom(RuleError, code="not_in_room"):
    pass


class NoClueCard(RuleError, code="no_clue_card"):
    """The 2023 edition: a clue card is drawn for a magnifying glass rolled this turn, once,
    before the move."""


class MustEnterRoom(RuleError, code="must_enter_room"):
    """A suggestion follows entering a room this turn (or staying after being moved in)."""


class AlreadySuggested(RuleError, code="already_suggested"):
    pass


class MustMove(RuleError, code="must_move"):
    """Skipping a turn is not allowed: roll and move (or take a passage, or stay) first."""


class RoomInReach(RuleError, code="room_in_reach"):
    """The roll leaves no walk of exactly its count but reaches a room: the player enters
    it, since giving up a turn is against the rules."""


class RefutationPending(RuleError, code="refutation_pending"):
    pass


class NotYourRefutation(RuleError, code="not_your_refutation"):
    pass


TABLE_ERRORS: tuple[type[RuleError], ...] = kinds_in(__name__, globals())
"""The kinds every table edition shares."""
