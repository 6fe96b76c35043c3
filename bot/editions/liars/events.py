"""The Liars Edition's events in private: the investigation cards dealt and drawn, the
random card shown for a true card, the liar's and the passers' choices, a peek, and every
hand change told to its holder. What a turn tells the group is on its card (`lines`).

Secrecy: whether a card was a lie is told only when someone calls Liar!; a drawn card,
a random card shown, a passed or peeked card go only to those who may see them (a card
put face up is public, as on the board)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons, Handler, Plan, board_args, user_at
from bot.announce.table_turns import announce_board, told_on_card
from bot.payload import Card, Cards, Span, User
from engine import events as ev
from engine.events import Event
from engine.liars import events as lev
from engine.liars.cards import LIE
from engine.liars.queries import current_play, waiting_passers
from engine.liars.state import LIAR_EXPOSE, LIAR_PASSING, Stage, liars_of, liars_part
from engine.state import Game

LIAR = "lr"  # the group's Liar! button: lr:game:turn
EXPOSE = "le"  # a caught liar's card to put face up: le:game:turn:card index
PASS = "lp"  # a card to pass left: lp:game:turn:card index


def card_text(card: str) -> dict[str, Any]:
    """An investigation card as a message names it (its own catalog text)."""
    return {"t": f"liars.card.{card}"}


def _card_buttons(
    game_id: int, game: Game, kind: str, turn: int, cards: tuple[str, ...]
) -> Buttons:
    return [
        [
            {
                "card": card,
                "data": cb.Callback(
                    kind, game_id, (str(turn), str(game.deck.index(card)))
                ).encode(),
            }
        ]
        for card in cards
    ]


def _hand_changed(plan: Plan, seq: int, game: Game, seat: int, name: str) -> None:
    """The holder's hand, told again after it changed."""
    player = game.players[seat]
    plan.private(
        plan.key(seq, f"{name}{seat}"),
        player.user,
        "dm.liars_hand",
        {"hand": Cards(player.hand)},
    )


def investigation_dealt(
    plan: Plan, seq: int, e: lev.InvestigationDealt, before: Game | None, after: Game
) -> None:
    """Each player's investigation card, to them alone."""
    for seat, card in enumerate(e.held):
        plan.private(
            plan.key(seq, f"inv{seat}"),
            user_at(after, seat),
            "dm.liars_card",
            {"card": card_text(card)},
        )


def liar_called(plan: Plan, seq: int, e: lev.LiarCalled, before: Game | None, after: Game) -> None:
    """A lie caught: the liar chooses, in private, the card to put face up (the turn's card
    tells the call)."""
    play = current_play(plan.ctx.after)
    if e.lie and play is not None and play.turn == e.turn and play.stage is Stage.EXPOSE:
        reader = after.players[e.reader]
        plan.private(
            plan.key(seq, "expose"),
            reader.user,
            "dm.liars_expose",
            {"time": Span.of(after.settings.refute_time)},
            buttons=_card_buttons(plan.ctx.game_id, after, EXPOSE, e.turn, reader.hand),
            clock=(LIAR_EXPOSE, e.turn),
        )


def truth_shown(plan: Plan, seq: int, e: lev.TruthShown, before: Game | None, after: Game) -> None:
    """The presser's random card: to the reader, and the presser learns which one went."""
    caller, reader = user_at(after, e.seat), user_at(after, e.reader)
    if e.card is None:
        plan.private(plan.key(seq, "none"), reader, "dm.liars_truth_none", {"caller": User(caller)})
        return
    plan.private(
        plan.key(seq, "shown"),
        reader,
        "dm.liars_truth_shown",
        {"caller": User(caller), "shown": Card(e.card)},
    )
    plan.private(
        plan.key(seq, "showed"),
        caller,
        "dm.liars_you_showed",
        {"player": User(reader), "shown": Card(e.card)},
    )


def card_exposed(
    plan: Plan, seq: int, e: lev.CardExposed, before: Game | None, after: Game
) -> None:
    """The liar's hand told again (the turn's card shows the card face up)."""
    _hand_changed(plan, seq, after, e.seat, "hand")


