"""The board's tap hints (chouette.web.board_taps): offered targets belong to legal plays.

The proof of "the server's legal plays decide": whatever steps were chosen before, every target
the board offers leads on to a play that the server's own move check (``match_move``) accepts,
the board never leaves a player stuck half-way, and every legal play can be tapped.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.engine import Position, apply_move, legal_moves, match_move
from chouette.engine.movegen import apply_steps
from chouette.services.chance import forced_play
from chouette.table import TableState, fold
from chouette.web.board_svg import render_board
from chouette.web.board_taps import (
    decode,
    encode,
    hops,
    offered_targets,
    tap_graph,
    tap_text,
    walk,
)
from tests.engine.test_engine_properties import scattered_positions

DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def played_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random legal game from the start (contact, hits, races)."""
    position = Position.initial()
    for _ in range(draw(st.integers(0, 70))):
        plays = legal_moves(position, draw(DICE))
        if plays:
            position = apply_move(position, plays[draw(st.integers(0, len(plays) - 1))])
        if position.mover[0] == 15:
            break
        position = position.swap()
    return position


POSITIONS = st.one_of(played_positions(), scattered_positions())


def steps_of(chains) -> tuple[tuple[int, int, bool], ...]:
    """The single-die steps of the taps taken."""
    return tuple((p, q, hit) for chain in chains for p, q, hit, _next in chain)


def finish(graph, node: int, text: str, chains: list) -> tuple[int, str, list]:
    """Go on from ``node`` by the first target offered until nothing is offered."""
    while True:
        targets = offered_targets(graph, node)
        if not targets:
            return node, text, chains
        start = next(iter(targets))
        chain = next(iter(targets[start].values()))
        text = f"{text} {tap_text(chain)}".strip()
        chains = [*chains, chain]
        node = chain[-1][3]


def assert_accepted(position: Position, dice, text: str, chains) -> None:
    """The server takes ``text`` as the play the board drew (same resulting position)."""
    drawn = apply_steps(position, steps_of(chains))
    played = apply_move(position, match_move(position, dice, text))
    assert played == drawn, f"{position.id} {dice}: {text!r} is {played.id}, the board drew {drawn.id}"


@SLOW
@given(POSITIONS, DICE, st.data())
def test_every_target_offered_after_any_chosen_steps_belongs_to_a_legal_play(position, dice, data):
    graph = tap_graph(position, dice)
    node, text, chains = 0, "", []
    while True:
        targets = offered_targets(graph, node)
        # Every target offered here, tapped, then any way on: the server accepts the play.
        for start, ends in targets.items():
            assert position.mover[start] or any(c[-1][1] == start for c in chains), "a checker is there"
            for chain in ends.values():
                tapped = f"{text} {tap_text(chain)}".strip()
                end, whole, taken = finish(graph, chain[-1][3], tapped, [*chains, chain])
                assert not graph.nodes[end]
                assert_accepted(position, dice, whole, taken)
        if not targets:
            break
        # Choose one of them, as a player would, and look again.
        start = data.draw(st.sampled_from(sorted(targets)))
        end = data.draw(st.sampled_from(sorted(targets[start])))
        chain = targets[start][end]
        text = f"{text} {tap_text(chain)}".strip()
        chains.append(chain)
        node = chain[-1][3]
        # What the taps wrote reads back to the same place (a swapped board redraws from it).
        walked = walk(graph, text)
        assert (walked.node, walked.whole) == (node, True)
    # Nothing more offered: the play is whole, and it is legal (or nothing could be played).
    assert not graph.nodes[node]
    if legal_moves(position, dice):
        assert_accepted(position, dice, text, chains)
    else:
        assert text == "" and graph.nodes == ((),)


@SLOW
@given(POSITIONS, DICE)
def test_every_legal_play_can_be_tapped_one_die_at_a_time(position, dice):
    graph = tap_graph(position, dice)
    for move in legal_moves(position, dice):
        # One tap per die, in the engine's order: the board ends on a whole play.
        one_by_one = " ".join(f"{p}/{q}" for p, q, _hit in move.steps).replace("25/", "bar/")
        node, chains, whole = walk(graph, one_by_one)
        assert whole and not graph.nodes[node], f"{position.id} {dice}: {one_by_one} stops at {node}"
        assert apply_steps(position, steps_of(chains)) == apply_move(position, move)
        # The play as written (typed by hand), when it reads as taps in its order (bar/23(2)
        # with 1-1 does not: the second checker enters before the first moves on): drawn as it.
        node, chains, whole = walk(graph, str(move))
        if whole:
            assert apply_steps(position, steps_of(chains)) == apply_move(position, move), str(move)


@settings(max_examples=60, deadline=None)
@given(POSITIONS, DICE)
def test_the_wire_format_round_trips(position, dice):
    graph = tap_graph(position, dice)
    assert decode(encode(graph)) == graph


def targets_after(position: Position, dice, text: str) -> dict[int, list[int]]:
    graph = tap_graph(position, dice)
    return {start: sorted(ends) for start, ends in offered_targets(graph, walk(graph, text).node).items()}


