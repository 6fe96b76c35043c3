"""A table game's moves as people make them (the classic edition, and any table edition
whose turn prompt names its moves): the current player's presses on the turn prompt (in the
group or in their private chat: `Scene.turn_offer`), the suspect and weapon picked in the
prompt's composer, the refuter's card pressed in private, an accusation composed in private
from the prompt's Accuse button."""

from __future__ import annotations

import random
from typing import Any

from bot import callbacks as cb
from bot.announce.table_prompt import TurnPrompt
from bot.demo.hands import Hands, accuse_in_composer
from bot.demo.scene import Found, Scene
from engine import commands as cmd
from engine.cards import Category
from engine.format import format_of
from engine.state import Game
from engine.table.queries import pending_suggestion, table_of
from fakebot import FakeUser

SUGGEST, ACCUSE = "s", "a"  # the prompt's actions the bot handles itself (bot.handlers.table)


class TableHands(Hands):
    """A table game's moves; with `pictures` False (the demo's) the host first turns the
    board pictures off."""

    def __init__(self, *, pictures: bool = False) -> None:
        self.pictures = pictures

    async def begin(self, scene: Scene, host: FakeUser) -> None:
        """The board in words, not as a picture: a terminal shows no pictures."""
        if not self.pictures:
            await scene.say(host, "/settings images off")

    async def perform(self, scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> bool:
        if isinstance(move, cmd.ShowCard):
            return await _show(scene, person, move, game)
        if isinstance(move, cmd.Suggest):
            return await _suggest(scene, person, move, game)
        if isinstance(move, cmd.Accuse):
            found = await _prompt_button(scene, person, game, (ACCUSE,))
            if found is None:
                return False
            await scene.press(person, found)
            return await accuse_in_composer(scene, person, move, game)
        prompt = scene.stage.services.presentations.edition_of(game).prompt
        found = await scene.turn_buttons(
            person,
            table_of(game).turn,
            lambda offer: _pressed_for(prompt, offer, person, move, game),
        )
        if found is None:
            return False
        await scene.press(person, found)
        return True


async def _prompt_button(
    scene: Scene, person: FakeUser, game: Game, action: tuple[str, ...]
) -> Found | None:
    """The turn prompt's button for `action` in this turn."""
    wanted = (str(table_of(game).turn), *action)

    def pick(offer: list[Found]) -> Found | None:
        return next((f for f in offer if _args(f) == wanted), None)

    return await scene.turn_buttons(person, table_of(game).turn, pick)


def _args(found: Found) -> tuple[str, ...]:
    parsed = cb.parse(found.data)
    return parsed.args if parsed is not None else ()


def _pressed_for(
    prompt: TurnPrompt[Any] | None,
    offer: list[Found],
    person: FakeUser,
    move: cmd.Command,
    game: Game,
) -> Found | None:
    """The prompt's button whose press is `move`, as the edition's prompt reads it. A move
    to a corridor square the prompt does not offer (it offers the rooms in reach and a step
    towards each other room; a novice may pick any square) becomes one of the moves it
    offers, drawn by the game's seed."""
    offered = _prompt_moves(prompt, offer, person, game)
    exact = [found for found, command in offered if command == move]
    if exact or not isinstance(move, cmd.Move):
        return exact[0] if exact else None
    moves = [found for found, command in offered if isinstance(command, cmd.Move)]
    return random.Random(f"{game.seed}:{table_of(game).turn}").choice(moves) if moves else None


def _prompt_moves(
    prompt: TurnPrompt[Any] | None, offer: list[Found], person: FakeUser, game: Game
) -> list[tuple[Found, cmd.Command]]:
    """The prompt's buttons (but Suggest and Accuse) and the command of each."""
    if prompt is None or not format_of(game).plays_turns(game):
        return []
    offered = []
    for found in offer:
        args = _args(found)
        if len(args) != 2 or args[1] in (SUGGEST, ACCUSE):
            continue
        try:
            command = prompt.press(game, person.id, args[1])
        except (ValueError, IndexError, KeyError):  # not a move this prompt reads
            continue
        if command is not None:
            offered.append((found, command))
    return offered


async def _suggest(scene: Scene, person: FakeUser, move: cmd.Suggest, game: Game) -> bool:
    """Suggest, then the suspect, then the weapon, in the prompt's own composer."""
    suspect = str(game.in_play(Category.SUSPECT).index(move.suspect))
    weapon = str(game.in_play(Category.WEAPON).index(move.weapon))
    for action in ((SUGGEST,), (SUGGEST, suspect), (SUGGEST, suspect, weapon)):
        found = await _prompt_button(scene, person, game, action)
        if found is None:
            return False
        await scene.press(person, found)
    return True


async def _show(scene: Scene, person: FakeUser, move: cmd.ShowCard, game: Game) -> bool:
    """The refuter's card, pressed in their private chat."""
    pending = pending_suggestion(game)
    if pending is None:
        return False
    args = (str(pending.number), str(game.deck.index(move.card)))

    def wanted(data: cb.Callback) -> bool:
        return data.kind == cb.SHOW and data.game == scene.game_id and data.args == args

    found = await scene.private_button(person, wanted)
    if found is None:
        return False
    await scene.press(person, found)
    return True
