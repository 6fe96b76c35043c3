"""Away players, standing answers, the daily digest and prods, through the fake Bot API:
what the thread and each private chat show, across a restart and the bot's own downtime."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from engine.cards import CATEGORY_ORDER
from engine.rules import gm_choice
from engine.state import Game, Player
from fakebot import FakeUser
from locales import t
from tests.support.harness import BotHarness, Clock, Party, bot_messages, database_url
from tests.support.play import card_name, naming, open_and_start, state
from tests.support.views import print_views


def _typed(cards: tuple[str, str, str]) -> str:
    return "; ".join(card_name(c) for c in cards)


def _seat(game: Game, person: FakeUser) -> Player:
    player = game.player_of(person.id)
    assert player is not None
    return player


SEED = 1


def _two_kinds(game: Game, player: Player) -> tuple[str, str, str] | None:
    """Suspect, weapon, place naming two of the player's cards of different kinds (the
    third not theirs), or None."""
    held = {game.pack.category_of(c): c for c in player.hand}
    if len(held) < 2:
        return None
    kinds = list(held)[:2]
    out = []
    for category in CATEGORY_ORDER:
        if category in kinds:
            out.append(held[category])
        else:
            out.append(next(c for c in game.in_play(category) if c not in player.hand))
    return (out[0], out[1], out[2])


def _said(person: FakeUser) -> list[str]:
    """A person's private messages, without the line naming the game's chat."""
    return [m.text.removeprefix("🎲 Cluedo club\n") for m in person.private_messages()]


def _group_texts(table: Party) -> list[str]:
    return [m.text for m in bot_messages(table.group)]


async def test_away_is_answered_at_once_a_standing_answer_is_shown_and_the_day_is_digested(
    table: Party,
) -> None:
    table.bot.seed = SEED  # a fixed deal: a random one may give Dave and Alice one kind each
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = _seat(game, table.carol)
    assert game.day_ends_at is not None
    day_ends = game.day_ends_at

    # Carol will be away for a day and a half: the thread hears "away until", no reason.
    await table.bot.say(table.carol, None, "/away 36h")
    announced = _group_texts(table)[-1]
    assert announced.startswith("🏖 @carol is away until ")
    assert "The GM answers for them meanwhile." in announced
    assert _said(table.carol)[-1].startswith("🏖 You are away until ")
    until = _seat(await state(table, game_id), table.carol).away_until
    assert until is not None

    # Bob asks Carol about one of her cards: the GM answers at once, and no penalty follows.
    named = naming(game, carol.hand[0])
    prompts_before = len(table.carol.private_messages())
    await table.bot.say(table.bob, table.group, f"/suggest @carol {_typed(named)}")
    shown = gm_choice(carol.hand, named)
    assert shown is not None
    told = _said(table.bob)[-1]
    assert told.startswith(f"🔍 The GM shows you {card_name(shown)} from the hand of @carol")
    said = _said(table.carol)[prompts_before:]
    assert said == [
        f"🏖 You are away, so the GM showed {card_name(shown)} for you to @bob (suggestion 1)."
        " No penalty."
    ]  # no answer prompt to wait on

    # A fourth away day is refused, and Carol's time stays as it was.
    await table.bot.say(table.carol, None, "/away 3d")
    assert _said(table.carol)[-1] == t("en", "error.away_limit", limit=3, left=2)
    assert _seat(await state(table, game_id), table.carol).away_until == until

    # Someone with two cards of different kinds chooses the later one as a standing answer.
    chooser, cards = next(
        (person, triple)
        for person in (table.dave, table.alice)
        if (triple := _two_kinds(game, _seat(game, person))) is not None
    )
    asker = table.alice if chooser is table.dave else table.dave
    mine = [c for c in cards if c in _seat(game, chooser).hand]
    await table.bot.say(chooser, None, f"/standing {card_name(mine[1])}")
    assert _said(chooser)[-1].startswith(f"📌 Your standing answer: {card_name(mine[1])}.")
    await table.bot.say(chooser, None, "/hand")
    assert f"• Standing answer: {card_name(mine[1])}" in _said(chooser)[-1]

    # The chooser is asked and stays silent: at the day's end the GM shows their choice.
    await table.bot.say(asker, table.group, f"/suggest @{chooser.username} {_typed(cards)}")

    # Bob asks Alice late in the day (her answer falls due after its end) and she is silent.
    await table.bot.advance(day_ends - timedelta(hours=1) - table.bot.clock.now())
    alice = _seat(game, table.alice)
    late = naming(game, alice.hand[0])
    await table.bot.say(table.bob, table.group, f"/suggest @alice {_typed(late)}")
    await table.bot.advance(day_ends - table.bot.clock.now() + timedelta(seconds=1))
    standing = (
        f"🔍 The GM shows you {card_name(mine[1])} from the hand of @{chooser.username},"
        f" as @{chooser.username} chose in advance"
    )
    assert [m for m in _said(asker) if m.startswith("🔍")] == [f"{standing} (your suggestion 1)."]

    # The digest of day 1, in the day's end post, which opens day 2 too: the GM's answer
    # for the chooser, the digest, and the new day with the chooser's penalty.
    end = next(m.text for m in bot_messages(table.group) if m.text.startswith("🌙 Day 1"))
    lines = end.splitlines()
    assert lines[1] == (
        f"✅ The GM refuted @{asker.username}'s suggestion 1 for @{chooser.username}."
    )
    made = {table.bob.id: 2, asker.id: 1}
    facts: dict[int, list[str]] = {table.alice.id: ["owes 1 answer"]}  # in the digest's order
    facts[table.carol.id] = ["1 answer given by the GM with no penalty"]
    for player in game.players:
        person = next(p for p in table.players if p.id == player.user)
        line = next(x for x in lines if x.startswith(f"@{person.username}: "))
        parts = line.removeprefix(f"@{person.username}: ").split(" · ")
        assert parts[0] == f"{made.get(person.id, 0)} of 3 suggestions"
        expected = facts.get(person.id, [])
        if person is table.carol:
            assert parts[1:-1] == expected and parts[-1].startswith("away until ")
        else:
            assert parts[1:] == expected, line
    assert lines[-2].startswith("☀️ Day 2 begins. It ends ")
    assert lines[-1] == f"@{chooser.username} has 1 suggestion fewer today for a missed answer."
    assert "The next day lasts" not in end  # the opening says when it ends
    print_views("away, a standing answer and the digest", [table.group], table.players)


async def test_prods_and_the_call_for_a_replacement_fire_once_across_restarts_and_downtime(
    table: Party, tmp_path: Path
) -> None:
    await table.bot.say(table.alice, table.group, "/settings replacement_after 2")
    game_id = await open_and_start(table)
    active = (table.alice, table.bob, table.carol)

    async def a_day_without_dave() -> None:
        """Alice, Bob and Carol each make a suggestion (answered at once); Dave is silent."""
        game = await state(table, game_id)
        for asker, target in zip(active, (table.bob, table.carol, table.alice), strict=True):
            cards = _none_held(game, _seat(game, target))
            await table.bot.say(asker, table.group, f"/suggest @{target.username} {_typed(cards)}")
        assert game.day_ends_at is not None
        await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))

    def prods() -> list[str]:
        return [m for m in _said(table.dave) if m.startswith("👋 You")]

    def calls() -> list[str]:
        return [x for x in _group_texts(table) if "A replacement is wanted" in x]

    await a_day_without_dave()
    assert prods() == [t("en", "dm.prod", count=1, days=1, away_left=3)]
    assert calls() == []
    for person in active:  # they moved: no reminder
        assert not any(m.startswith("👋 You") for m in _said(person))

    await table.bot.stop()  # a restart between the days loses and repeats nothing
    table.bot = BotHarness(table.server, database_url(tmp_path), Clock(table.bot.clock.now()))
    await table.bot.start()

    await a_day_without_dave()
    assert len(prods()) == 2 and prods()[-1].startswith("👋 You have made no move for 2 days")
    (call,) = calls()  # in the post of day 2's end and day 3's opening, its button under it
    assert call.startswith("🌙 Day 2 is over.") and "☀️ Day 3 begins." in call
    assert call.splitlines()[-1].startswith("🪑 @dave has made no move for 2 days.")
    wanted = next(m for m in bot_messages(table.group) if "A replacement is wanted" in m.text)
    before = len(bot_messages(table.group))
    refused = await table.bot.press(table.bob, wanted, t("en", "button.find_replacement"))
    assert refused.text == t("en", "error.admin_only") and refused.show_alert
    assert len(bot_messages(table.group)) == before
    await table.bot.press(table.alice, wanted, t("en", "button.find_replacement"))
    how = _group_texts(table)[-1]
    assert how.startswith("@alice: to hand @dave's seat to someone, send /replace")

    # Day 3 ends while the bot is down: nobody is counted silent for it.
    game = await state(table, game_id)
    assert game.day_ends_at is not None
    table.bot.clock.moment = game.day_ends_at + timedelta(hours=1)
    await table.bot.scheduler.sweep()
    await table.bot.settle()
    assert (await state(table, game_id)).day == 4
    assert len(prods()) == 2 and len(calls()) == 1

    await a_day_without_dave()  # day 4: the third silent day counted, no second call
    assert len(prods()) == 3 and prods()[-1].startswith("👋 You have made no move for 3 days")
    assert len(calls()) == 1
    print_views("prods and the call for a replacement", [table.group], table.players)


def _none_held(game: Game, target: Player) -> tuple[str, str, str]:
    """A suggestion the target can refute with none of their cards (answered at once)."""
    s, w, p = (
        next(c for c in game.in_play(category) if c not in target.hand)
        for category in CATEGORY_ORDER
    )
    return s, w, p


async def test_back_early_is_told_in_the_thread_and_to_the_player(table: Party) -> None:
    """/back is answered where it was typed (with the days given back), and the thread hears
    who is back; a second /back is refused."""
    game_id = await open_and_start(table)
    await table.bot.say(table.carol, None, "/away 2d")
    await table.bot.say(table.carol, None, "/back")
    assert _group_texts(table)[-1] == "👋 @carol is back."
    carol = _seat(await state(table, game_id), table.carol)
    assert carol.away_until is None
    limit = (await state(table, game_id)).settings.away_days
    assert _said(table.carol)[-1] == t("en", "dm.back", days=carol.away_days, limit=limit)
    assert carol.away_days < 2  # the days not begun are given back
    await table.bot.say(table.carol, None, "/back")
    assert _said(table.carol)[-1] == t("en", "error.not_away")