def test_four_two_after_13_9_offers_only_the_two_from_13():
    """The reported bug: with 4-2, after 13/9 the 13 may use only the 2 (13/11), not 9 again."""
    assert targets_after(Position.initial(), (4, 2), "13/9")[13] == [11]
    assert targets_after(Position.initial(), (4, 2), "")[13] == [7, 9, 11]


def test_doubles_offer_one_to_four_dice_and_fewer_as_they_are_used():
    start = targets_after(Position.initial(), (3, 3), "")
    assert start[24] == [15, 18, 21] and start[13] == [4, 7, 10]  # 1 is the opponent's 24 point
    assert targets_after(Position.initial(), (3, 3), "13/10 13/10")[13] == [7, 10]
    assert targets_after(Position.initial(), (3, 3), "13/10 13/10 13/10")[13] == [10]
    assert targets_after(Position.initial(), (3, 3), "13/10(4)") == {}


def test_bar_first_then_the_rest():
    entering = Position.from_points({25: 1, 6: 14}, {6: 15})
    assert targets_after(entering, (3, 1), "") == {25: [21, 22, 24]}
    assert targets_after(entering, (3, 1), "bar/22")[22] == [21]
    assert 6 in targets_after(entering, (3, 1), "bar/22")


def test_bearing_off_uses_a_larger_die_only_from_the_highest_point():
    home = Position.from_points({5: 1, 3: 2}, {6: 15})
    assert targets_after(home, (6, 2), "") == {5: [0, 3], 3: [1]}
    # After 5/off (the 6) the 3 is the highest point, but the 2 does not reach off: 3/1 only.
    assert targets_after(home, (6, 2), "5/off") == {3: [1]}


def test_a_tap_through_a_blot_writes_the_hit():
    # 6-1, an opposing blot on 7 and the 12 point blocked: 13 reaches 6 only through the blot.
    position = Position.from_points({13: 1, 6: 5, 8: 3, 24: 2, 1: 4}, {18: 1, 13: 2, 6: 12})
    graph = tap_graph(position, (6, 1))
    chain = offered_targets(graph, 0)[13][6]
    assert tap_text(chain) == "13/7*/6"
    assert hops("13/7*/6") == [(13, 7), (7, 6)]


@pytest.mark.parametrize("text", ["", "24/18 13/8", "bar/22 6/4(2)", "13/7*/6 8/off"])
def test_hops_read_what_taps_write(text):
    assert hops(text) is not None


def test_no_legal_play_gives_one_node_and_no_target():
    closed = Position.from_points({25: 2, 6: 13}, dict.fromkeys(range(1, 7), 2) | {12: 3})
    graph = tap_graph(closed, (6, 5))
    assert graph.nodes == ((),) and encode(graph) == "" and offered_targets(graph, 0) == {}


# --- online play (issue 26): the forced move's one tap, and the board played from one's side --


@SLOW
@given(POSITIONS, DICE)
def test_a_forced_play_is_the_one_play_the_taps_compose(position, dice):
    """``chance.forced_play`` (the "Play the forced move" button, and the play made by itself)
    names a play only when the board could compose no other: the taps offered, followed any
    way, end in that play's position; with more than one legal play it names none."""
    state = _state_with(position, dice)
    forced = forced_play(state)
    plays = legal_moves(position, dice)
    if len(plays) != 1:
        assert forced is None
        return
    assert forced == str(plays[0])
    graph = tap_graph(position, dice)
    ends = {apply_steps(position, steps_of(chains)) for chains in _every_composition(graph)}
    assert ends == {apply_move(position, plays[0])}


@settings(max_examples=60, deadline=None)
@given(POSITIONS, DICE, st.sampled_from(["box", "team"]))
def test_the_player_on_roll_sees_their_points_named_by_their_own_numbers(position, dice, side):
    """Online, the player on roll has their side at the bottom, numbered as they count: each
    point is a button whose name is the number that taps on it write (``data-point``)."""
    svg = render_board(position, bottom=side, on_roll=side, dice=dice, numbering="bottom",
                       controls=True)
    named = re.findall(r'<g class="point[^"]*" data-point="(\d+)"[^>]*role="button" tabindex="0" '
                       r'aria-label="Point (\d+)', svg)
    assert len(named) == 24 and all(point == number for point, number in named)
    assert 'role="group"' in svg and 'role="img"' not in svg


def _every_composition(graph, node: int = 0, chains: tuple = ()) -> list[tuple]:
    """Every sequence of offered taps from ``node`` to a whole play (the chains taken)."""
    targets = offered_targets(graph, node)
    if not targets:
        return [chains]
    found = []
    for ends in targets.values():
        for chain in ends.values():
            found += _every_composition(graph, chain[-1][3], (*chains, chain))
    return found


def _state_with(position: Position, dice) -> TableState:
    """A table whose game has ``position`` on the board, the box on roll with ``dice``."""
    state = fold({}, [{"type": "join", "player": "A"}, {"type": "join", "player": "B"},
                      {"type": "order", "players": ["A", "B"]},
                      {"type": "opening_roll", "box": 2, "team": 1}])
    game = state.game
    assert game is not None
    game.position, game.dice, game.on_roll = position, tuple(dice), "box"
    return state
