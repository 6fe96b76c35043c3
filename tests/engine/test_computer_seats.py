"""Computer detectives at the table as the rules see them: seated from the lobby or into a
left player's seat, named by their ids, cued by the game's clock, counted apart in records."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from engine import commands as cmd
from engine.computer import Level, detective_level, detective_number, detective_user
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.detectives import cued_move
from engine.errors import AdminOnly, LobbyFull, NotADetective, OnlyHostOrAdmin
from engine.events import Event
from engine.settings import Settings
from engine.state import Game
from engine.stats import chat_records
from simulation.detectives import DetectiveGame
from tests.support.table import T0


def _after(state: Game | None, command: cmd.Command) -> Game:
    """The state after a command the rules accept."""
    after = decide_and_apply(state, command, T0).after
    assert after is not None
    return after


def _lobby(people: int = 2, settings: Settings | None = None) -> tuple[list[Event], Game]:
    decision = decide_and_apply(
        None, cmd.OpenLobby(actor=1, seed=7, settings=settings or Settings()), T0
    )
    events = list(decision.events)
    state = decision.after
    for user in range(2, people + 1):
        step = decide_and_apply(state, cmd.JoinLobby(actor=user), T0)
        events += step.events
        state = step.after
    assert state is not None
    return events, state


def test_a_detectives_id_carries_its_number_and_level_and_no_person_has_one() -> None:
    for number in (1, 2, 9, 123):
        for level in Level:
            user = detective_user(number, level)
            assert user < 0
            assert (detective_level(user), detective_number(user)) == (level, number)
    assert detective_level(1) is None and detective_level(987654321) is None


def test_the_host_seats_detectives_and_takes_them_out_others_may_not() -> None:
    _, lobby = _lobby()
    with pytest.raises(OnlyHostOrAdmin):
        decide_and_apply(lobby, cmd.AddDetective(actor=2, level=Level.SLEUTH), T0)
    one = _after(lobby, cmd.AddDetective(actor=1, level=Level.SLEUTH))
    two = _after(one, cmd.AddDetective(actor=1, level=Level.INSPECTOR))
    seated = [e.user for e in two.lobby if detective_level(e.user) is not None]
    assert [detective_level(u) for u in seated] == [Level.SLEUTH, Level.INSPECTOR]
    assert [detective_number(u) for u in seated] == [1, 2]
    with pytest.raises(NotADetective):
        decide_and_apply(two, cmd.RemoveDetective(actor=1, detective=2), T0)
    out = _after(two, cmd.RemoveDetective(actor=1, detective=seated[0]))
    assert [e.user for e in out.lobby] == [1, 2, seated[1]]
    last_out = _after(two, cmd.RemoveDetective(actor=1))  # no id: the one seated last
    assert [e.user for e in last_out.lobby] == [1, 2, seated[0]]
    # A number is never given twice: the next detective is number 3.
    again = _after(out, cmd.AddDetective(actor=1, level=Level.SLEUTH))
    assert detective_number(again.lobby[-1].user) == 3
    # An admin may seat one too; a full lobby takes none.
    _, full = _lobby(3, Settings(max_players=3))
    with pytest.raises(LobbyFull):
        decide_and_apply(
            full, cmd.AddDetective(actor=9, actor_is_admin=True, level=Level.NOVICE), T0
        )


def test_a_detective_never_runs_the_lobby() -> None:
    _, lobby = _lobby(1)
    lobby = _after(lobby, cmd.AddDetective(actor=1, level=Level.NOVICE))
    lobby = _after(lobby, cmd.JoinLobby(actor=5))
    left = _after(lobby, cmd.LeaveLobby(actor=1))
    assert left.lobby_host == 5  # the person, though the detective waited longer
    alone = _after(left, cmd.LeaveLobby(actor=5))
    assert alone.lobby_host is None  # only a detective is left: an admin runs the lobby


def test_a_detectives_move_is_cued_the_delay_after_the_last_change() -> None:
    _, lobby = _lobby(2, Settings(format="classic", detective_delay=timedelta(seconds=5)))
    lobby = _after(lobby, cmd.AddDetective(actor=1, level=Level.INSPECTOR))
    decision = decide_and_apply(lobby, cmd.StartGame(actor=1), T0)
    game = decision.after
    assert game is not None
    events = list(decision.events)
    seat = next(p.seat for p in game.players if detective_level(p.user) is not None)
    due = next(d for d in deadlines(game) if d.key == f"detective:{seat}")
    cue = due.command
    assert isinstance(cue, cmd.DetectiveCue)
    assert due.at == T0 + timedelta(seconds=5)
    assert cued_move(game, events, cue, T0) is None  # early: nothing yet
    # When it is the detective's turn the cue gives its move; the cue alone changes nothing.
    assert decide_and_apply(game, cue, due.at).events == []
    table = game.table
    assert table is not None
    move = cued_move(game, events, cue, due.at)
    if table.current == seat:
        assert move is not None and move.actor == game.players[seat].user
    else:
        assert move is None


def test_an_admin_hands_a_seat_to_a_detective_which_plays_it() -> None:
    played = DetectiveGame(seed=3, levels=(Level.SLEUTH,) * 4)
    played.setup()
    game = played.game
    with pytest.raises(AdminOnly):
        decide_and_apply(game, cmd.SeatDetective(actor=1, player=2, level=Level.NOVICE), T0)
    seat = game.player_of(2)
    assert seat is not None
    after = _after(
        game, cmd.SeatDetective(actor=1, actor_is_admin=True, player=2, level=Level.NOVICE)
    )
    newcomer = after.players[seat.seat].user
    assert detective_level(newcomer) is Level.NOVICE and after.players[seat.seat].hand == seat.hand


def test_games_with_detectives_are_counted_apart() -> None:
    people = [DetectiveGame(seed, (Level.INSPECTOR,) * 4) for seed in range(3)]
    for g in people:
        g.play()
    # The simulation seats its detectives under people's ids: make two of the games theirs.
    computers = []
    for g in people[:2]:
        seated = tuple(
            replace(p, user=detective_user(p.seat + 1, Level.INSPECTOR)) if p.seat < 2 else p
            for p in g.game.players
        )
        computers.append(replace(g.game, players=seated, computers_played=True))
    # A game a detective played in, then handed to a person, is still counted apart.
    computers.append(replace(computers[0], players=people[0].game.players))
    records = chat_records([people[2].game, *computers])
    assert records.played == 1 and records.computer_games == 3
    winners = [c.players[c.winner].user for c in computers if c.winner is not None]
    assert records.computer_won == sum(detective_level(u) is not None for u in winners)
    assert records.computer_people_won == sum(detective_level(u) is None for u in winners)
    assert all(detective_level(r.user) is None for r in records.players)


def test_a_detective_never_lets_its_turn_run_out() -> None:
    """A pause longer than the turn's clock: the cue comes halfway to the turn's end."""
    settings = Settings(
        format="classic", detective_delay=timedelta(minutes=5), turn_time=timedelta(minutes=1)
    )
    _, lobby = _lobby(2, settings)
    lobby = _after(lobby, cmd.AddDetective(actor=1, level=Level.NOVICE))
    game = _after(lobby, cmd.StartGame(actor=1))
    table = game.table
    assert table is not None and table.due is not None
    seat = next(p.seat for p in game.players if detective_level(p.user) is not None)
    cue = next(d for d in deadlines(game) if d.key == f"detective:{seat}")
    assert cue.at == T0 + (table.due - T0) / 2 < table.due
