"""A Liars Edition game played through the fake Bot API by pressing the bot's buttons:
the turn prompt and Liar! in the group, a card face up or passed in private."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from engine.liars.cards import LIARS_PACK
from engine.liars.state import Stage, liars_of, liars_part
from engine.state import Game
from engine.table.state import Step
from fakebot import FakeMessage, FakeUser
from tests.support.catalogs import literal
from tests.support.harness import bot_messages
from tests.support.table_play import TablePlayer, button, prompt, prompt_by_id


@dataclass
class LiarsSeen:
    """The scenarios a played game went through."""

    truth_called: list[tuple[int, int, str]] = field(default_factory=list)  # caller, reader, card
    lies_caught: list[tuple[int, str]] = field(default_factory=list)  # liar, card face up
    lies_uncalled: list[tuple[int, str]] = field(default_factory=list)  # reader, action
    passes: int = 0
    peeks: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    free_moves: int = 0


class LiarsPlayer(TablePlayer):
    """Plays whole turns by buttons; what the investigation card does is chosen to go
    through every scenario the tests need."""

    liars_seen: LiarsSeen

    def __post_init_liars(self) -> None:
        self.liars_seen = LiarsSeen()

    def user(self, seat: int, game: Game) -> FakeUser:
        return self.people[game.players[seat].user]

    async def turn(self) -> None:
        """Roll, then move (go to a room, or stay), suggest, play the card, end the turn."""
        if not hasattr(self, "liars_seen"):
            self.__post_init_liars()
        game = await self.game()
        assert game.table is not None
        who = self.user(game.table.current, game)
        await self.press(who, prompt(self.table), self.label("button.roll"))
        message = prompt(self.table)
        if game.table.turn % 3 == 0:
            choice = button(message, "🚪")
            assert choice is not None, message.buttons
            await self.press(who, message, choice)
        else:
            await self.press(who, message, self.label("button.stay_here"))
        await self.suggest(who)
        await self.investigate(who)
        game = await self.game()
        if game.running and game.table is not None and self.user(game.table.current, game) is who:
            await self.press(who, prompt(self.table), self.label("button.end_turn"))

    async def suggest(self, who: FakeUser) -> None:
        message = prompt(self.table)
        if button(message, self.label("button.suggest")) is None:
            return
        game = await self.game()
        me = game.player_of(who.id)
        assert me is not None
        left = game.players[(me.seat + 1) % len(game.players)]
        suspect = next((s for s in LIARS_PACK.suspects if s in left.hand), "plum")
        weapon = next((w for w in LIARS_PACK.weapons if w not in left.hand), "statue")
        await self.press(who, message, self.label("button.suggest"))
        await self.press(who, prompt_by_id(self.table, message), self.card(suspect))
        await self.press(who, prompt_by_id(self.table, message), self.card(weapon))
        self.seen.suggestions += 1
        await self.refute()

    async def investigate(self, who: FakeUser) -> None:
        """Read the card: the first scenario not seen yet that this card allows."""
        game = await self.game()
        table = game.table
        assert table is not None and liars_of(table) is not None
        if table.step is Step.REFUTING or not game.running:
            return
        me = game.player_of(who.id)
        assert me is not None
        held = liars_part(table).held[me.seat]
        seen = self.liars_seen
        others = [p for p in game.players if p.seat != me.seat and game.can_accuse(p)]
        message = prompt(self.table)
        reads = {
            a: button(message, self.label(f"button.read_{a}")) for a in ("move", "pass", "peek")
        }
        if not any(reads.values()):
            return
        if held == "lie" and not seen.lies_caught and others:
            await self.press(who, message, reads["move"] or "")
            caller = self.people[others[0].user]
            await self.press(caller, self.liar_post(), self.label("button.liar"))
            ask = [m for m in who.private_messages() if m.buttons][-1]
            shown = ask.buttons[0][0][0]
            await self.press(who, ask, shown)
            seen.lies_caught.append((who.id, shown))
        elif held == "lie" and not seen.lies_uncalled:
            await self.press(who, message, reads["peek"] or "")
            await self.table.bot.advance(game.settings.liar_window + timedelta(seconds=1))
            await self.peek(who)
            seen.lies_uncalled.append((who.id, "peek"))
        elif held != "lie" and not seen.truth_called and others and held != "pass":
            await self.press(who, message, reads[held] or "")
            caller = self.people[others[-1].user]
            before = {p.id: len(p.private_messages()) for p in self.people.values()}
            await self.press(caller, self.liar_post(), self.label("button.liar"))
            after = await self.game()
            news = who.private_messages()[before[who.id] :]
            said = literal(self.lang, "dm.liars_truth_shown")
            truth = [m for m in news if said in m.text]
            assert truth, "the reader learns the presser's random card"
            card = next(c for c in LIARS_PACK.all_cards if self.card(c) in truth[0].text)
            seen.truth_called.append((caller.id, who.id, card))
            await self.finish_action(who, after)
        elif held in ("pass", "lie") and seen.passes < 1:
            await self.press(who, message, reads["pass"] or "")
            await self.table.bot.advance(game.settings.liar_window + timedelta(seconds=1))
            await self.pass_cards()
        else:  # a step of every turn: read it plainly, nobody calls
            await self.press(who, message, next(b for b in reads.values() if b))
            await self.table.bot.advance(game.settings.liar_window + timedelta(seconds=1))
            after = await self.game()
            play = liars_part(after.table).play if after.table and liars_of(after.table) else None
            if play is not None and play.stage is Stage.PASSING:
                await self.pass_cards()

    async def finish_action(self, who: FakeUser, game: Game) -> None:
        table = game.table
        play = liars_part(table).play
        assert play is not None
        stage = play.stage
        if stage is Stage.PEEK:
            await self.peek(who)
        elif stage is Stage.FREE_MOVE:
            message = prompt(self.table)
            choice = button(message, "🚪")
            assert choice is not None
            await self.press(who, message, choice)
            self.liars_seen.free_moves += 1
            await self.suggest(who)
        elif stage is Stage.PASSING:
            await self.pass_cards()

    async def peek(self, who: FakeUser) -> None:
        game = await self.game()
        message = prompt(self.table)
        me = game.player_of(who.id)
        assert me is not None
        target = game.players[(me.seat + 1) % len(game.players)]
        name = self.people[target.user].first_name
        await self.press(who, message, name)
        dm = who.private_messages()[-1]
        assert literal(self.lang, "dm.liars_peeked") in dm.text, dm.text
        cards = tuple(c for c in LIARS_PACK.all_cards if f"{self.card(c)}" in dm.text)
        self.liars_seen.peeks.append((who.id, cards))

    async def pass_cards(self) -> None:
        """Every asked player presses their first card in their private prompt."""
        game = await self.game()
        for player in game.players:
            person = self.people[player.user]
            asks = [m for m in person.private_messages() if _asks(m, "lp:")]
            if asks and player.hand:
                await self.press(person, asks[-1], asks[-1].buttons[0][0][0])
        self.liars_seen.passes += 1

    def liar_post(self) -> FakeMessage:
        return [m for m in bot_messages(self.table.group) if button(m, self.label("button.liar"))][
            -1
        ]


def _asks(message: FakeMessage, prefix: str) -> bool:
    """A private prompt whose buttons are of one kind (by their data)."""
    return any((data or "").startswith(prefix) for row in message.buttons for _, data in row)
