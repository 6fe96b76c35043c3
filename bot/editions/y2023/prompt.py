"""The 2023 edition's turn prompt: the classic's, with its own words where the turn
differs (every turn begins with the dice, and one accuses after the move, from a room; a
glass rolled offers the clue card once the token has moved); and the cards one has seen
besides one's hand, for /hand."""

from __future__ import annotations

from bot.announce.plan import Args
from bot.announce.table_prompt import ClassicPrompt
from engine.state import Game
from engine.table.queries import TurnOptions
from engine.y2023.queries import private_view
from engine.y2023.state import y2023_of


class Y2023Prompt(ClassicPrompt):
    def args(self, game: Game, options: TurnOptions) -> tuple[str, Args]:
        msg, args = super().args(game, options)
        if options.can_draw_clue:
            return "y2023.prompt_glass", args
        if options.can_roll:  # an accusation comes after the move, from a room
            return ("y2023.prompt_roll_room" if args["where"] else "y2023.prompt_roll"), args
        return msg, args


def also_seen(game: Game, seat: int) -> tuple[str, ...]:
    """The cards besides one's hand one has seen outside suggestions (cards looked at in
    rooms, shown by clue cards, face up, revealed to all)."""
    if game.table is None or y2023_of(game.table) is None:
        return ()
    view = private_view(game, seat)
    extra = (*(card for _, card in view.peeked), *view.clue_shown, *view.face_up, *view.revealed)
    return tuple(dict.fromkeys(card for card in extra if card not in view.hand))
