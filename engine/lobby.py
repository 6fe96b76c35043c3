"""Setup: the lobby, settings, and the start (deck, envelope, deal, roles)."""

from __future__ import annotations

import random
from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.cards import CATEGORY_ORDER, CUSTOM, CardId, Category, Pack, deck_counts
from engine.computer import detective_level, next_detective
from engine.decision import Decision
from engine.errors import (
    AlreadyJoined,
    GameExists,
    GameNotRunning,
    InvalidSetting,
    LobbyFull,
    NotADetective,
    NotEnoughPlayers,
    NotJoined,
    PackTooSmall,
    RoleNotASuspect,
    RolesNotChosenMode,
    RoleTaken,
    SettingLocked,
    SettingReason,
)
from engine.format import FormatFor, format_of
from engine.rules import require_admin, require_game, require_host_or_admin, require_lobby
from engine.settings import SCHEDULE_SETTINGS, require_pack_available
from engine.state import Game, LobbyEntry, Phase


def open_lobby(
    state: Game | None, c: cmd.OpenLobby, now: datetime, format_for: FormatFor
) -> Decision:
    """A new game starts as a lobby that its creator joins, in the format its settings
    name (`format_for`: the registry's)."""
    if state is not None:
        raise GameExists()
    require_pack_available(c.settings.pack, c.pack is not None)
    if c.pack is not None and c.settings.pack != CUSTOM:
        raise InvalidSetting(setting="pack", reason=SettingReason.UNKNOWN_PACK)
    found = format_for(c.settings)
    opened = ev.LobbyOpened(
        at=now, seed=c.seed, settings=c.settings, format=found, creator=c.actor, pack=c.pack
    )
    decision = Decision(None, opened)
    decision.extend(join_lobby(decision.state, cmd.JoinLobby(actor=c.actor, role=c.role), now))
    return decision


def join_lobby(state: Game | None, c: cmd.JoinLobby, now: datetime) -> Decision:
    game = require_lobby(state)
    if game.in_lobby(c.actor):
        raise AlreadyJoined()
    maximum = game.player_range[1]
    if len(game.lobby) >= maximum:
        raise LobbyFull(maximum=maximum)
    if c.role is not None:
        _require_free_role(game, c.role)
    return Decision(game, ev.PlayerJoined(at=now, user=c.actor, role=c.role))


def add_detective(state: Game | None, c: cmd.AddDetective, now: datetime) -> Decision:
    """The host seats a computer detective: it joins like a person, under its own id."""
    game = require_lobby(state)
    require_host_or_admin(game, c)
    maximum = game.player_range[1]
    if len(game.lobby) >= maximum:
        raise LobbyFull(maximum=maximum)
    user = next_detective(game.detectives_seated, c.level)
    return Decision(game, ev.PlayerJoined(at=now, user=user))


def remove_detective(state: Game | None, c: cmd.RemoveDetective, now: datetime) -> Decision:
    """The host takes a computer detective out of the lobby."""
    game = require_lobby(state)
    require_host_or_admin(game, c)
    seated = [e.user for e in game.lobby if detective_level(e.user) is not None]
    last = seated[-1] if seated else None
    detective = c.detective if c.detective is not None else last
    if detective is None or detective not in seated:
        raise NotADetective()
    return Decision(game, ev.PlayerLeftLobby(at=now, user=detective))


def _require_free_role(game: Game, role: CardId) -> None:
    """A suspect of the game that nobody in the lobby has chosen, when roles are chosen."""
    if not game.roles_chosen:
        raise RolesNotChosenMode()
    if game.pack.category_of(role) is not Category.SUSPECT:
        raise RoleNotASuspect(card=role)
    if role not in format_of(game).roles(game):
        raise RoleNotASuspect(card=role)
    if any(entry.role == role for entry in game.lobby):
        raise RoleTaken(card=role)


def choose_role(state: Game | None, c: cmd.ChooseRole, now: datetime) -> Decision:
    """First come, first served: a free character joins the lobby with it, or becomes a
    member's new choice; one already chosen is refused (their own choice changes nothing)."""
    game = require_lobby(state)
    if not game.in_lobby(c.actor):
        return join_lobby(game, cmd.JoinLobby(actor=c.actor, role=c.role), now)
    if any(entry.user == c.actor and entry.role == c.role for entry in game.lobby):
        return Decision(game)
    _require_free_role(game, c.role)
    return Decision(game, ev.RoleChosen(at=now, user=c.actor, role=c.role))


def leave_lobby(state: Game | None, c: cmd.LeaveLobby, now: datetime) -> Decision:
    game = require_lobby(state)
    if not game.in_lobby(c.actor):
        raise NotJoined()
    return Decision(game, ev.PlayerLeftLobby(at=now, user=c.actor))


