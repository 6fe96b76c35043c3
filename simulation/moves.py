"""Moves a program makes for a player: a suggestion naming cards in play, the honest answer to
one, and a card's name as a person types it in Telegram."""

from __future__ import annotations

from engine import commands as cmd
from engine.cards import CATEGORY_ORDER, Category
from engine.state import Game
from locales import t


def suggestion_for(state: Game, actor: int, target: int, n: int = 0) -> cmd.MakeSuggestion:
    """A suggestion naming cards in play, varied by n."""
    suspects = state.in_play(Category.SUSPECT)
    weapons = state.in_play(Category.WEAPON)
    places = state.in_play(Category.PLACE)
    return cmd.MakeSuggestion(
        actor=actor,
        target=target,
        suspect=suspects[n % len(suspects)],
        weapon=weapons[(n // 3) % len(weapons)],
        place=places[(n // 7) % len(places)],
    )


def answer_for(state: Game, suggestion_id: int) -> cmd.Command:
    """The target's honest answer to a suggestion."""
    s = state.suggestions[suggestion_id - 1]
    target = state.players[s.target]
    held = [card for card in s.cards if card in target.hand]
    if held:
        return cmd.Refute(actor=target.user, suggestion=s.id, card=held[0])
    return cmd.DeclareNoRefutation(actor=target.user, suggestion=s.id)


def card_name(card: str, language: str = "en") -> str:
    """A card's name in the language's catalog."""
    return t(language, f"card.{card}")


def naming(game: Game, held: str) -> tuple[str, str, str]:
    """A suggestion's cards: the first in play of each category, but `held` in its own."""
    suspect, weapon, place = (
        held if game.pack.category_of(held) is category else game.in_play(category)[0]
        for category in CATEGORY_ORDER
    )
    return suspect, weapon, place
