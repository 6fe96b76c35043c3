"""What players noticed in real games (issue 8, point 7): each text as the person saw it."""

from __future__ import annotations

from datetime import timedelta

from bot.editions.registry import shipped
from bot.render.reader import Person, Reader
from engine.cards import Category
from engine.state import Game, Phase
from fakebot import FakeGroup, FakeTopic
from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import (
    card_name,
    compose_accusation,
    naming,
    open_and_start,
    state,
)

SHOWN = shipped()  # the shipped editions' presentations
compose = SHOWN.compose


def _typed(target: str, cards: tuple[str, str, str]) -> str:
    return f"/suggest @{target} " + "; ".join(card_name(c) for c in cards)


def _wrong(game: Game) -> tuple[str, str, str]:
    assert game.envelope is not None
    suspect, weapon, place = game.envelope
    return suspect, weapon, next(c for c in game.in_play(Category.PLACE) if c != place)


async def test_an_answered_prompt_keeps_the_suggestion_and_the_card_shown(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    cards = naming(game, carol.hand[0])
    await table.bot.say(table.bob, table.group, _typed("carol", cards))
    prompt = table.carol.private_messages()[-1]
    assert prompt.buttons
    await table.bot.press(table.carol, prompt, card_name(carol.hand[0]))
    closed = next(m for m in table.carol.private_messages() if m.message_id == prompt.message_id)
    assert closed.buttons == []
    place, suggestion, outcome = closed.text.splitlines()
    assert place == "🎲 Cluedo club" and suggestion.startswith("Suggestion 1 from @bob to you")
    assert all(card_name(c) in suggestion for c in cards)
    assert outcome == f"✅ Answered: you showed {card_name(carol.hand[0])}."


async def test_the_end_of_the_game_does_not_promise_suggestions_to_a_wrong_accuser(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.envelope is not None
    await compose_accusation(table, table.dave, _wrong(game))
    await compose_accusation(table, table.alice, game.envelope)
    await table.bot.advance(timedelta(hours=24, seconds=1))
    assert (await state(table, game_id)).phase is Phase.ENDED
    (told,) = [m for m in bot_messages(table.group) if "@dave's accusation was wrong" in m.text]
    assert "may still make suggestions" not in told.text
    assert "can never accuse again" not in told.text
    (dm,) = [m for m in table.dave.private_messages() if "accusation was wrong" in m.text]
    assert "may still make suggestions" not in dm.text and "answer suggestions" not in dm.text


async def test_a_wrong_accuser_in_a_game_that_goes_on_may_still_suggest(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await compose_accusation(table, table.dave, _wrong(game))
    await table.bot.advance(timedelta(hours=24, seconds=1))
    assert (await state(table, game_id)).phase is Phase.RUNNING
    (told,) = [m for m in bot_messages(table.group) if "@dave's accusation was wrong" in m.text]
    assert "may still make suggestions" in told.text
    (dm,) = [m for m in table.dave.private_messages() if "accusation was wrong" in m.text]
    assert "You may still make suggestions" in dm.text


async def test_the_accuser_is_told_once_that_the_accusation_is_recorded(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    await compose_accusation(table, table.dave, _wrong(game))
    told = [m for m in table.dave.private_messages() if "accusation is recorded" in m.text]
    assert len(told) == 1
    assert all(card_name(c) in told[0].text for c in _wrong(game))


async def test_the_welcome_comes_before_the_hand_and_the_prompts(table: Party) -> None:
    game_id = await open_and_start(table, started=[table.alice, table.bob, table.carol])
    game = await state(table, game_id)
    dave = game.player_of(table.dave.id)
    assert dave is not None
    await table.bot.say(table.bob, table.group, _typed("dave", naming(game, dave.hand[0])))
    assert table.dave.private_messages() == []
    table.dave.start_bot(f"g{game_id}")
    await table.bot.settle()
    texts = [m.text for m in table.dave.private_messages()]
    assert texts[0].startswith("👋 Hello!"), texts
    assert "Your cards" in texts[1] and "Suggestion 1 from @bob" in texts[2], texts
    assert sum("Hello!" in t for t in texts) == 1


async def test_an_accusation_typed_in_the_group_is_refused_by_name(table: Party) -> None:
    await open_and_start(table)
    sent = await table.bot.say(table.bob, table.group, "/accuse Plum; Rope; Hall")
    reply = bot_messages(table.group)[-1]
    assert sent.deleted
    assert reply.text.startswith("⚖️ @bob, accusations are secret")
    assert "I deleted your message" in reply.text


async def test_an_accusation_the_bot_could_not_delete_says_so(table: Party) -> None:
    other = table.server.add_group(
        "No rights", admins=[table.alice], members=[table.bob], bot_admin=False
    )
    sent = await table.bot.say(table.bob, other, "/accuse Plum; Rope; Hall")
    reply = bot_messages(other)[-1]
    assert not sent.deleted
    assert "@bob" in reply.text and "could not delete your message" in reply.text
    assert "I deleted" not in reply.text


async def test_the_penalty_note_says_how_many_suggestions_are_lost(table: Party) -> None:
    await table.bot.say(table.alice, table.group, "/settings missed_answer_penalty 2")
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    dave = game.player_of(table.dave.id)
    assert dave is not None and game.day_ends_at is not None
    # Asked an hour before the day ends, Dave's answer is due after it: the GM's answer is
    # a reply of its own (one due at the day's end is a line of the day's post).
    await table.bot.advance(game.day_ends_at - timedelta(hours=1) - table.bot.clock.now())
    await table.bot.say(table.bob, table.group, _typed("dave", naming(game, dave.hand[0])))
    await table.bot.advance(timedelta(hours=3))
    (note,) = [m for m in bot_messages(table.group) if "did not answer in time" in m.text]
    assert "@dave did not answer in time and loses 2 suggestions on the next day" in note.text


async def test_the_start_post_says_days_last_24_hours(table: Party) -> None:
    await open_and_start(table)
    start = next(m for m in bot_messages(table.group) if "The game begins" in m.text)
    assert "Days last 24 hours." in start.text
    assert "1 day" not in start.text


async def test_no_day_open_says_when_the_next_day_opens(table: Party) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    assert game.day_ends_at is not None
    await table.bot.advance(timedelta(hours=1))
    await compose_accusation(table, table.dave, _wrong(game))
    game = await state(table, game_id)
    assert game.window is not None and game.day_ends_at is not None
    await table.bot.advance(game.day_ends_at - table.bot.clock.now() + timedelta(seconds=1))
    assert not (await state(table, game_id)).day_open
    bob = game.player_of(table.bob.id)
    assert bob is not None
    await table.bot.say(table.bob, table.group, _typed("carol", naming(game, bob.hand[0])))
    reply = bot_messages(table.group)[-1]
    closes = game.window.closes_at  # one hour after the first day's end: 2 Jan 01:00 UTC
    when = f"{closes.strftime('%b')} {closes.day}, {closes.strftime('%H:%M')} (UTC)"
    assert "No game day is open now" in reply.text
    assert f"the next one opens when the accusation window closes, {when}" in reply.text


async def test_after_the_bots_downtime_the_target_is_not_told_they_were_late(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    dave = game.player_of(table.dave.id)
    assert dave is not None and game.day_ends_at is not None
    cards = naming(game, dave.hand[0])
    await table.bot.say(table.bob, table.group, _typed("dave", cards))
    table.bot.clock.moment = game.day_ends_at + timedelta(hours=1)  # the bot was down
    await table.bot.scheduler.sweep()
    await table.bot.settle()
    texts = [m.text for m in table.dave.private_messages()]
    assert not any("did not answer" in t and "in time" in t for t in texts), texts
    (told,) = [t for t in texts if "I was offline" in t]
    assert "no penalty" in told and card_name(dave.hand[0]) in told
    group = [m.text for m in bot_messages(table.group)]
    assert not any("did not answer in time" in t for t in group)


async def _game_in_forum_topic(table: Party) -> tuple[FakeGroup, FakeTopic, int]:
    """A second game, in the "Mysteries" topic of the forum "Book club", with all four."""
    forum = table.server.add_group(
        "Book club",
        forum=True,
        admins=[table.alice],
        members=[table.bob, table.carol, table.dave],
        bot_admin=True,
    )
    topic = forum.add_topic("Mysteries", creator=table.alice)
    await table.bot.settle()
    await table.bot.say(table.alice, forum, "/newgame", topic=topic)
    lobby = next(m for m in bot_messages(forum) if m.buttons)
    for person in (table.bob, table.carol, table.dave):
        await table.bot.press(person, lobby, "Join")
    await table.bot.press(table.alice, lobby, "Start the game")
    ref = await table.bot.services.store.game_for_chat(forum.id, topic.thread_id)
    assert ref is not None
    return forum, topic, ref.id


async def test_private_messages_say_which_chat_and_topic_they_belong_to(table: Party) -> None:
    first = await open_and_start(table)
    forum, topic, second = await _game_in_forum_topic(table)
    hands = [m for m in table.bob.private_messages() if "Your cards" in m.text]
    assert [h.text.splitlines()[0] for h in hands] == ["🎲 Cluedo club", "🎲 Book club · Mysteries"]

    # Bob suggests to Carol in the forum's game; her prompt, its edit and his card say where.
    game = await state(table, second)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    held = carol.hand[0]
    await table.bot.say(table.bob, forum, _typed("carol", naming(game, held)), topic=topic)
    prompt = table.carol.private_messages()[-1]
    assert prompt.text.splitlines()[0] == "🎲 Book club · Mysteries" and prompt.buttons
    await table.bot.press(table.carol, prompt, card_name(held))
    closed = next(m for m in table.carol.private_messages() if m.message_id == prompt.message_id)
    assert closed.text.splitlines()[0] == "🎲 Book club · Mysteries"
    shown = next(m for m in table.bob.private_messages() if "shows you" in m.text)
    assert shown.text.splitlines()[0] == "🎲 Book club · Mysteries"

    # The composer asks which game by the chats' names, and every screen says which.
    await table.bot.say(table.bob, None, "/suggest")
    chooser = table.bob.private_messages()[-1]
    assert [b[0] for row in chooser.buttons for b in row] == [
        "Cluedo club",
        "Book club · Mysteries",
    ]
    await table.bot.press(table.bob, chooser, "Cluedo club")
    screen = next(m for m in table.bob.private_messages() if m.message_id == chooser.message_id)
    assert screen.text.splitlines()[0] == "🎲 Cluedo club" and "To whom?" in screen.text

    await table.bot.say(table.bob, None, "/games")
    listing = table.bob.private_messages()[-1].text
    assert "• Cluedo club: day 1" in listing and "• Book club · Mysteries: day 1" in listing
    await table.bot.say(table.bob, None, "/hand")
    assert "Book club · Mysteries" in table.bob.private_messages()[-1].text
    assert first != second


async def test_a_renamed_topic_and_chat_are_named_by_their_new_names(table: Party) -> None:
    game_id = await open_and_start(table)
    table.group.title = "Cluedo club (autumn)"
    await table.bot.say(table.bob, table.group, "hello")  # the bot sees the new title
    game = await state(table, game_id)
    carol = game.player_of(table.carol.id)
    assert carol is not None
    await table.bot.say(table.bob, table.group, _typed("carol", naming(game, carol.hand[0])))
    assert table.carol.private_messages()[-1].text.splitlines()[0] == "🎲 Cluedo club (autumn)"


async def _russian_table(table: Party) -> None:
    for person in table.players:
        person.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")


async def test_russian_posts_inflect_the_built_in_cards(table: Party) -> None:
    await _russian_table(table)
    game_id = await open_and_start(table, join_text="Вступить", start_text="Начать игру")
    game = await state(table, game_id)
    weapon = next(c for c in game.in_play(Category.WEAPON))
    place = (
        "kitchen" if "kitchen" in game.in_play(Category.PLACE) else game.in_play(Category.PLACE)[0]
    )
    suspect = game.in_play(Category.SUSPECT)[0]
    typed = "; ".join(card_name(c, "ru") for c in (suspect, weapon, place))
    await table.bot.say(table.bob, table.group, f"/suggest @carol {typed}")
    post = next(m for m in bot_messages(table.group) if m.text.startswith("Предположение 1"))
    ins, where, prep = (
        t("ru", f"card.{c}") for c in (f"{weapon}.ins", f"{place}.in", f"{place}.prep")
    )
    assert f"совершил(а) {card_name(suspect, 'ru')} {ins} {where} {prep}." in post.text
    assert post.bold[1:] == [card_name(suspect, "ru"), ins, prep]
    assert "орудием" not in post.text and "в комнате" not in post.text
    assert ins != card_name(weapon, "ru") and prep != card_name(place, "ru")


async def test_russian_posts_of_a_custom_pack_need_no_inflection(table: Party) -> None:
    from tests.support.play import PACK

    await _russian_table(table)
    await table.bot.say(table.alice, table.group, PACK)
    game_id = await open_and_start(table, join_text="Вступить", start_text="Начать игру")
    game = await state(table, game_id)
    names = dict(game.pack.labels)
    cards = [names[game.in_play(c)[0]] for c in (Category.SUSPECT, Category.WEAPON, Category.PLACE)]
    await table.bot.say(table.bob, table.group, f"/suggest @carol {'; '.join(cards)}")
    post = next(m for m in bot_messages(table.group) if m.text.startswith("Предположение 1"))
    suspect, weapon, place = cards
    assert f"подозреваемый: {suspect}; орудие: {weapon}; место: {place}." in post.text
    assert post.bold[1:] == cards


def test_every_built_in_weapon_and_place_has_its_forms_in_both_catalogs() -> None:
    from engine.cards import PACKS
    from locales import has

    for pack in PACKS.values():
        for lang in ("en", "ru"):
            assert all(has(lang, f"card.{w}.ins") for w in pack.weapons), lang
            for place in pack.places:
                assert has(lang, f"card.{place}.in") and has(lang, f"card.{place}.prep"), place


def test_russian_receipt_confirmations_and_envelope_inflect_or_list_the_cards() -> None:
    from bot.render.reader import Reader

    cards = {"suspect_card": "plum", "weapon_card": "rope", "place_card": "kitchen"}
    builtin = Reader("ru")
    custom = Reader("ru", labels={"plum": "Холмс", "rope": "Трость", "kitchen": "Бейкер-стрит"})
    at = {"closes_at": "2026-05-02T09:30:00+00:00"}
    receipt = compose(builtin, "dm.accusation_received", {**cards, **at})
    assert "<b>Профессор Плам</b>, <b>Верёвкой</b>, на <b>Кухне</b>." in receipt
    receipt = compose(custom, "dm.accusation_received", {**cards, **at})
    assert "Подозреваемый: <b>Холмс</b>; орудие: <b>Трость</b>; место: <b>Бейкер-стрит</b>" in (
        receipt
    )
    confirm = compose(builtin, "accuse.confirm", cards)
    assert "Обвинить: <b>Профессор Плам</b>, <b>Верёвкой</b>, на <b>Кухне</b>?" in confirm
    assert "орудие: <b>Трость</b>" in compose(custom, "accuse.confirm", cards)
    confirm = compose(builtin, "composer.confirm_suggestion", {**cards, "target_user": 1})
    assert "<b>Верёвкой</b>, на <b>Кухне</b>" in confirm
    end = {
        "reason": "no_winner",
        "winner_user": None,
        "envelope_cards": ["plum", "rope", "kitchen"],
        "accusations": [],
        "hands": [],
    }
    assert "<b>Конверт</b>: Профессор Плам, Верёвкой, на Кухне." in compose(
        builtin, "game.ended", end
    )
    assert "Подозреваемый: Холмс; орудие: Трость; место: Бейкер-стрит." in compose(
        custom, "game.ended", end
    )
    english = compose(Reader("en"), "accuse.confirm", cards)
    assert "Accuse <b>Professor Plum</b> with the <b>Rope</b> in the <b>Kitchen</b>?" in english


async def test_a_suggestion_after_the_days_end_hears_the_next_day_opens_at_once(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    game = await state(table, game_id)
    bob = game.player_of(table.bob.id)
    assert bob is not None and game.day_ends_at is not None
    table.bot.clock.moment = game.day_ends_at + timedelta(seconds=5)  # before the clock fires
    await table.bot.say(table.bob, table.group, _typed("carol", naming(game, bob.hand[0])))
    reply = bot_messages(table.group)[-1]
    end = game.day_ends_at
    when = f"{end.strftime('%b')} {end.day}, {end.strftime('%H:%M')} (UTC)"
    assert f"No game day is open now: the day ended {when}" in reply.text
    assert "the next one opens in a moment" in reply.text


def test_topic_names_are_read_from_creation_edit_and_topic_messages() -> None:
    from telegram import Update

    from bot.handlers.places import names_in

    chat = {"id": -100, "type": "supergroup", "title": "Book club", "is_forum": True}
    user = {"id": 1, "is_bot": False, "first_name": "Ann"}

    def update(**message: object) -> Update:
        base = {"message_id": 9, "date": 0, "chat": chat, "from": user}
        return Update.de_json({"update_id": 1, "message": {**base, **message}}, None)

    created = {"message_id": 5, "date": 0, "chat": chat, "message_thread_id": 5}
    created["forum_topic_created"] = {"name": "Mysteries", "icon_color": 7322096}
    assert names_in(update(**created)) == [(0, "Book club"), (5, "Mysteries")]
    edited = {"message_thread_id": 5, "forum_topic_edited": {"name": "Old mysteries"}}
    assert names_in(update(**edited)) == [(0, "Book club"), (5, "Old mysteries")]
    in_topic = {"message_thread_id": 5, "is_topic_message": True, "text": "hi"}
    assert names_in(update(**in_topic, reply_to_message=created)) == [
        (0, "Book club"),
        (5, "Mysteries"),
    ]
    icon_only = {"message_thread_id": 5, "forum_topic_edited": {"icon_custom_emoji_id": ""}}
    assert names_in(update(**icon_only)) == [(0, "Book club")]


def test_the_end_post_tells_a_later_right_accusation_from_a_wrong_one() -> None:
    """The first right accusation of the window wins; one after it was never judged, and the
    end post says so instead of calling it wrong."""
    cards = ["plum", "rope", "kitchen"]
    end = {
        "reason": "won",
        "winner_user": 1,
        "envelope_cards": cards,
        "accusations": [
            {"user_user": 2, "cards": ["green", "rope", "kitchen"], "correct": False},
            {"user_user": 1, "cards": cards, "correct": True},
            {"user_user": 3, "cards": cards, "correct": None},
        ],
        "hands": [],
    }
    people = {n: Person(name, name.lower()) for n, name in ((1, "Ann"), (2, "Ben"), (3, "Cid"))}
    text = compose(Reader("en", people=people), "game.ended", end)
    assert "• @ben: Reverend Green, Rope, Kitchen — wrong" in text
    assert "• @ann: Professor Plum, Rope, Kitchen — right" in text
    assert (
        "• @cid: Professor Plum, Rope, Kitchen — not judged: an earlier accusation was right"
        in text
    )
