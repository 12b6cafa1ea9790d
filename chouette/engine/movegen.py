"""Legal plays (docs/rules.md 1.3-1.5): every distinct resulting position of a roll, and applying one.

Speed comes from the shape of the search, never from caching answers across calls:
- opposing blocks do not change during a play (a hit only opens a point), so "can this die
  leave that point" is decided once per call;
- a resulting position is named while generating by one integer (the change of the mover's
  counts in base 16, plus one bit per point hit), so a duplicate costs one dict lookup;
- doubles take their steps' source points in non-increasing order (a step from a lower point
  never makes a step from a higher one legal), so permutations are never visited, and without
  bear-off distinct source multisets are distinct plays (see ``fastpaths.double_plays``);
- each shape of roll has its own direct search in ``fastpaths``: pairs of steps plus one checker
  using both dice, doubles, bar entry, and the end of the race where bear-offs are reachable.
``general_plays`` handles anything; it is the reference the fast paths are tested against.
Plays of doubles are built lazily: a ``Move`` derives its steps only when asked.
"""

from __future__ import annotations

from chouette.engine.errors import DiceError, IllegalMoveError
from chouette.engine.fastpaths import (
    HIT,
    W,
    bar_double_plays,
    bar_pair_plays,
    double_plays,
    late_double_plays,
    late_pair_plays,
    pair_plays,
)
from chouette.engine.moves import Move, lazy_double
from chouette.engine.position import BAR, OFF, Position

Steps = tuple[tuple[int, int, bool], ...]

_W = W
_HIT = HIT


def ordered_roll(roll: tuple[int, int]) -> tuple[int, int]:
    """Validate a roll and return it with the larger die first (``(1, 3)`` gives ``(3, 1)``).

    Raises:
        DiceError: not two dice of 1..6.
    """
    try:
        d1, d2 = roll
    except (TypeError, ValueError):
        raise DiceError(f"roll {roll!r}: expected two dice") from None
    if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise DiceError(f"roll {roll!r}: each die must be an int from 1 to 6")
    return (d1, d2) if d1 >= d2 else (d2, d1)


def legal_moves(position: Position, roll: tuple[int, int]) -> list[Move]:
    """Every legal play of ``roll``, one per distinct resulting position, in a deterministic order.

    A roll with no legal play gives an empty list. Raises:
        DiceError: the roll is not two dice of 1..6.

    >>> len(legal_moves(Position.initial(), (3, 1)))
    16
    >>> '24/13' in {str(m) for m in legal_moves(Position.initial(), (6, 5))}
    True
    """
    hi, lo = ordered_roll(roll)
    me = list(position.mover)
    opp = position.opponent
    # opp_at[q]: opposing checkers on the mover's point q (0 and 25 stay empty).
    opp_at = [0, *opp[24:0:-1], 0]
    if hi == lo:
        # The plays of doubles keep opp_at (never changed from here on) to find their hits.
        if me[BAR]:
            fours = bar_double_plays(me, opp_at, hi)
        else:
            outside = sum(me[7:25])
            if outside < 4:
                return list(map(lazy_double, late_double_plays(me, opp_at, hi, outside)))
            fours = double_plays(me, opp_at, hi)
        if fours:
            return list(map(lazy_double, fours))
        # Fewer than four steps can be played: rare, and left to the general search.
        plays = general_plays(me, opp_at, hi, lo)
    elif me[BAR]:
        plays = bar_pair_plays(me, opp_at, hi, lo)
    else:
        outside = sum(me[7:25])
        if outside >= 2:
            return list(map(Move, pair_plays(me, opp_at, hi, lo)))
        plays = late_pair_plays(me, opp_at, hi, lo, outside)
    return list(map(Move, plays.values()))


