"""A whole 4-player game through the fake Bot API, checking what each person saw."""

from __future__ import annotations

from datetime import timedelta

from engine.cards import CardId, Category
from engine.state import Game, Phase
from tests.support.harness import Party, bot_messages, end_post
from tests.support.play import (
    all_card_names,
    card_name,
    compose_accusation,
    compose_suggestion,
    open_and_start,
    state,
    user_of,
)


def _cards_named(text: str, names: dict[str, str]) -> set[str]:
    return {card for name, card in names.items() if name in text}


async def test_a_whole_game_from_lobby_to_winner(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.phase is Phase.RUNNING and game.envelope is not None
    names = all_card_names(game)

    # Every player got exactly their own hand, privately.
    for player in game.players:
        person = user_of(table, player.user)
        hand_dm = next(m for m in person.private_messages() if "Your cards" in m.text)
        assert _cards_named(hand_dm.text.split("Your character")[0], names) == set(player.hand)

    # Bob suggests to Carol with the composer, naming a card Carol holds: she refutes by button.
    bob, carol, dave, alice = (
        game.player_of(p.id) for p in (table.bob, table.carol, table.dave, table.alice)
    )
    assert bob and carol and dave and alice
    held = carol.hand[0]
    category = game.pack.category_of(held)
    assert category is not None
    cards = [game.in_play(c)[0] for c in (Category.SUSPECT, Category.WEAPON, Category.PLACE)]
    cards[[Category.SUSPECT, Category.WEAPON, Category.PLACE].index(category)] = held
    cards = [
        c if c not in carol.hand or c == held else _not_held(game, carol.hand, c) for c in cards
    ]
    await compose_suggestion(table, table.bob, table.carol, (cards[0], cards[1], cards[2]))
    post = bot_messages(table.group)[-1]
    assert "Suggestion 1 for @carol" in post.text
    assert [card_name(c) for c in cards] == post.bold[1:]
    prompt = await table.carol.wait_private(lambda m: "Suggestion 1" in m.text and m.buttons)
    assert [b[0] for row in prompt.buttons for b in row] == [card_name(held)]
    await table.bot.press(table.carol, prompt, card_name(held))
    shown = [m for m in table.bob.private_messages() if "shows you" in m.text]
    assert len(shown) == 1 and card_name(held) in shown[0].text
    for person in (table.alice, table.carol, table.dave):
        assert not any("shows you" in m.text for m in person.private_messages())
    answer = bot_messages(table.group)[-1]
    assert answer.reply_to is not None and answer.reply_to.message_id == post.message_id
    assert "refuted" in answer.text and card_name(held) not in answer.text

    # Carol types a forum-style suggestion to Dave, loosely spelled; Dave stays silent.
    target_cards = list(dave.hand)
    chosen = {c: game.in_play(c)[-1] for c in (Category.SUSPECT, Category.WEAPON, Category.PLACE)}
    chosen[game.pack.category_of(dave.hand[0])] = dave.hand[0]  # type: ignore[index]
    suspect, weapon, place = chosen.values()
    others = [card_name(c).upper() for c in game.in_play(Category.SUSPECT) if c != suspect]
    short = next(  # a short prefix no other suspect in play shares ("MRS PE" may be two)
        card_name(suspect)[:n].upper()
        for n in range(6, len(card_name(suspect)) + 1)
        if not any(o.startswith(card_name(suspect)[:n].upper()) for o in others)
    )
    loose = f"{short} ; {card_name(weapon).lower()};{card_name(place)}"
    typed = f"/suggest @dave  {loose}"
    await table.bot.say(table.carol, table.group, typed)
    typed_post = bot_messages(table.group)[-1]
    assert "Suggestion 1 for @dave" in typed_post.text, typed_post.text
    game = await state(table, game_id)
    silent = game.suggestions[-1]
    holds = [c for c in silent.cards if c in target_cards]

    # The day ends: the GM answers for Dave (suspect → weapon → place) and he loses a suggestion.
    assert game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    game = await state(table, game_id)
    assert game.day == 2
    assert game.quota_left(game.players[dave.seat]) == 2
    assert holds, "Dave holds a named card, so the GM refutes for him"
    gm_shown = [m for m in table.carol.private_messages() if "The GM shows you" in m.text]
    assert len(gm_shown) == 1 and card_name(holds[0]) in gm_shown[0].text
    assert any("You did not answer suggestion 1" in m.text for m in table.dave.private_messages())

    # Dave accuses wrongly (privately); the window opens; Alice then accuses rightly.
    envelope = game.envelope
    assert envelope is not None
    wrong = (
        envelope[0],
        envelope[1],
        next(c for c in game.in_play(Category.PLACE) if c != envelope[2]),
    )
    await compose_accusation(table, table.dave, wrong)
    announce = bot_messages(table.group)[-1]
    assert "@dave has made an accusation" in announce.text and "window is open" in announce.text
    assert not _cards_named(announce.text, names)
    await compose_accusation(table, table.alice, envelope)

    # Nothing secret reached the group before the end.
    _assert_no_secret_in_group(table, game)

    await table.bot.advance(timedelta(hours=24, seconds=1))
    game = await state(table, game_id)
    assert game.phase is Phase.ENDED and game.winner == alice.seat
    final = end_post(table.group)
    assert "@alice wins" in final.text
    assert all(card_name(c) in final.text for c in envelope)
    assert any("accusation was wrong" in m.text for m in table.dave.private_messages())
    assert any("@dave's accusation was wrong" in m.text for m in bot_messages(table.group))


def _not_held(game: Game, hand: tuple[CardId, ...], card: CardId) -> CardId:
    category = game.pack.category_of(card)
    assert category is not None
    return next(c for c in game.in_play(category) if c not in hand)


def _assert_no_secret_in_group(table: Party, game) -> None:  # type: ignore[no-untyped-def]
    """Answers and accusations name no card; only suggestion posts and the card list do,
    and the game's index its players' roles (public: the start names them too)."""
    names = all_card_names(game)
    for message in bot_messages(table.group):
        text = message.text
        if text.startswith("Suggestion ") or "The game begins" in text:
            continue
        if text.startswith("📌 Game index"):
            assert _cards_named(text, names) == {p.role for p in game.players}, text
            continue
        assert not _cards_named(text, names), text
