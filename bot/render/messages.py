"""Whole messages: a payload's key and arguments become one text in the reader's language."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from bot.delivery.payload import upgrade
from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import card_forms, day_length_text, inflected, place_name, prompt_closed
from locales import t

Composer = Callable[[Reader, dict[str, Any]], str]


def _lines(*parts: str) -> str:
    return "\n".join(p for p in parts if p)


def card_lines(reader: Reader, cards: dict[str, list[str]]) -> list[str]:
    """One line per category: "Suspects: A, B, C"."""
    lang = reader.language
    return [
        t(lang, "game.cards_line", category=t(lang, f"category.{cat}"), cards=reader.cards(ids))
        for cat, ids in cards.items()
    ]


def lobby(reader: Reader, args: dict[str, Any]) -> str:
    """The lobby post; a 2023 lobby's adds who has chosen which character."""
    lang = reader.language
    rest = {k: v for k, v in args.items() if k not in ("characters", "two_players")}
    text = t(lang, "lobby.opened", **flat_args(reader, rest))
    if "characters" not in args:
        return text
    chosen = [
        t(
            lang,
            "game.roster_line",
            player=reader.mention(c["user"].id),
            role=reader.card(c["role"]),
        )
        for c in args["characters"]
    ]
    two = t(lang, "lobby.two_players") if args.get("two_players") else ""
    none = "" if chosen else t(lang, "lobby.characters_none")
    return _lines(text, t(lang, "lobby.characters"), *chosen, none, two)


def game_started(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, args)
    roster = "\n".join(
        t(
            lang,
            "game.roster_line",
            player=reader.mention(r["user"].id),
            role=reader.card(r["role"]),
        )
        for r in args["roster"]
    )
    cards = "\n".join(card_lines(reader, args["cards"]))
    values = {k: v for k, v in f.items() if k not in ("roster", "cards")}
    values["day_length"] = day_length_text(lang, args["day_length"].seconds)
    return t(lang, "game.started", roster=roster, cards=cards, **values)


