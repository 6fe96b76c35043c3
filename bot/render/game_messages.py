"""The texts of a game's announcements that need more than one catalog text: the lobby,
the start, days, answers, accusations, a taken-over seat's history, reminders, the end."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import (
    Composer,
    card_forms,
    card_lines,
    day_length_text,
    inflected,
    join_lines,
    prompt_closed,
    roster_lines,
)
from bot.settings_text import describe_setting
from locales import t

# An accusation at the end: right, wrong, or never judged (an earlier one in its window won).
_ACCUSATION_LINES = MappingProxyType(
    {
        True: "game.accusation_right",
        False: "game.accusation_line",
        None: "game.accusation_late",
    }
)


def lobby(reader: Reader, args: dict[str, Any]) -> str:
    """The lobby post; a 2023 lobby's adds who has chosen which character."""
    lang = reader.language
    rest = {k: v for k, v in args.items() if k not in ("characters", "two_players", "notebook")}
    text = t(lang, "lobby.opened", **flat_args(reader, rest))
    if "notebook" in args:  # a lobby post of before the notebook has no line for it
        text = join_lines(text, t(lang, f"lobby.notebook_{args['notebook']}"))
    if "characters" not in args:
        return text
    chosen = roster_lines(reader, args["characters"])
    two = t(lang, "lobby.two_players") if args.get("two_players") else ""
    none = "" if chosen else t(lang, "lobby.characters_none")
    return join_lines(text, t(lang, "lobby.characters"), *chosen, none, two)


def game_started(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, args)
    roster = "\n".join(roster_lines(reader, args["roster"]))
    cards = "\n".join(card_lines(reader, args["cards"]))
    values = {k: v for k, v in f.items() if k not in ("roster", "cards")}
    values["day_length"] = day_length_text(lang, args["day_length"].seconds)
    return t(lang, "game.started", roster=roster, cards=cards, **values)


def day_opened(reader: Reader, args: dict[str, Any]) -> str:
    """A day's opening; at a day's end, after the day that ended (`ended`), and followed by
    the calls for a replacement (its buttons are under the post)."""
    lang = reader.language
    penalties = [
        t(lang, "day.penalty_line", player=reader.mention(p["user"].id), count=p["count"])
        for p in args["penalties"]
    ]
    f = flat_args(reader, {k: v for k, v in args.items() if k not in ("penalties", "ended")})
    opening = join_lines(t(lang, "day.opened", **f), *penalties)
    if "ended" not in args:
        return opening
    ended = args["ended"]
    # The opening names each penalty and when the day ends: the digest leaves them out.
    parts = [_day_that_ended(reader, ended, opened=True), opening, _wanted(reader, ended)]
    return "\n\n".join(p for p in parts if p)


def day_ended(reader: Reader, args: dict[str, Any]) -> str:
    """The day's end when no day opens with it: the GM's answers, its digest (a post of
    before the digest has none), the wait for the accusation window, the calls for a
    replacement."""
    f = flat_args(reader, {k: v for k, v in args.items() if k in ("window_closes_at",)})
    waiting = (
        t(reader.language, "day.waiting_for_window", **f) if args["waiting_for_window"] else ""
    )
    ended = join_lines(_day_that_ended(reader, args, opened=False), waiting)
    return "\n\n".join(p for p in (ended, _wanted(reader, args)) if p)


def _day_that_ended(reader: Reader, args: dict[str, Any], *, opened: bool) -> str:
    """ "Day N is over", a line for each suggestion the GM answered at its end, the digest."""
    lang = reader.language
    answers = []
    for answer in args.get("answers", []):
        f = flat_args(reader, answer)
        key = "answer.refuted_by_gm" if answer["refuted"] else "answer.not_refuted_by_gm"
        answers.append(t(lang, key, **f))
    head = join_lines(t(lang, "day.ended", day=args["day"]), *answers)
    if "digest" not in args:
        return head
    return join_lines(head, "\n" + day_digest(reader, args["digest"], opened=opened))


def _wanted(reader: Reader, args: dict[str, Any]) -> str:
    """The thread's call for a replacement of each player silent for the game's days."""
    calls = [
        t(reader.language, "replacement.wanted", **flat_args(reader, call))
        for call in args.get("wanted", [])
    ]
    return join_lines(*calls)


def day_digest(reader: Reader, digest: dict[str, Any], *, opened: bool = False) -> str:
    """One line per player: suggestions used, answers owed, penalty, excused, away; then
    how long the next day is. `opened`: in the next day's post, which says the penalties
    and the day's end itself."""
    lang = reader.language
    lines = [t(lang, "digest.title")]
    for seat in digest["seats"]:
        f = flat_args(reader, seat)
        parts = [t(lang, "digest.used", **{**f, "count": seat["quota"]})]
        if seat["owes"]:
            parts.append(t(lang, "digest.owes", **{**f, "count": seat["owes"]}))
        if seat["penalty"] and not opened:
            parts.append(t(lang, "digest.penalty", **{**f, "count": seat["penalty"]}))
        if seat["excused"]:
            parts.append(t(lang, "digest.excused", **{**f, "count": seat["excused"]}))
        if seat["until"] is not None:
            parts.append(t(lang, "digest.away", **f))
        lines.append(t(lang, "digest.line", player=f["player"], facts=" · ".join(parts)))
    if digest["next_day"] is not None and not opened:
        lines.append(t(lang, "digest.next_day", **flat_args(reader, digest)))
    return join_lines(*lines)


