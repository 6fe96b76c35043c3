"""Rule errors of the 2023 edition only: when and where an accusation is made."""

from __future__ import annotations

from engine.errors import RuleError, kinds_in


class AccuseOutsideRoom(RuleError, code="accuse_outside_room"):
    """The 2023 edition: an accusation is made from a room (any room)."""


class AccuseAfterMoving(RuleError, code="accuse_after_moving"):
    """The 2023 edition: an accusation comes after the roll and the move (or staying, or
    the passage), never before."""


Y2023_ERRORS: tuple[type[RuleError], ...] = kinds_in(__name__, globals())
"""The 2023 edition's own kinds."""