def day_opened(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    penalties = [
        t(lang, "day.penalty_line", player=reader.mention(p["user"].id), count=p["count"])
        for p in args["penalties"]
    ]
    f = flat_args(reader, {k: v for k, v in args.items() if k != "penalties"})
    return _lines(t(lang, "day.opened", **f), *penalties)


def day_ended(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    waiting = (
        t(reader.language, "day.waiting_for_window", **f) if args["waiting_for_window"] else ""
    )
    return _lines(t(reader.language, "day.ended", **f), waiting)


def _penalty_note(reader: Reader, args: dict[str, Any], f: dict[str, Any]) -> str:
    """ "… loses 1 suggestion on the next day" (older payloads carry no number: 1)."""
    if not args["penalized"]:
        return ""
    penalty = args.get("penalty", 1)
    return t(reader.language, "answer.penalty_note", **{**f, "penalty": penalty, "count": penalty})


def answer_refuted(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    key = "answer.refuted_by_gm" if args["by_gm"] else "answer.refuted"
    return _lines(t(reader.language, key, **f), _penalty_note(reader, args, f))


def answer_not_refuted(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    if args["automatic"]:
        key = "answer.not_refuted_auto"
    elif args["by_gm"]:
        key = "answer.not_refuted_by_gm"
    else:
        key = "answer.not_refuted"
    return _lines(t(reader.language, key, **f), _penalty_note(reader, args, f))


def flagged(key: str, flag: str, extra: str) -> Composer:
    """A message with one more line when a flag is set."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        f = flat_args(reader, args)
        more = t(reader.language, extra, **{"count": 0, **f}) if args.get(flag) else ""
        return _lines(t(reader.language, key, **f), more)

    return compose


def either(flag: str, when_true: str, when_false: str) -> Composer:
    """One of two messages, by a flag."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        key = when_true if args.get(flag) else when_false
        return t(reader.language, key, **flat_args(reader, args))

    return compose


def settings_changed(reader: Reader, args: dict[str, Any]) -> str:
    from bot.settings_text import describe_setting

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
    return _lines(t(lang, key), *lines)


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
    return _lines(t(lang, "dm.seat_history"), *lines)


def reminder(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    f = flat_args(reader, args)
    parts = [t(lang, "dm.reminder", **f)]
    if args["owes"]:
        parts.append(t(lang, "dm.reminder_owes", count=args["owes"]))
    if args["left"]:
        parts.append(t(lang, "dm.reminder_left", count=args["left"]))
    return _lines(*parts)


def game_resumed(reader: Reader, args: dict[str, Any]) -> str:
    f = flat_args(reader, args)
    ends = t(reader.language, "game.resumed_day_ends", **f) if "ends_at" in args else ""
    return _lines(t(reader.language, "game.resumed", **f), ends)


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
            "game.accusation_right" if a["correct"] else "game.accusation_line",
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
        blocks.append(_lines(t(lang, "game.accusations_title"), *accusations))
    blocks.append(_lines(t(lang, "game.hands_title"), *hands))
    return "\n\n".join(blocks)


def _with_labels(reader: Reader, item: dict[str, Any]) -> Reader:
    """The reader of one item that carries its own game's card names."""
    return Reader(reader.language, reader.timezone, reader.people, item.get("labels") or {})


def games_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["games"]:
        return t(lang, "games.none")
    lines = [
        t(lang, f"games.line_{g['phase']}", **flat_args(reader, g), place=place_name(lang, g))
        for g in args["games"]
    ]
    return _lines(t(lang, "games.title"), *lines)


def hand_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["views"]:
        return t(lang, "hand.none")
    blocks = []
    for view in args["views"]:
        reader = _with_labels(reader, view)
        f = flat_args(reader, {k: v for k, v in view.items() if k not in ("shown", "also_seen")})
        shown = [
            t(
                lang,
                "hand.table_shown_line" if "turn" in s else "hand.shown_line",
                day=s.get("day", ""),
                turn=s.get("turn", ""),
                number=s["number"],
                card=reader.card(s["card"]),
            )
            for s in view["shown"]
        ]
        if view.get("also_seen"):  # the 2023 edition: cards seen in rooms, by clue cards
            seen = ", ".join(reader.card(card) for card in view["also_seen"])
            shown.append(t(lang, "hand.y2023_line", cards=seen))
        place = place_name(lang, view)
        blocks.append(_lines(t(lang, "hand.game", **{**f, "place": place}), *shown))
    return "\n\n".join(blocks)


def status(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    reader = Reader(lang, args.get("tz", reader.timezone), reader.people)
    if args["phase"] == "lobby":
        return t(lang, "status.lobby", **flat_args(reader, {"players": args["lobby"]}))
    if args["phase"] == "ended":
        return t(lang, "status.ended")
    f = flat_args(reader, {k: v for k, v in args.items() if k not in ("seats", "lobby")})
    if args["paused"]:
        head = t(lang, "status.paused", **f)
    elif args["day_open"]:
        head = t(lang, "status.day", **f)
    else:
        head = t(lang, "status.no_day", **f)
    window = t(lang, "status.window", **f) if args["window_at"] else ""
    seats = []
    for seat in args["seats"]:
        state = (
            "status.seat_left"
            if not seat["active"]
            else ("status.seat_eliminated" if seat["eliminated"] else "status.seat")
        )
        seats.append(
            t(
                lang,
                state,
                player=reader.mention(seat["user"].id),
                left=seat["left"],
                owes=seat["owes"],
                accused=t(lang, "status.accused")
                if seat["accused"] and not seat["eliminated"]
                else "",
            )
        )
    return "\n\n".join(part for part in (_lines(head, window), _lines(*seats)) if part)


def cards_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    lines = card_lines(reader, args["cards"])
    title = "cards.title_in_play" if args["in_play"] else "cards.title_pack"
    return _lines(t(lang, title), *lines)


def settings_list(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    from bot.settings_text import describe_setting

    lines = [
        t(
            lang,
            "settings.list_line",
            name=name,
            label=html.escape(t(lang, f"setting.{name}")),
            value=html.escape(describe_setting(lang, name, value)),
        )
        for name, value in args["settings"].items()
    ]
    title = "settings.title_game" if args["for_game"] else "settings.title_chat"
    return "\n\n".join((_lines(t(lang, title), *lines), t(lang, "settings.how_to_change")))


def day_log(reader: Reader, args: dict[str, Any]) -> str:
    lang = reader.language
    if not args["entries"]:
        return t(lang, "log.empty", day=args["day"])
    lines = []
    for entry in args["entries"]:
        f = flat_args(reader, entry)
        answer = f"log.answer_{entry['answer']}" + ("_gm" if entry["by_gm"] else "")
        lines.append(t(lang, "log.line", **f) + " " + t(lang, answer, **f))
    return _lines(t(lang, "log.title", day=args["day"]), *lines)


def pack_listing(key: str) -> Composer:
    """A pack message, followed by the pack's cards when there are any."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        lang = reader.language
        head = t(lang, key)
        if not args.get("cards"):
            return head
        return _lines(head, *card_lines(reader, args["cards"]))

    return compose


COMPOSERS: dict[str, Composer] = {
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
    "accusation.wrong": flagged("accusation.wrong", "may_suggest", "accusation.may_still_suggest"),
    "dm.accusation_wrong": flagged(
        "dm.accusation_wrong", "may_suggest", "dm.accusation_wrong_may_suggest"
    ),
    "dm.answer_prompt": either("holds_none", "dm.answer_prompt_none", "dm.answer_prompt"),
    "dm.prompt_closed": prompt_closed,
    "dm.card_shown": either("by_gm", "dm.card_shown_by_gm", "dm.card_shown"),
    "dm.gm_answered": flagged("dm.gm_answered", "penalized", "dm.gm_answered_penalty"),
    "settings.changed": settings_changed,
    "dm.seat_history": seat_history,
    "dm.reminder": reminder,
    "game.resumed": game_resumed,
    "game.ended": game_ended,
    "games.list": games_list,
    "hand.list": hand_list,
    "status.game": status,
    "cards.list": cards_list,
    "settings.list": settings_list,
    "log.day": day_log,
    "pack.usage": pack_listing("pack.usage"),
    "pack.saved": pack_listing("pack.saved"),
}


def _table_composers() -> dict[str, Composer]:
    from bot.render.table_messages import TABLE_COMPOSERS  # it builds on this module

    return TABLE_COMPOSERS


def compose(reader: Reader, msg: str, args: dict[str, Any]) -> str:
    """The text of a message; plain catalog messages need no composer. A private message of
    a game (it carries `game_label`) opens with the game's chat and topic. Arguments are
    typed values; format-1 names (`hand_cards`, …) are upgraded first."""
    args = upgrade(args)
    composer = COMPOSERS.get(msg) or _table_composers().get(msg)
    if composer is not None:
        text = composer(reader, args)
    else:
        text = t(reader.language, msg, **flat_args(reader, args))
    if "game_label" in args:
        place = t(reader.language, "game.place_line", place=place_name(reader.language, args))
        return _lines(place, text)
    return text
