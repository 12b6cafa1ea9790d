"""The money bounds of the rules (issue 12, finding 5): a cube goes no higher than MAX_CUBE
(4096), a stake no higher than MAX_STAKE_CENTS (1,000,000.00 a point); past them the rules
refuse with the reason and the table goes on (never a stuck table); at them every amount is
exact and far inside 64 bits."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event, fold, new_table
from chouette.table.cube_rules import MAX_CUBE
from chouette.table.errors import LogError
from chouette.table.settings import MAX_STAKE_CENTS

from .helpers import beaver, cents, double, points, raccoon, result, run, seated, take

#: 12 doubles, each taken, alternating between the box and B: B's cube goes 2, 4, ... 4096.
TO_THE_LIMIT = [event for n in range(12)
                for event in ((double("box", "B"), take("B")) if n % 2 == 0 else (double("B"), take("B")))]


def test_the_bounds_are_those_the_readme_states():
    assert MAX_CUBE == 4096 == 2**12
    assert MAX_STAKE_CENTS == 100_000_000  # 1,000,000.00 a point


def test_every_cube_value_up_to_the_limit_is_played_and_the_next_double_is_refused():
    state = seated("AB")
    values = []
    for event in TO_THE_LIMIT:
        state = apply_event(state, event)
        values.append(state.game.cubes["B"].value)
    assert values[1::2] == [2**n for n in range(1, 13)]
    before = state
    # The box owns the cube at 4096 (it took B's last double): its redouble is refused.
    with pytest.raises(TableError, match=r"a cube goes no higher than 4096: B's cube would reach 8192") as refused:
        apply_event(state, double("box", "B"))
    assert refused.value.params == {"max": 4096, "name": "B", "value": 8192}
    assert before.game.cubes["B"].value == 4096 and before.game.pending == []
    # Not stuck: the game ends at 4096 and is booked to the cent.
    state = apply_event(state, result("team", "backgammon"))
    assert points(state) == {"A": -3 * 4096, "B": 3 * 4096}


def test_the_limit_is_checked_in_the_fold_too():
    with pytest.raises(LogError, match="a cube goes no higher than 4096"):
        fold({}, [{"type": "join", "player": "A"}, {"type": "join", "player": "B"},
                  {"type": "order", "players": ["A", "B"]}, *TO_THE_LIMIT, double("box", "B")])


def test_69_redoubles_stop_at_the_limit_and_the_result_is_booked():
    state, refused = seated("AB", stake_cents=MAX_STAKE_CENTS), 0
    for n in range(69):
        event = double("box", "B") if n % 2 == 0 else double("B")
        try:
            state = run(state, event, take("B"))
        except TableError:
            refused += 1
    assert state.game.cubes["B"].value == MAX_CUBE and refused == 69 - 12
    state = apply_event(state, result("box", "backgammon"))
    assert cents(state) == {"A": 3 * 4096 * MAX_STAKE_CENTS, "B": -3 * 4096 * MAX_STAKE_CENTS}


def test_a_beaver_or_raccoon_past_the_limit_is_refused_and_take_or_drop_remain():
    # Ten automatic doubles (the rules' own highest setting) take every cube to 1024.
    state = seated("AB", automatic_doubles=10, beavers=True, raccoons=True)
    for _ in range(10):
        state = apply_event(state, {"type": "opening_roll", "box": 3, "team": 3})
    assert state.game.cubes["B"].value == 1024
    state = run(state, double("box", "B"), beaver("B"))  # 2048, then 4096
    with pytest.raises(TableError, match="B's cube would reach 8192"):
        apply_event(state, raccoon("B"))
    assert apply_event(state, take("B")).game.cubes["B"].value == 4096
    state = run(seated("AB", beavers=True), *TO_THE_LIMIT[:-2], double("B"))  # 4096 offered
    with pytest.raises(TableError, match="B's cube would reach 8192"):
        apply_event(state, beaver("B"))
    assert apply_event(state, take("B")).game.cubes["B"].value == 4096


def test_an_extra_cube_past_the_limit_is_refused():
    state = seated("ABCDE", extras=True, all_but_one="off")
    state = run(state, double("box", "B", "C", "D", "E"), take("B"),
                *(({"type": "drop", "cube": m}) for m in "CDE"),
                {"type": "extra", "from": "C", "to": "B"})
    # The extra 2-cube is owned by B (the taker); redoubled in turn by B and C up to 4096,
    # which C owns.
    for n in range(11):
        doubler = "B" if n % 2 == 0 else "C"
        state = run(state, {"type": "double", "by": doubler, "extra": "C"},
                    {"type": "take", "extra": "C"})
    assert state.game.extras[0].value == 4096
    with pytest.raises(TableError, match="the extra cube C gave B would reach 8192"):
        apply_event(state, {"type": "double", "by": "C", "extra": "C"})


@pytest.mark.parametrize("stake", [MAX_STAKE_CENTS + 1, 10**17, 10**30])
def test_a_players_stake_past_the_limit_is_refused(stake):
    table = new_table({"per_player_stakes": True})
    with pytest.raises(TableError, match=r"A's stake can be at most 1000000.00 a point"):
        apply_event(table, {"type": "join", "player": "A", "stake_cents": stake})


def test_at_the_bounds_every_amount_is_exact_and_far_inside_64_bits():
    players = [f"P{n}" for n in range(30)]
    state = new_table({"per_player_stakes": True, "stake_cents": MAX_STAKE_CENTS, "partner_min_players": 0})
    for name in players:
        state = apply_event(state, {"type": "join", "player": name, "stake_cents": MAX_STAKE_CENTS})
    state = run(state, {"type": "order", "players": players})
    members = players[1:]
    for _round in range(6):  # the box doubles all 29 members, each takes and redoubles: 4096
        state = run(state, double("box", *members), *(take(m) for m in members))
        for member in members:
            state = run(state, double(member), take(member))
    assert {cube.value for cube in state.game.cubes.values()} == {MAX_CUBE}
    state = apply_event(state, result("box", "backgammon"))
    box = 29 * 3 * MAX_CUBE * MAX_STAKE_CENTS
    assert cents(state)["P0"] == box and sum(cents(state).values()) == 0
    assert box < 2**63 // 100_000  # a hundred thousand such games still fit a 64-bit column


def test_a_single_cube_beaver_past_the_limit_is_refused_when_made_and_the_table_goes_on():
    """With a single cube the captain's beaver waits for every member's answer: past the limit
    it must be refused at once, or no member's answer after it could stand (a stuck table)."""
    state = seated("ABC", cube_mode="single", beavers=True)
    for n in range(11):  # the team doubles first: the box owns the cube at 2, 8, ... 2048
        state = run(state, double("B"), take("team")) if n % 2 == 0 else run(
            state, double("box"), take("B"), take("C"))
    assert state.game.cubes["B"].value == 2048 and state.game.cubes["B"].owner == "box"
    state = apply_event(state, double("box"))  # 4096: at the limit, allowed
    with pytest.raises(TableError, match=r"a cube goes no higher than 4096: B's cube would reach 8192") as refused:
        apply_event(state, beaver("B"))
    assert refused.value.params == {"max": 4096, "name": "B", "value": 8192}
    # The team answers as it may: a take stands and the game goes on at 4096.
    state = run(state, take("B"), take("C"))
    assert state.game.cubes["B"].value == state.game.cubes["C"].value == 4096
    assert state.game.pending == []
