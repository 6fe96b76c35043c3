"""A forum game's index: one post in its thread, pinned where the bot may pin, edited as the
game goes. What it shows is decided here, public facts only: the rules in short, the players
with their suspects, each day's opening post, then voided suggestions, pauses and resumes,
extensions, replacements, who left, who accused and when (never what), and the end (the
envelope is public by then). Table games, an evening's play, have none.

The post and its edits are planned, what they say included, with the commands that change
it (`plan_index`), from the game's state and its whole log (`index_args`: the log holds what
the state forgets, such as pauses and each day's post), which storage reads in the
command's transaction. An edit only tells, so the rows queued after it go first when the
chat is at its limit; but it passes no other edit, and one still waiting takes in the next
(one edit, the newest content): what is shown last is the latest. Each day names its
opening post, linked by the sender once sent (bot.delivery.links)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.announce.plan import Args, Plan, event_key
from bot.payload import Card, Cards, Moment, PostLink, Span, User
from engine import events as ev
from engine.format import format_of
from engine.state import Game, Phase, Player, Suggestion

INDEX = "index.post"
MOMENTS_SHOWN = 25  # the latest moments listed (the older ones counted): a post's length
# The events whose command changes what the index shows.
CHANGES: tuple[type[ev.Event], ...] = (
    ev.DayOpened,
    ev.DayExtended,
    ev.SuggestionVoided,
    ev.GamePaused,
    ev.GameResumed,
    ev.SeatReplaced,
    ev.PlayerLeft,
    ev.AccusationMade,
    ev.AccusationJudged,
    ev.GameEnded,
)


def index_key(game_id: int) -> str:
    """The outbox key of the game's index post (its edits name it)."""
    return f"g{game_id}:index"


def plan_index(plan: Plan) -> None:
    """Once per command: the index posted (to be pinned) when a forum game starts, else
    edited when an event of the command changes it."""
    game = plan.ctx.after
    if format_of(game).plays_turns(game) or game.envelope is None:  # a table's, or not yet
        return
    events = plan.ctx.events
    game_id = plan.ctx.game_id
    started = any(isinstance(e, ev.GameStarted) for e in events)
    if not started and not any(isinstance(e, CHANGES) for e in events):
        return
    args = index_args(game_id, game, plan.ctx.log())  # the game as this command leaves it
    if started:
        plan.group(index_key(game_id), INDEX, args, pin=True)
        return
    # Decoration: at the chat's limit the posts queued after it go first, among them a day's
    # post it links to; so it may replace an edit still waiting (coalesced: the newest).
    last = plan.ctx.first_seq + len(events) - 1
    plan.edit(plan.key(last, "index"), index_key(game_id), INDEX, args, decoration=True)


def index_args(game_id: int, game: Game, events: Sequence[ev.Event]) -> Args:
    """What the index shows of a game, from its state and its whole log (event `n` of the
    game is `events[n - 1]`). Each day links its opening post (`post`, by its outbox key)."""
    seats: dict[int, int] = {}  # seat -> the person holding it at that point of the log
    days: list[dict[str, Any]] = []
    moments: list[dict[str, Any]] = []
    suggestions = {s.id: s for s in game.suggestions}
    day = 0
    ended: ev.GameEnded | None = None
    for seq, e in enumerate(events, start=1):
        moment = _moment(e, seats, suggestions)
        if moment is not None:
            moments.append({**moment, "day": day})
        if isinstance(e, ev.GameStarted):
            seats = {seat: deal.user for seat, deal in enumerate(e.seats)}
        elif isinstance(e, ev.SeatReplaced):
            seats[e.seat] = e.new_user
        elif isinstance(e, ev.DayOpened):
            day = e.day
            days.append({"day": e.day, "post": PostLink(event_key(game_id, seq, "day"))})
        elif isinstance(e, ev.GameEnded):
            ended = e
    settings = game.settings
    return {
        "day_length": Span.of(settings.day_length),
        "per_day": settings.suggestions_per_day,
        "per_target": settings.max_per_target_per_day,
        "window": Span.of(settings.accusation_window),
        "players": [
            {"player": User(p.user), "suspect": Card(p.role), "state": _state(p)}
            for p in game.players
        ],
        "days": days,
        "moments": moments[-MOMENTS_SHOWN:],
        "earlier": max(0, len(moments) - MOMENTS_SHOWN),
        "end": _end(game, ended, seats),
    }


def _moment(e: ev.Event, seats: dict[int, int], suggestions: dict[int, Suggestion]) -> Args | None:
    """One line of the index's log, of the event (None: the event is not one)."""
    if isinstance(e, ev.SuggestionVoided) and e.suggestion in suggestions:
        voided = suggestions[e.suggestion]
        return {
            "kind": "voided",
            "number": voided.number,
            "suggester": User(seats[voided.suggester]),
        }
    if isinstance(e, ev.GamePaused):
        return {"kind": "paused", "at": Moment.of(e.at)}
    if isinstance(e, ev.GameResumed):
        return {"kind": "resumed", "at": Moment.of(e.at), "paused": Span.of(e.at - e.paused_at)}
    if isinstance(e, ev.DayExtended):
        return {"kind": "extended", "ends_at": Moment.of(e.ends_at)}
    if isinstance(e, ev.SeatReplaced):
        return {"kind": "replaced", "old": User(e.old_user), "new": User(e.new_user)}
    if isinstance(e, ev.PlayerLeft):
        return {"kind": "removed" if e.removed else "left", "player": User(seats[e.seat])}
    if isinstance(e, ev.AccusationMade):  # who and when, never what
        return {"kind": "accused", "player": User(seats[e.seat]), "at": Moment.of(e.at)}
    return None


def _state(player: Player) -> str:
    if player.removed:
        return "removed"
    if not player.active:
        return "left"
    return "eliminated" if player.eliminated else "playing"


def _end(game: Game, ended: ev.GameEnded | None, seats: dict[int, int]) -> Args | None:
    """How the game ended, and the envelope (public once it has)."""
    if ended is None or game.phase is not Phase.ENDED or game.envelope is None:
        return None
    winner = User(seats[ended.winner]) if ended.winner is not None else None
    return {"reason": ended.reason.value, "winner": winner, "envelope": Cards(game.envelope)}