def change_settings(
    state: Game | None, c: cmd.ChangeSettings, now: datetime, format_for: FormatFor
) -> Decision:
    """In the lobby any setting (the format too: `format_for`, the registry's, finds
    it); in a running game only the day schedule, from the next day."""
    game = require_game(state)
    if game.phase is Phase.ENDED:
        raise GameNotRunning()
    if game.phase is Phase.LOBBY:
        require_host_or_admin(game, c)
        if c.changes.get("pack") == CUSTOM and game.custom_pack is None:
            raise InvalidSetting(setting="pack", reason=SettingReason.LOBBY_PACK)
        base = game.settings
    else:
        require_admin(c)
        locked = sorted(set(c.changes) - SCHEDULE_SETTINGS)
        if locked:
            raise SettingLocked(setting=locked[0])
        base = game.pending_settings or game.settings
    changed = base.changed(**c.changes)
    found = format_for(changed)
    names = tuple(sorted(c.changes))
    return Decision(game, ev.SettingsChanged(at=now, settings=changed, format=found, changed=names))


def start_game(state: Game | None, c: cmd.StartGame, now: datetime) -> Decision:
    """Deal from the game's seed; the forum format opens day 1, a table edition deals,
    sets up its table and starts the first turn (`Edition.start`)."""
    game = require_lobby(state)
    require_host_or_admin(game, c)
    minimum, maximum = game.player_range
    if len(game.lobby) < minimum:
        raise NotEnoughPlayers(minimum=minimum, joined=len(game.lobby))
    if len(game.lobby) > maximum:  # the format changed to a smaller table after they joined
        raise LobbyFull(maximum=maximum)
    rng = random.Random(game.seed)
    decision = Decision(game)
    game_format = format_of(game)
    game_format.require_roles_in_play(game)
    game_format.start(decision, rng, now)
    return decision


def _require_pack_size(pack: Pack, counts: dict[Category, int]) -> None:
    missing = {
        category.value: needed - len(pack.cards_of(category))
        for category, needed in counts.items()
        if needed > len(pack.cards_of(category))
    }
    if missing:
        raise PackTooSmall(
            suspects=missing.get("suspect", 0),
            weapons=missing.get("weapon", 0),
            places=missing.get("place", 0),
        )


def forum_cards(game: Game, rng: random.Random) -> dict[Category, list[CardId]]:
    """The forum formula's cards drawn from the pack; chosen roles are always in play."""
    pack = game.pack
    counts = deck_counts(len(game.lobby), game.settings.extra_cards)
    _require_pack_size(pack, counts)
    chosen = [entry.role for entry in game.lobby if entry.role is not None]
    drawn: dict[Category, list[CardId]] = {}
    for category in CATEGORY_ORDER:
        pool = [card for card in pack.cards_of(category) if card not in chosen]
        keep = chosen if category is Category.SUSPECT else []
        drawn[category] = keep + rng.sample(pool, counts[category] - len(keep))
    return drawn


def deal(game: Game, now: datetime, rng: random.Random | None = None) -> ev.GameStarted:
    """Deck, envelope, hands and roles, all drawn from the game's seed (the forum's cards
    by its formula, a table edition's all its cards: the classic's the board game's 21)."""
    rng = rng or random.Random(game.seed)
    drawn = format_of(game).drawn_cards(game, rng)
    order = {card: i for i, card in enumerate(game.pack.all_cards)}
    deck = tuple(sorted((c for cards in drawn.values() for c in cards), key=order.__getitem__))
    envelope = (
        rng.choice(sorted(drawn[Category.SUSPECT], key=order.__getitem__)),
        rng.choice(sorted(drawn[Category.WEAPON], key=order.__getitem__)),
        rng.choice(sorted(drawn[Category.PLACE], key=order.__getitem__)),
    )
    players = len(game.lobby)
    rest = [card for card in deck if card not in envelope]
    rng.shuffle(rest)
    hands = [tuple(sorted(rest[i::players], key=order.__getitem__)) for i in range(players)]
    roles = deal_roles(game.lobby, drawn[Category.SUSPECT], rng, order)
    seats = tuple(
        ev.Deal(user=entry.user, role=role, hand=hand)
        for entry, role, hand in zip(game.lobby, roles, hands, strict=True)
    )
    return ev.GameStarted(at=now, deck=deck, envelope=envelope, seats=seats)


def deal_roles(
    lobby: tuple[LobbyEntry, ...],
    suspects: list[CardId],
    rng: random.Random,
    order: dict[CardId, int],
) -> list[CardId]:
    """Chosen roles stay; everyone else gets a distinct random suspect in play."""
    free = sorted((s for s in suspects if s not in {e.role for e in lobby}), key=order.__getitem__)
    needed = sum(1 for entry in lobby if entry.role is None)
    drawn = iter(rng.sample(free, needed))
    return [entry.role if entry.role is not None else next(drawn) for entry in lobby]
