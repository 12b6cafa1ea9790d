"""Invariants over random legal games (hypothesis chooses the dice and the plays)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.engine import (
    Move,
    Position,
    XgidFields,
    apply_move,
    format_xgid,
    legal_moves,
    match_move,
    outcome,
    parse_xgid,
)
from chouette.engine.movegen import reference_moves

DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


def _step(me: list[int], opp: list[int], p: int, die: int) -> bool:
    """Play one die from ``p`` if the rules allow it (a deliberately plain re-statement)."""
    if me[p] == 0 or (me[25] and p != 25):
        return False
    q = p - die
    if q >= 1:
        if opp[25 - q] >= 2:
            return False
        if opp[25 - q] == 1:
            opp[25 - q] = 0
            opp[25] += 1
    else:
        if any(me[7:26]):
            return False
        if q < 0 and any(me[p + 1 : 7]):
            return False
        q = 0
    me[p] -= 1
    me[q] += 1
    return True


def _naive(position: Position, roll: tuple[int, int]) -> set[Position]:
    """Every maximal play by brute force over all die orders and all checkers."""
    hi, lo = max(roll), min(roll)
    orders = [(hi,) * 4] if hi == lo else [(hi, lo), (lo, hi)]
    ends: dict[tuple[int, ...], set[Position]] = {}

    def walk(me: list[int], opp: list[int], dice: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if dice:
            for p in range(1, 26):
                me2, opp2 = me[:], opp[:]
                if _step(me2, opp2, p, dice[0]):
                    moved = True
                    walk(me2, opp2, dice[1:], used + (dice[0],))
        if not moved:
            ends.setdefault(used, set()).add(Position(tuple(me), tuple(opp)))

    for order in orders:
        walk(list(position.mover), list(position.opponent), order, ())
    most = max(len(used) for used in ends)
    if most == 0:
        return set()
    best = [used for used in ends if len(used) == most]
    if most == 1 and hi != lo and (hi,) in ends:
        best = [(hi,)]
    return set().union(*(ends[used] for used in best))


@st.composite
def games(draw: st.DrawFn, plies: int = 80) -> list[tuple[Position, tuple[int, int]]]:
    """A random legal game: (position, roll) before each play, the player on roll to move."""
    position = Position.initial()
    seen = []
    for _ in range(plies):
        if outcome(position) is not None:
            break
        roll = draw(DICE)
        seen.append((position, roll))
        plays = legal_moves(position, roll)
        if plays:
            position = apply_move(position, plays[draw(st.integers(0, len(plays) - 1))])
        position = position.swap()
    seen.append((position, draw(DICE)))
    return seen


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games())
def test_random_games_keep_fifteen_checkers_a_side_and_one_owner_per_point(game):
    for position, _roll in game:
        for side in (position.mover, position.opponent):
            assert sum(side) == 15 and min(side) >= 0
        assert not any(position.mover[p] and position.opponent[25 - p] for p in range(1, 25))
        if outcome(position) is None:
            assert position.mover[0] < 15 and position.opponent[0] < 15


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games())
def test_position_id_and_xgid_round_trip(game):
    for position, roll in game:
        assert Position.from_id(position.id) == position
        fields = XgidFields(turn=-1 if roll[0] % 2 else 1, dice=f"{roll[0]}{roll[1]}", cube_log2=roll[1] - 1)
        text = format_xgid(position, fields)
        assert parse_xgid(text) == (position, fields)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games(plies=60))
def test_legal_moves_are_the_distinct_maximal_plays(game):
    for position, roll in game:
        plays = legal_moves(position, roll)
        results = [apply_move(position, move) for move in plays]
        assert len(set(results)) == len(results), "plays must be distinct by resulting position"
        assert set(results) == _naive(position, roll)
        assert set(results) == {apply_move(position, m) for m in reference_moves(position, roll)}
        if plays:
            used = {len(move.steps) for move in plays}
            assert len(used) == 1, "every play uses the maximal number of dice"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games(plies=60))
def test_notation_round_trips_and_resolves_to_the_same_play(game):
    for position, roll in game:
        plays = legal_moves(position, roll)
        # Every play is checked by parse/str; a spread of five also through match_move.
        for index, move in enumerate(plays):
            text = str(move)
            assert Move.parse(text) == move
            if index % max(1, len(plays) // 5):
                continue
            assert eval(repr(move)) == move
            assert apply_move(position, match_move(position, roll, text)) == apply_move(position, move)


@st.composite
def scattered_positions(draw: st.DrawFn) -> Position:
    """Any legal arrangement, weighted to the bar and the home boards (bear-off with contact)."""
    spots = st.sampled_from([25, 25, 1, 2, 3, 4, 5, 6, 6, 5, 4, 7, 8, 12, 13, 18, 19, 20, 24])
    mover = [0] * 26
    for point in draw(st.lists(spots, min_size=1, max_size=15)):
        mover[point] += 1
    opponent = [0] * 26
    for point in draw(st.lists(spots, max_size=15)):
        if point == 25 or not mover[25 - point]:
            opponent[point] += 1
    return Position.from_points(mover, opponent)


@settings(max_examples=300, deadline=None)
@given(scattered_positions(), DICE)
def test_legal_moves_match_brute_force_on_scattered_positions(position, roll):
    results = [apply_move(position, move) for move in legal_moves(position, roll)]
    assert len(set(results)) == len(results)
    assert set(results) == _naive(position, roll)
