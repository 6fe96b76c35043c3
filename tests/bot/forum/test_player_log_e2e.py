"""/log @player through the fake Bot API: the player's suggestions and how each was
answered, their answers to others' (that they showed a card, never which), their
accusation (never its cards); a clear answer for an unknown name or a non-player."""

from __future__ import annotations

from engine.cards import CATEGORY_ORDER, CardId
from engine.state import Game
from fakebot import FakeUser
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name, compose_accusation, open_and_start, state
from tests.support.views import print_views


def _asking(game: Game, target: int, held: CardId) -> tuple[CardId, CardId, CardId]:
    """Cards naming `held` (the target's) and, in the other categories, cards the target
    does not hold: the target has exactly one card to show."""
    player = game.player_of(target)
    assert player is not None
    found = [
        held
        if game.pack.category_of(held) is category
        else next(c for c in game.in_play(category) if c not in player.hand)
        for category in CATEGORY_ORDER
    ]
    return found[0], found[1], found[2]


def _nothing_of(game: Game, target: int) -> tuple[CardId, CardId, CardId]:
    player = game.player_of(target)
    assert player is not None
    s, w, p = (next(c for c in game.in_play(k) if c not in player.hand) for k in CATEGORY_ORDER)
    return s, w, p


async def _suggest(table: Party, who: FakeUser, target: FakeUser, cards: tuple[str, ...]) -> None:
    names = "; ".join(card_name(c) for c in cards)
    await table.bot.say(who, table.group, f"/suggest @{target.username} {names}")


async def _show(table: Party, who: FakeUser, card: CardId) -> None:
    prompt = await who.wait_private(lambda m: bool(m.buttons) and "Suggestion" in m.text)
    await table.bot.press(who, prompt, card_name(card))


async def test_log_of_a_player_shows_their_suggestions_and_answers_never_the_card(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    bob, carol = game.player_of(table.bob.id), game.player_of(table.carol.id)
    assert bob is not None and carol is not None
    to_carol = _asking(game, table.carol.id, carol.hand[0])
    await _suggest(table, table.bob, table.carol, to_carol)  # Carol shows her one card
    await _show(table, table.carol, carol.hand[0])
    to_bob = _asking(game, table.bob.id, bob.hand[0])
    await _suggest(table, table.alice, table.bob, to_bob)  # Bob shows his
    await _show(table, table.bob, bob.hand[0])
    nothing = _nothing_of(game, table.bob.id)
    await _suggest(table, table.dave, table.bob, nothing)  # Bob holds none: answered at once
    await _suggest(table, table.alice, table.carol, _nothing_of(game, table.carol.id))
    await compose_accusation(table, table.bob, game.envelope or ("", "", ""))

    asked = await table.bot.say(table.dave, table.group, "/log @bob")
    answer = bot_messages(table.group)[-1]
    assert answer.reply_to is not None and answer.reply_to.message_id == asked.message_id

    def cards(named: tuple[str, ...]) -> str:
        return ", ".join(card_name(c) for c in named)

    lines = answer.text.split("\n")
    assert lines[:-1] == [
        "📖 The public record of @bob",
        "",
        "🔎 Suggestions made",
        f"• Suggestion 1 (day 1) to @carol: {cards(to_carol)} — refuted.",
        "",
        "🃏 Answers to others' suggestions",
        f"• @alice's suggestion 1 (day 1): {cards(to_bob)} — showed a card.",
        f"• @dave's suggestion 1 (day 1): {cards(nothing)} — could not refute.",
        "",
    ]
    accused = lines[-1]  # that Bob accused, when (in the chat's zone), never what
    assert accused.startswith("⚖️ An accusation on ")
    assert accused.endswith(") — judged when the accusation window closes.")
    assert not any(card_name(c) in accused for c in game.envelope or ())
    print_views("/log @bob", [table.group], table.players)


async def test_log_of_an_unknown_name_or_a_non_player_says_so_and_changes_nothing(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    before = await state(table, game_id)
    await table.bot.say(table.bob, table.group, "/log @nobody")
    assert bot_messages(table.group)[-1].text == t("en", "parse.unknown_player", username="nobody")
    outsider = table.server.add_user("Erin", username="erin", language_code="en")
    await table.bot.say(outsider, table.group, "hello")  # now the bot knows @erin
    await table.bot.say(table.bob, table.group, "/log @erin")
    assert bot_messages(table.group)[-1].text == "@erin does not play in this game."
    assert await state(table, game_id) == before
