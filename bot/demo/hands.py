"""How a person makes a computer detective's move in the bot's own interface: the base of
each edition's hands (bot/demo/forum.py, bot/demo/table.py), and the private accusation
composer that the forum and the table share."""

from __future__ import annotations

from bot import callbacks as cb
from bot.demo.scene import Found, Scene, Wanted
from engine import commands as cmd
from engine.cards import CATEGORY_ORDER
from engine.state import Game
from fakebot import FakeUser


class Hands:
    """One edition's way of turning an engine command into a person's typing and presses.
    `perform` answers False when the person sees no way to make the move."""

    async def begin(self, scene: Scene, host: FakeUser) -> None:
        """What the host sets in the group before opening the lobby (nothing by default)."""

    async def perform(self, scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> bool:
        raise NotImplementedError


async def accuse_in_composer(scene: Scene, person: FakeUser, move: cmd.Accuse, game: Game) -> bool:
    """The private accusation composer, open in `person`'s chat: suspect, weapon, place,
    then "Yes, I accuse"."""
    picks: list[str] = []
    chosen = (move.suspect, move.weapon, move.place)
    composer: Found | None = None
    for category, card in zip(CATEGORY_ORDER, chosen, strict=True):
        index = str(game.in_play(category).index(card))
        wanted = (*picks, index)
        found = await scene.private_button(person, _accuse(scene.game_id, cb.ACCUSE, wanted))
        if found is None:
            return False
        composer = found
        await scene.press(person, found)
        picks.append(index)
    assert composer is not None
    confirm = _accuse(scene.game_id, cb.ACCUSE_SEND, tuple(picks))
    send = await scene.button_in(composer.message, confirm)
    if send is None:
        return False
    await scene.press(person, send)
    return True


def _accuse(game_id: int, kind: str, args: tuple[str, ...]) -> Wanted:
    def wanted(data: cb.Callback) -> bool:
        return data.kind == kind and data.game == game_id and data.args == args

    return wanted
