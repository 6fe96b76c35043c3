"""The forum format's moves as people make them: a suggestion typed in the group
(`/suggest @bob Suspect; Weapon; Place`), the card pressed in the private answer prompt (or
"No refutation"), an accusation composed in private after `/accuse`."""

from __future__ import annotations

from bot import callbacks as cb
from bot.demo.hands import Hands, accuse_in_composer
from bot.demo.scene import Scene
from engine import commands as cmd
from engine.state import Game
from fakebot import FakeUser


class ForumHands(Hands):
    """A forum game's moves."""

    async def perform(self, scene: Scene, person: FakeUser, move: cmd.Command, game: Game) -> bool:
        if isinstance(move, cmd.MakeSuggestion):
            target = scene.person(move.target)
            cards = "; ".join(scene.card(c) for c in (move.suspect, move.weapon, move.place))
            await scene.say(person, f"/suggest @{target.username} {cards}")
            return True
        if isinstance(move, cmd.Refute | cmd.DeclareNoRefutation):
            return await _answer(scene, person, move)
        if isinstance(move, cmd.Accuse):
            await scene.write(person, "/accuse")
            return await accuse_in_composer(scene, person, move, game)
        return False


async def _answer(
    scene: Scene, person: FakeUser, move: cmd.Refute | cmd.DeclareNoRefutation
) -> bool:
    """The button of the private answer prompt: the card shown, or "No refutation"."""
    number = str(move.suggestion)
    if isinstance(move, cmd.Refute):
        args: tuple[str, ...] = (number, move.card)
        kind = cb.REFUTE
    else:
        args, kind = (number,), cb.NO_REFUTATION

    def wanted(data: cb.Callback) -> bool:
        return data.kind == kind and data.game == scene.game_id and data.args == args

    found = await scene.private_button(person, wanted)
    if found is None:
        return False
    await scene.press(person, found)
    return True
