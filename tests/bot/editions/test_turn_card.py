"""A table turn in the group is one post, its card, edited as the turn goes (issue 38): a
classic turn whose suggestion the second player refutes ends as one post that tells the
roll, the room, the suggestion, who could not refute and who showed (never which card),
with the board after the move as its picture; the next turn is a new post. Turns played
by buttons post nothing else of their own, and the current player's prompt never waits
behind the group's posts; `/log` lists every turn's card."""

from __future__ import annotations

from bot.editions.registry import shipped
from bot.render.reader import Reader
from engine.state import Game
from fakebot import FakeMessage
from storage.models import OutboxStatus
from tests.support.harness import Party, bot_messages
from tests.support.play import card_name
from tests.support.table_play import TablePlayer, card, card_turn, fix_seed, open_classic, prompt

SHOWN = shipped()  # the shipped editions' presentations
board_post = SHOWN.board_post
edition_of = SHOWN.edition_of

SEED = 12


def _posts_since(table: Party, first: int) -> list[FakeMessage]:
    """The bot's group posts from message id `first` on (edits are not posts)."""
    return [m for m in bot_messages(table.group) if m.message_id >= first]


def _board_png(game: Game) -> bytes:
    """The board picture the game's position draws (as the sender draws it)."""
    _, photo = board_post(Reader("en"), edition_of(game).board(game), "·")
    assert photo is not None
    return photo


async def test_a_refuted_turn_is_one_post_that_tells_it_all_and_the_next_turn_a_new_one(
    table: Party,
) -> None:
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    for _ in range(30):  # play until a suggestion passes the first player and the second shows
        game = await player.game()
        assert game.table is not None
        turn, first_post = game.table.turn, card(table).message_id
        await player.turn()
        game = await player.game()
        assert game.table is not None
        made = [s for s in game.table.suggestions if s.turn == turn]
        if made and len(made[-1].passed) == 1 and made[-1].card is not None:
            break
    else:
        raise AssertionError("no suggestion refuted by the second player in 30 turns")
    s = made[-1]
    assert game.table.turn == turn + 1, "the suggester ended the turn"
    posts = _posts_since(table, first_post)
    assert [card_turn(m) for m in posts] == [turn, turn + 1], "one post a turn, the next new"
    final = posts[0]
    names = {game.players[i].user: f"@{p.username}" for i, p in enumerate(people) if p.username}
    suggester, passer = game.players[s.suggester], game.players[s.passed[0]]
    refuter = game.players[s.refuter] if s.refuter is not None else None
    assert refuter is not None
    lines = final.text.split("\n")
    assert any("rolls" in line for line in lines), final.text
    assert any(card_name(s.room) in line and "enters" in line for line in lines) or any(
        "stays" in line for line in lines
    ), final.text
    suggestion = next(line for line in lines if "suggests" in line)
    assert all(card_name(c) in suggestion for c in (s.suspect, s.weapon, s.room))
    cannot = [line for line in lines if "cannot refute" in line]
    assert cannot == [f"✖️ {names.get(passer.user)} cannot refute."]
    shown = next(line for line in lines if "has shown" in line)
    assert names.get(refuter.user, "?") in shown and names.get(suggester.user, "?") in shown
    assert s.card is not None and card_name(s.card) not in shown, "never which card"
    # Its picture is the board after the move (and the suggestion's tokens brought in).
    assert final.photo is not None and final.photo_bytes == _board_png(game)
    media = [
        c
        for c in table.server.calls_to("editMessageMedia")
        if c.params.get("message_id") == final.message_id
    ]
    captions = [
        c
        for c in table.server.calls_to("editMessageCaption")
        if c.params.get("message_id") == final.message_id
    ]
    assert media, "the move redrew the picture"
    assert captions, "the card shown changed the caption alone (the board stayed)"
    assert 1 + len(media) + len(captions) <= 4, "the post and at most three edits"


async def test_turns_by_buttons_post_nothing_but_their_cards(table: Party) -> None:
    """Six turns with the default settings: the group gets one post a turn, its card; the
    refuters' prompts and the shown cards are private, the buttons in private chats."""
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    start = card(table).message_id
    for _ in range(6):
        await player.turn()
    game = await player.game()
    assert game.running and game.table is not None
    posts = _posts_since(table, start)
    assert [card_turn(m) for m in posts] == list(range(1, game.table.turn + 1)), [
        m.text[:50] for m in posts
    ]
    assert not any(m.buttons for m in posts), "no buttons of the player's in the group"
    # `/log` lists every turn: each card as the thread shows it now.
    await table.bot.say(table.bob, table.group, "/log")
    told = [m for m in bot_messages(table.group) if m.message_id > posts[-1].message_id]
    log = "\n".join(m.text for m in told)
    assert log.startswith("📖 The game, turn by turn"), log[:80]
    for post in posts:
        assert post.text in log, post.text


async def test_the_next_buttons_never_wait_behind_the_groups_posts(limited: Party) -> None:
    """The group at its limit with twenty posts waiting: the player's press is answered and
    their next buttons come at once, in private; the card catches up later."""
    table = limited
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    services = table.bot.services
    for n in range(40):  # the minute's twenty go at once, twenty more wait
        await services.tell(table.group.id, "settings.line", {"name": "n", "value": n})
    await table.bot.settle()
    who = await player.current()
    before = prompt(table)
    offered = before.buttons  # the message is edited in place
    answer = await table.bot.press(who, before, player.label("button.roll"))
    assert answer.text.startswith("🎲"), answer.text
    after = prompt(table)
    assert after.message_id == before.message_id and after.chat.id == who.id
    game = await player.game()
    assert game.table is not None and game.table.dice
    assert "you rolled" in after.text and after.buttons != offered, after.text
    group = await services.store.outbox.counts()
    assert group.get(OutboxStatus.PENDING, 0) >= 20, (
        "the card's edit still waits behind the group's posts"
    )


async def test_with_pictures_off_the_card_is_a_text_edited_the_same_way(table: Party) -> None:
    fix_seed(table, SEED)
    people = [table.alice, table.bob, table.carol]
    for person in people:
        person.start_bot()
    await table.bot.say(table.alice, table.group, "/settings images off")
    game_id = await open_classic(table, people)
    player = TablePlayer(table, game_id, people)
    start = card(table).message_id
    for _ in range(3):
        await player.turn()
    posts = _posts_since(table, start)
    assert [card_turn(m) for m in posts] == [1, 2, 3, 4]
    assert all(m.photo is None for m in posts)
    first = posts[0]
    assert first.edits, "edited as the turn went"
    assert "rolls" in first.text and "The board" in first.text, first.text
    edited = {c.params.get("message_id") for c in table.server.calls_to("editMessageText")}
    assert first.message_id in edited
    assert not table.server.calls_to("editMessageMedia")