def _penalty_note(reader: Reader, args: dict[str, Any], f: dict[str, Any]) -> str:
    """ "… loses 1 suggestion on the next day" (older payloads carry no number: 1)."""
    if not args["penalized"]:
        return ""
    penalty = args.get("penalty", 1)
    return t(reader.language, "answer.penalty_note", **{**f, "penalty": penalty, "count": penalty})


def answer_refuted(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    key = "answer.refuted_by_gm" if args["by_gm"] else "answer.refuted"
    return join_lines(t(reader.language, key, **f), _penalty_note(reader, args, f))


def answer_not_refuted(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    if args["automatic"]:
        key = "answer.not_refuted_auto"
    elif args["by_gm"]:
        key = "answer.not_refuted_by_gm"
    else:
        key = "answer.not_refuted"
    return join_lines(t(reader.language, key, **f), _penalty_note(reader, args, f))


def flagged(key: str, flag: str, extra: str) -> Composer:
    """A message with one more line when a flag is set."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        f = flat_args(reader, args)
        more = t(reader.language, extra, **{"count": 0, **f}) if args.get(flag) else ""
        return join_lines(t(reader.language, key, **f), more)

    return compose


def either(flag: str, when_true: str, when_false: str) -> Composer:
    """One of two messages, by a flag."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        key = when_true if args.get(flag) else when_false
        return t(reader.language, key, **flat_args(reader, args))

    return compose


def settings_changed(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    lines = [
        t(
            lang,
            "settings.line",
            name=t(lang, f"setting.{name}"),
            value=describe_setting(lang, name, value),
        )
        for name, value in args["settings"].items()
    ]
    key = "settings.changed_next_day" if args.get("from_next_day") else "settings.changed"
    return join_lines(t(lang, key), *lines)


def seat_history(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["history"]:
        return t(lang, "dm.seat_history_empty")
    lines = []
    for h in args["history"]:
        f = flat_args(reader, h)
        key = "history.made" if h["mine"] else "history.received"
        answer = t(lang, f"history.answer_{h['answer']}", **f)
        lines.append(t(lang, key, **f) + " " + answer)
    return join_lines(t(lang, "dm.seat_history"), *lines)


def reminder(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, args)
    parts = [t(lang, "dm.reminder", **f)]
    if args["owes"]:
        parts.append(t(lang, "dm.reminder_owes", count=args["owes"]))
    if args["left"]:
        parts.append(t(lang, "dm.reminder_left", count=args["left"]))
    return join_lines(*parts)


def game_resumed(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    ends = t(reader.language, "game.resumed_day_ends", **f) if "ends_at" in args else ""
    return join_lines(t(reader.language, "game.resumed", **f), ends)


def game_ended(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, {k: v for k, v in args.items() if k not in ("accusations", "hands")})
    head = t(lang, f"game.ended_{args['reason']}", **f)
    suspect, weapon, place = args["envelope"].ids
    names = {"suspect": reader.card(suspect), "weapon": reader.card(weapon)}
    names["place"] = reader.card(place)
    forms = card_forms(reader, weapon, place)
    if forms is None:
        envelope = t(lang, "game.envelope_plain", **names)
    else:
        envelope = t(lang, "game.envelope", **names, **forms)
    accusations = [
        t(
            lang,
            _ACCUSATION_LINES[a["correct"]],
            player=reader.mention(a["user"].id),
            cards=reader.cards(a["cards"]),
        )
        for a in args["accusations"]
    ]
    hands = [
        t(
            lang,
            "game.hand_line",
            player=reader.mention(h["user"].id),
            cards=reader.cards(h["cards"]),
        )
        for h in args["hands"]
    ]
    blocks = [head, envelope]
    if accusations:
        blocks.append(join_lines(t(lang, "game.accusations_title"), *accusations))
    blocks.append(join_lines(t(lang, "game.hands_title"), *hands))
    return "\n\n".join(blocks)


def card_shown(reader: Reader, args: dict[str, Any]) -> str:
    """The suggester's card: shown by the target, by the GM in its order, or by the GM as
    the target's standing answer (then no order can be read into it)."""
    if args.get("standing"):
        key = "dm.card_shown_standing"
    else:
        key = "dm.card_shown_by_gm" if args["by_gm"] else "dm.card_shown"
    return t(reader.language, key, **flat_args(reader, args))


GAME_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        "lobby.opened": lobby,
        "game.started": game_started,
        "day.opened": day_opened,
        "day.ended": day_ended,
        "suggestion.made": inflected("suggestion.made"),
        "dm.accusation_received": inflected("dm.accusation_received"),
        "composer.confirm_suggestion": inflected("composer.confirm_suggestion"),
        "accuse.confirm": inflected("accuse.confirm"),
        "answer.refuted": answer_refuted,
        "answer.not_refuted": answer_not_refuted,
        "suggestion.voided": flagged("suggestion.voided", "refunded", "suggestion.refunded"),
        "accusation.made": flagged("accusation.made", "first", "accusation.window_opened"),
        "accusation.wrong": flagged(
            "accusation.wrong", "may_suggest", "accusation.may_still_suggest"
        ),
        "dm.accusation_wrong": flagged(
            "dm.accusation_wrong", "may_suggest", "dm.accusation_wrong_may_suggest"
        ),
        "dm.answer_prompt": either("holds_none", "dm.answer_prompt_none", "dm.answer_prompt"),
        "dm.prompt_closed": prompt_closed,
        "dm.card_shown": card_shown,
        "dm.gm_answered": flagged("dm.gm_answered", "penalized", "dm.gm_answered_penalty"),
        "settings.changed": settings_changed,
        "dm.seat_history": seat_history,
        "dm.reminder": reminder,
        "game.resumed": game_resumed,
        "game.ended": game_ended,
    }
)
