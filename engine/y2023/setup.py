"""The 2023 edition's setup: the envelope, the deal, a weapon in each of six rooms, the
clue deck shuffled, and the first turn to the highest roll of one die.

The deal, as the rulebook says: "Disdonu ĉiujn kartojn al la ludantoj" — with three or
more players all 18 cards left after the envelope are dealt (some get one more), none is
put in a room. The paragraph about four cards lying face down in rooms ("la alia
ludanto": the other player) belongs to the two-player game, whose section is cut off in
our copy: two players get four cards face down in four rooms and the other 14 dealt,
seven each; a player who enters such a room looks at its card privately. No card is ever
face up (`face_up` stays empty; it is read only from games stored before this).
"""

from __future__ import annotations

import random
from datetime import datetime

from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.decision import Decision
from engine.ids import Seat
from engine.lobby import deal_roles
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.board import Y2023_BOARD
from engine.y2023.cards import CLUE_DECK, PLACED_IN_ROOMS, TWO_PLAYERS, Y2023


def first_player(rolls: tuple[tuple[Seat, int], ...], seats: int) -> tuple[Seat, int]:
    """Who rolled highest, and their last roll, read back from the rolls in order (each
    round is everyone still tied on the highest roll)."""
    rolling = list(range(seats))
    at = 0
    while len(rolling) > 1:
        these = rolls[at : at + len(rolling)]
        at += len(rolling)
        top = max(value for _, value in these)
        rolling = [seat for seat, value in these if value == top]
    return rolling[0], next(value for seat, value in reversed(rolls) if seat == rolling[0])


def first_rolls(seats: int, rng: random.Random) -> tuple[tuple[Seat, int], ...]:
    """Everyone rolls one die; those tied on the highest roll again until one is highest.
    The rolls in order (`first_player` reads the winner back from them)."""
    rolls: list[tuple[Seat, int]] = []
    rolling = list(range(seats))
    while len(rolling) > 1:
        these = [(seat, rng.randint(1, 6)) for seat in rolling]
        rolls.extend(these)
        top = max(value for _, value in these)
        rolling = [seat for seat, value in these if value == top]
    return tuple(rolls)


def placed_in_rooms(players: int) -> int:
    """How many cards lie face down in rooms: four in the two-player game, else none."""
    return PLACED_IN_ROOMS if players == TWO_PLAYERS else 0


def start_2023(decision: Decision, rng: random.Random, now: datetime) -> None:
    """Deal and set the table up from the game's seed, then the first turn."""
    game: Game = decision.state
    order = {card: i for i, card in enumerate(Y2023.all_cards)}
    deck = Y2023.all_cards
    envelope = tuple(rng.choice(Y2023.cards_of(category)) for category in CATEGORY_ORDER)
    rest = [card for card in deck if card not in envelope]
    rng.shuffle(rest)
    players = len(game.lobby)
    placing = placed_in_rooms(players)
    placed_cards, rest = rest[:placing], rest[placing:]
    hands = [tuple(sorted(rest[i::players], key=order.__getitem__)) for i in range(players)]
    roles = deal_roles(game.lobby, list(Y2023.suspects), rng, order)
    decision.emit(
        ev.GameStarted(
            at=now,
            deck=deck,
            envelope=(envelope[0], envelope[1], envelope[2]),
            seats=tuple(
                ev.Deal(user=entry.user, role=role, hand=hand)
                for entry, role, hand in zip(game.lobby, roles, hands, strict=True)
            ),
        )
    )
    board = Y2023_BOARD
    weapon_rooms = rng.sample(board.rooms, len(Y2023.weapons))
    decision.emit(
        ev.BoardSetUp(
            at=now,
            board=board.key,
            tokens=tuple((s, board.starts[s]) for s in Y2023.suspects),
            weapons=tuple(zip(Y2023.weapons, weapon_rooms, strict=True)),
        )
    )
    # four rooms are drawn whatever the deal, so a seed sets up the same clue deck and
    # first roll with any number of players
    rooms = rng.sample(board.rooms, PLACED_IN_ROOMS)[:placing]
    clues = [clue.id for clue in CLUE_DECK]
    rng.shuffle(clues)
    rolls = first_rolls(players, rng)
    first, _ = first_player(rolls, players)  # the one the setup post announces
    decision.emit(
        yev.EditionSetUp(
            at=now,
            placed=tuple(zip(rooms, placed_cards, strict=True)),
            face_up=(),
            clues=tuple(clues),
            first_rolls=rolls,
        )
    )
    due = now + decision.state.settings.turn_time
    decision.emit(ev.TurnStarted(at=now, turn=1, seat=first, due=due))
