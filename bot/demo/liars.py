"""The Liars Edition's own moves as people make them, besides its turn prompt's (which the
table's hands press): Liar! pressed in the group, a card to pass left or to put face up
pressed in private (bot/handlers/liars_presses.py)."""

from __future__ import annotations

from bot import callbacks as cb
from bot.demo.scene import Scene
from bot.demo.table import TableHands
from bot.editions.liars.events import EXPOSE, LIAR, PASS
from engine import commands as cmd
from engine.format import format_of
from engine.liars import commands as lcmd
from engine.state import Game
from engine.table.queries import table_of
from fakebot import FakeUser


class LiarsHands(TableHands):
    """A Liars Edition game's moves."""

    async def perform(self, scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> bool:
        if not format_of(game).plays_turns(game):
            return False
        turn = str(table_of(game).turn)
        if isinstance(move, lcmd.CallLiar):

            def liar(data: cb.Callback) -> bool:
                return data.kind == LIAR and data.game == scene.game_id and data.args == (turn,)

            found = await scene.group_button(liar)
        elif isinstance(move, lcmd.PassCard | lcmd.ExposeCard):
            kind = PASS if isinstance(move, lcmd.PassCard) else EXPOSE
            args = (turn, str(game.deck.index(move.card)))

            def card(data: cb.Callback) -> bool:
                return data.kind == kind and data.game == scene.game_id and data.args == args

            found = await scene.private_button(person, card)
        else:
            return await super().perform(scene, person, move, game)
        if found is None:
            return False
        await scene.press(person, found)
        return True
