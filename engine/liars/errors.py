"""Rule errors of the Liars Edition only: the investigation card, its Liar! window, the
accusation at the start of a turn."""

from __future__ import annotations

from engine.errors import RuleError, kinds_in


class AccuseAtStart(RuleError, code="accuse_at_start"):
    """Liars Edition: an accusation is made at the start of a turn, before rolling."""


class NoInvestigationCard(RuleError, code="no_investigation_card"):
    """Not now: the card is played once a turn, after moving, by a player with evidence."""


class NotThatAction(RuleError, code="not_that_action"):
    """A truth card is read as it is: its own action only."""


class NotYourCall(RuleError, code="not_your_call"):
    """Only another player still in the game may call Liar!, while the window is open."""


class NotYourChoice(RuleError, code="not_your_choice"):
    """No card (or room, or player) is asked of you now."""


class InvestigationPending(RuleError, code="investigation_pending"):
    """The others still answer the investigation card (Liar!, a card face up, passes)."""


class InvestigationFirst(RuleError, code="investigation_first"):
    """The investigation card is a step of every turn: play it before ending the turn
    (skipped only with no evidence cards in hand)."""


class NoCardsToPeek(RuleError, code="no_cards_to_peek"):
    """The chosen player holds no evidence card (or is the reader)."""


LIARS_ERRORS: tuple[type[RuleError], ...] = kinds_in(__name__, globals())
"""The Liars Edition's own kinds."""
