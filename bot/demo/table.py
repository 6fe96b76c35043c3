"""A table game's moves as people make them (the classic edition, and any table edition
whose turn prompt names its moves): the current player's presses on the turn prompt in the
group, the suspect and weapon picked in the prompt's composer, the refuter's card pressed
in private, an accusation composed in private from the prompt's Accuse button."""

from __future__ import annotations

import random

from bot import callbacks as cb
from bot.demo.hands import Hands, accuse_in_composer
from bot.demo.scene import Found, Scene
from bot.editions.registry import edition_of
from engine import commands as cmd
from engine.cards import Category
from engine.state import Game
from fakebot import FakeUser

SUGGEST, ACCUSE = "s", "a"  # the prompt's actions the bot handles itself (bot.handlers.table)


class TableHands(Hands):
    """A table game's moves."""

    async def begin(self, scene: Scene, host: FakeUser) -> None:
        """The board in words, not as a picture: a terminal shows no pictures."""
        await scene.say(host, "/settings images off")

    async def perform(self, scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> bool:
        if isinstance(move, cmd.ShowCard):
            return await _show(scene, person, move, game)
        if isinstance(move, cmd.Suggest):
            return await _suggest(scene, person, move, game)
        if isinstance(move, cmd.Accuse):
            found = _prompt_button(scene, game, (ACCUSE,))
            if found is None:
                return False
            await scene.press(person, found)
            return await accuse_in_composer(scene, person, move, game)
        found = _pressed_for(scene, person, move, game)
        if found is None:
            return False
        await scene.press(person, found)
        return True


def _prompt_button(scene: Scene, game: Game, action: tuple[str, ...]) -> Found | None:
    """The turn prompt's button for `action` in this turn."""
    assert game.table is not None
    turn = str(game.table.turn)

    def wanted(data: cb.Callback) -> bool:
        return data.kind == cb.TURN and data.game == scene.game_id and data.args == (turn, *action)

    return scene.group_button(wanted)


def _pressed_for(scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> Found | None:
    """The prompt's button whose press is `move`, as the edition's prompt reads it. A move
    to a corridor square the prompt does not offer (it offers the rooms in reach and a step
    towards each other room; a novice may pick any square) becomes one of the moves it
    offers, drawn by the game's seed."""
    offered = _prompt_moves(scene, person, game)
    exact = [found for found, command in offered if command == move]
    if exact or not isinstance(move, cmd.Move):
        return exact[0] if exact else None
    moves = [found for found, command in offered if isinstance(command, cmd.Move)]
    assert game.table is not None
    return random.Random(f"{game.seed}:{game.table.turn}").choice(moves) if moves else None


def _prompt_moves(scene: Scene, person: FakeUser, game: Game) -> list[tuple[Found, cmd.Command]]:
    """The turn prompt's buttons (but Suggest and Accuse) and the command of each."""
    prompt = edition_of(game).prompt
    if prompt is None or game.table is None:
        return []
    turn = str(game.table.turn)

    def on_prompt(data: cb.Callback) -> bool:
        return (
            data.kind == cb.TURN
            and data.game == scene.game_id
            and len(data.args) == 2
            and data.args[0] == turn
            and data.args[1] not in (SUGGEST, ACCUSE)
        )

    offered = []
    for found in scene.group_buttons(on_prompt):
        parsed = cb.parse(found.data)
        assert parsed is not None
        try:
            command = prompt.press(game, person.id, parsed.args[1])
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
        found = _prompt_button(scene, game, action)
        if found is None:
            return False
        await scene.press(person, found)
    return True


async def _show(scene: Scene, person: FakeUser, move: cmd.ShowCard, game: Game) -> bool:
    """The refuter's card, pressed in their private chat."""
    pending = game.table.pending if game.table is not None else None
    if pending is None:
        return False
    args = (str(pending.number), str(game.deck.index(move.card)))

    def wanted(data: cb.Callback) -> bool:
        return data.kind == cb.SHOW and data.game == scene.game_id and data.args == args

    found = scene.private_button(person, wanted)
    if found is None:
        return False
    await scene.press(person, found)
    return True
