"""A whole demo game: the stage set, the people seated, the lobby opened, then round after
round each seat's computer detective decides (engine.detectives.next_move, from what its
seat saw) and its person makes the move in the bot's interface; when nobody has one, the
clock runs to the next deadline. It ends with the bot's end post and story."""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta
from typing import TextIO

from bot.demo.cast import Seat, cast
from bot.demo.editions import DEMO_FORMATS
from bot.demo.hands import Hands
from bot.demo.lobby import open_game, seeds_from
from bot.demo.options import Options
from bot.demo.scene import Scene
from bot.demo.stage import Stage
from bot.demo.transcript import Transcript, plain
from engine.detectives import Reading, moment_chance, next_move
from engine.format import format_of
from engine.state import Game
from locales import t

MAX_DAYS = 60  # a forum game still open then is ended by its admin
MAX_TURNS = 600  # ... and a table game
MAX_STEPS = 3000  # ... and any game after so many moves and waits
STORY_WAIT = 30.0  # seconds the story (worked out in the background) may take


def run_demo(options: Options, out: TextIO | None = None) -> int:
    """Play the game, printing it to `out` (stdout); the exit status (0: a whole game)."""
    return asyncio.run(play_demo(options, out or sys.stdout))


async def play_demo(options: Options, out: TextIO) -> int:
    """`run_demo` in a running event loop."""
    demo = DEMO_FORMATS[options.format]
    stage = Stage(seeds=seeds_from(options.seed))
    try:
        await stage.start()
        scene = seat(stage, options, out)
        _introduce(scene, options)
        await open_game(scene, demo.hands, demo.key)
        await play_rounds(scene, demo.hands, demo.pace)
        await _story(scene)
        await scene.done()
        scene.transcript.note(t(options.language, "demo.over"))
    finally:
        await stage.stop()
    return 0


def seat(stage: Stage, options: Options, out: TextIO) -> Scene:
    """The people of the cast in a group of their own, the first its admin."""
    seats = cast(options)
    language = options.language
    people = [
        stage.server.add_user(s.name, username=s.username, language_code=language) for s in seats
    ]
    group = stage.server.add_group(
        t(language, "demo.group_title"), admins=people[:1], members=people[1:], bot_admin=True
    )
    transcript = Transcript(stage.server, language, group.id, out, pause=options.speed)
    transcript.names = {p.id: p.first_name for p in people}
    return Scene(stage, transcript, group, people, seats, language)


def _introduce(scene: Scene, options: Options) -> None:
    language = options.language
    scene.transcript.note(
        t(
            language,
            "demo.intro",
            format=t(language, f"demo.format_{options.format}"),
            count=options.players,
            seed=options.seed,
        )
    )
    for seat in scene.seats:
        scene.transcript.note(_seat_line(language, seat))
    scene.transcript.note("")


def _seat_line(language: str, seat: Seat) -> str:
    level = t(language, f"detective.level.{seat.level.value}")
    return t(language, "demo.seat", name=seat.name, username=f"@{seat.username}", level=level)


async def play_rounds(scene: Scene, hands: Hands, pause: timedelta) -> None:
    """Rounds of moves until the game ends, the clock moved by `pause` after each move;
    the clock runs on when nobody has one. Each seat's detective reads the game on from
    its last decision (its `Reading`)."""
    stage = scene.stage
    readings: dict[int, Reading] = {}
    failed: set[tuple[int, int]] = set()  # (seat, events so far) whose move was not made
    steps = 0  # moves made, and waits for a deadline
    while (game := await scene.game()).running:
        if _too_long(game, steps):
            await _end_by_admin(scene)
            continue
        moved = False
        for seat in range(len(game.players)):
            game, events = await scene.moment()
            if not game.running:
                break
            person = scene.person(game.players[seat].user)
            rng = moment_chance(game, events, seat)  # as the bot's own detectives draw it
            level = scene.seat_of(person).level
            reading = readings.setdefault(seat, Reading(seat))
            move = next_move(level, game, events, seat, rng, stage.clock.now(), reading)
            if move is None or (seat, len(events)) in failed:
                continue
            made = await hands.perform(scene, person, move, game)
            if not made or len((await scene.moment())[1]) == len(events):
                failed.add((seat, len(events)))
                continue
            moved, steps = True, steps + 1
            await stage.advance(pause)
        if not moved:
            await _wait(scene)
            steps += 1


def _too_long(game: Game, steps: int) -> bool:
    found = format_of(game)
    turns = not found.has_days and found.moment(game) > MAX_TURNS
    return game.day > MAX_DAYS or turns or steps > MAX_STEPS


async def _wait(scene: Scene) -> None:
    """Nobody has a move: the clock runs to the next deadline (the admin ends a game that
    waits for nothing)."""
    stage = scene.stage
    due = await stage.next_deadline()
    if due is None:
        await _end_by_admin(scene)
        return
    now = stage.clock.now()
    # A deadline due already waits for its lease (a failed run): a minute passes.
    await stage.advance(due - now if due > now else timedelta(minutes=1))


async def _end_by_admin(scene: Scene) -> None:
    """The host, the group's admin, ends a game that would not end."""
    await scene.say(scene.people[0], "/endgame")
    if (await scene.game()).running:
        raise RuntimeError("the game did not end")


async def _story(scene: Scene) -> None:
    """Until the bot has posted the game's story (worked out in the background)."""
    title = plain(t(scene.language, "story.title"), "HTML")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STORY_WAIT
    while loop.time() < deadline:
        await scene.stage.settle()
        await scene.transcript.flush()
        posts = scene.group.messages(service=False)
        if any(m.is_from_bot and m.text.startswith(title) for m in posts):
            return
        await asyncio.sleep(0.05)