def reference_moves(position: Position, roll: tuple[int, int]) -> list[Move]:
    """``legal_moves`` by the general search alone: the reference for the fast paths' tests.

    Raises:
        DiceError: the roll is not two dice of 1..6.
    """
    hi, lo = ordered_roll(roll)
    opp = position.opponent
    return list(map(Move, general_plays(list(position.mover), [0, *opp[24:0:-1], 0], hi, lo).values()))


def general_plays(me: list[int], opp_at: list[int], hi: int, lo: int) -> dict[int, Steps]:
    """The reference search: any position, any roll (``me`` and ``opp_at`` are restored)."""
    found: dict[int, dict[int, Steps]] = {}  # dice used -> key -> steps
    single_hi: dict[int, Steps] = {}
    doubles = hi == lo

    def search(dice: tuple[int, ...], steps: Steps, key: int, ceiling: int, outside: int) -> None:
        die = dice[0]
        extended = False
        # Bar checkers enter first; with none outside home only points 6..1 can move.
        points = (BAR,) if me[BAR] else range(min(ceiling, 24 if outside else 6), 0, -1)
        for p in points:
            if not me[p]:
                continue
            q = p - die
            if q >= 1:
                if opp_at[q] >= 2:
                    continue
            elif outside or (q < 0 and any(me[p + 1 : 7])):
                # Bear off only with all home; a larger die only from the highest point.
                continue
            else:
                q = OFF
            hit = q > 0 and opp_at[q] == 1
            me[p] -= 1
            me[q] += 1
            new_key = key + _W[q] - _W[p]
            if hit:
                opp_at[q] = 0
                new_key += _HIT[q]
            new_steps = steps + ((p, q, hit),)
            extended = True
            if len(dice) > 1:
                search(dice[1:], new_steps, new_key, p if doubles else BAR, outside - (p > 6 and q <= 6))
            else:
                found.setdefault(len(new_steps), {}).setdefault(new_key, new_steps)
            if hit:
                opp_at[q] = 1
            me[q] -= 1
            me[p] += 1
        if not extended:
            found.setdefault(len(steps), {}).setdefault(key, steps)
            if len(steps) == 1 and dice[0] != hi:
                # The first step used the larger die and the smaller one is stuck.
                single_hi.setdefault(key, steps)

    outside = sum(me[7:26])
    if doubles:
        search((hi,) * 4, (), 0, BAR, outside)
    else:
        search((hi, lo), (), 0, BAR, outside)
        search((lo, hi), (), 0, BAR, outside)
    most = max(found)
    if most == 0:
        return {}
    if most == 1 and not doubles and single_hi:
        return single_hi
    return found[most]


def apply_steps(position: Position, steps: Steps) -> Position:
    """The position after these single-die steps, still seen from the mover (no legality check)."""
    me = list(position.mover)
    opp = list(position.opponent)
    for p, q, _hit in steps:
        me[p] -= 1
        me[q] += 1
        if q and opp[25 - q] == 1:
            opp[25 - q] = 0
            opp[BAR] += 1
    return Position(tuple(me), tuple(opp))


def apply_move(position: Position, move: Move) -> Position:
    """The position after ``move``, still from the mover's side (call ``swap()`` for the opponent).

    It checks that each checker exists and lands on an open point, not the dice: resolve what a
    person typed with ``match_move``. Raises:
        IllegalMoveError: a step from an empty point or onto a blocked point.

    >>> p = apply_move(Position.initial(), Move.parse("8/5 6/5"))
    >>> p.mover[5], p.mover[8], p.mover[6]
    (2, 2, 4)
    """
    me = list(position.mover)
    opp = list(position.opponent)
    for p, q, _hit in move.steps:
        if me[p] == 0:
            raise IllegalMoveError(f"move {move}: no checker on {p} in position {position.id}")
        if q and opp[25 - q] >= 2:
            raise IllegalMoveError(f"move {move}: point {q} is blocked in position {position.id}")
        me[p] -= 1
        me[q] += 1
        if q and opp[25 - q] == 1:
            opp[25 - q] = 0
            opp[BAR] += 1
    return Position(tuple(me), tuple(opp))