def action_begun(
    plan: Plan, seq: int, e: lev.ActionBegun, before: Game | None, after: Game
) -> None:
    """Everyone's pass: each passer is asked privately with their own cards as buttons (the
    turn's card tells what the action asks)."""
    if e.stage is not Stage.PASSING:
        return
    time = Span.of(after.settings.refute_time)
    final = plan.ctx.after
    waiting = set(waiting_passers(final))
    count = len(after.players)
    for seat in e.passers:
        if seat not in waiting:
            continue  # answered by the GM in this command
        player = after.players[seat]
        plan.private(
            plan.key(seq, f"pass{seat}"),
            player.user,
            "dm.liars_pass",
            {"left": User(user_at(after, (seat + 1) % count)), "time": time},
            buttons=_card_buttons(plan.ctx.game_id, after, PASS, e.turn, player.hand),
            clock=(LIAR_PASSING, e.turn),  # the first passer's delivery starts everyone's
        )


def investigation_drawn(
    plan: Plan, seq: int, e: lev.InvestigationDrawn, before: Game | None, after: Game
) -> None:
    plan.private(
        plan.key(seq, "drawn"),
        user_at(after, e.seat),
        "dm.liars_drawn",
        {"card": card_text(e.card), "reshuffled": e.reshuffled is not None},
    )


def pass_chosen(plan: Plan, seq: int, e: lev.PassChosen, before: Game | None, after: Game) -> None:
    left = User(user_at(after, (e.seat + 1) % len(after.players)))
    key = "dm.liars_pass_gm" if e.by_gm else "dm.liars_pass_chosen"
    plan.private(
        plan.key(seq, "chosen"), user_at(after, e.seat), key, {"card": Card(e.card), "left": left}
    )


def cards_passed(
    plan: Plan, seq: int, e: lev.CardsPassed, before: Game | None, after: Game
) -> None:
    """Each player privately what they received and their hand now (everyone who gave or
    received); the turn's card tells the group the passes are done."""
    received = {to: (giver, card) for giver, to, card in e.moves}
    touched = sorted({s for s, _, _ in e.moves} | set(received))
    for seat in touched:
        player = after.players[seat]
        if seat in received:
            giver, card = received[seat]
            args = {
                "giver": User(user_at(after, giver)),
                "card": Card(card),
                "hand": Cards(player.hand),
            }
            plan.private(plan.key(seq, f"got{seat}"), player.user, "dm.liars_received", args)
        else:
            _hand_changed(plan, seq, after, seat, "hand")


def peeked(plan: Plan, seq: int, e: lev.Peeked, before: Game | None, after: Game) -> None:
    """The cards to the peeker alone (the turn's card tells whose, and how many)."""
    target = User(user_at(after, e.target))
    plan.private(
        plan.key(seq, "peekdm"),
        user_at(after, e.seat),
        "dm.liars_peeked",
        {"target": target, "cards": Cards(e.cards)},
    )


def liars_board(game: Game) -> Args:
    """What a post's picture shows: the ring's tokens and weapons, and the cards lying face
    up in the Interrogation Room."""
    table = game.table
    assert table is not None
    if liars_of(table) is None:
        return board_args(game)
    return {**board_args(game), "face_up": list(liars_part(table).face_up)}


def board_set_up(plan: Plan, seq: int, e: ev.BoardSetUp, before: Game | None, after: Game) -> None:
    """The ring's first picture, in the edition's words."""
    announce_board(plan, seq, after, "liars.board")


LIARS_EVENT_HANDLERS: Mapping[type[Event], Handler] = MappingProxyType(
    {
        ev.BoardSetUp: board_set_up,
        lev.InvestigationDealt: investigation_dealt,
        lev.InvestigationRead: told_on_card,
        lev.LiarCalled: liar_called,
        lev.TruthShown: truth_shown,
        lev.CardExposed: card_exposed,
        lev.NoLiarCalled: told_on_card,
        lev.ActionBegun: action_begun,
        lev.InvestigationDrawn: investigation_drawn,
        lev.PassChosen: pass_chosen,
        lev.CardsPassed: cards_passed,
        lev.Peeked: peeked,
        lev.MovedAnywhere: told_on_card,
        lev.LiarsTimerRenewed: told_on_card,
    }
)
__all__ = ["EXPOSE", "LIAR", "LIARS_EVENT_HANDLERS", "LIE", "PASS"]
