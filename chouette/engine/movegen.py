"""Legal plays (RULES.md 1.3-1.5): every distinct resulting position of a roll, and applying one.

Speed comes from the shape of the search, not from caching across calls:
- a resulting position is identified while generating by one integer (the change of the mover's
  counts in base 16, plus one bit per point hit), so duplicates cost one dict lookup;
- opposing blocks do not change during a play (a hit only opens a point), so the table of
  "can a die move from here" is built once per call;
- doubles are searched with the steps' source points in non-increasing order: a step from a
  lower point never makes a step from a higher point legal, so every play keeps an ordering
  of that shape and permutations are never visited;
- the common cases (no checker on the bar and no bear-off reachable in this roll) take a
  direct path: two-dice plays are pairs of single steps plus one checker using both dice.
Bar entry and bear-off go through the general search, which is also the reference the fast
paths are tested against.
"""

from __future__ import annotations

from chouette.engine.errors import DiceError
from chouette.engine.moves import Move
from chouette.engine.position import BAR, OFF, Position

Steps = tuple[tuple[int, int, bool], ...]

# Base-16 digit per slot (0 = off .. 25 = bar), then one bit per point hit.
_W = tuple(1 << (4 * i) for i in range(26))
_HIT = tuple(1 << (104 + i) for i in range(26))
_DELTA = tuple(tuple(_W[max(p - d, OFF)] - _W[p] for d in range(7)) for p in range(26))


def check_roll(roll: tuple[int, int]) -> tuple[int, int]:
    """Validate a roll and return it with the larger die first.

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
    >>> str(legal_moves(Position.initial(), (6, 5))[0])
    '24/13'
    """
    hi, lo = check_roll(roll)
    plays = _plays(position, hi, lo)
    return [Move(steps) for steps in plays.values()]


def _plays(position: Position, hi: int, lo: int) -> dict[int, Steps]:
    """Map each resulting position's key to the steps of one play reaching it."""
    me = list(position.mover)
    opp = position.opponent
    # opp_at[q]: opposing checkers on the mover's point q (0 and 25 stay empty).
    opp_at = [0] + [opp[25 - q] for q in range(1, 25)] + [0]
    outside = sum(me[7:26])
    if not me[BAR]:
        if hi != lo and outside >= 2:
            return _fast_pair(me, opp_at, hi, lo)
        if hi == lo and outside >= 4:
            return _fast_double(me, opp_at, hi)
    return general_plays(me, opp_at, hi, lo)


def general_plays(me: list[int], opp_at: list[int], hi: int, lo: int) -> dict[int, Steps]:
    """The reference search: any position, any roll (``me`` is restored before returning)."""
    found: dict[int, dict[int, Steps]] = {}  # dice used -> key -> steps
    single_hi: dict[int, Steps] = {}
    doubles = hi == lo

    def search(dice: tuple[int, ...], steps: Steps, key: int, ceiling: int) -> None:
        die = dice[0]
        extended = False
        for p in range(ceiling, 0, -1):
            if not me[p] or (me[BAR] and p != BAR):
                continue
            q = p - die
            if q >= 1:
                if opp_at[q] >= 2:
                    continue
            elif sum(me[7:26]) or (q < 0 and any(me[p + 1 : 7])):
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
                search(dice[1:], new_steps, new_key, p if doubles else BAR)
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

    if doubles:
        search((hi,) * 4, (), 0, BAR)
    else:
        search((hi, lo), (), 0, BAR)
        search((lo, hi), (), 0, BAR)
    most = max(found)
    if most == 0:
        return {}
    if most == 1 and not doubles and single_hi:
        return single_hi
    return found[most]


def _fast_pair(me: list[int], opp_at: list[int], hi: int, lo: int) -> dict[int, Steps]:
    """Non-doubles with nothing on the bar and at least two checkers outside: no bear-off."""
    from_hi = [p for p in range(24, hi, -1) if me[p] and opp_at[p - hi] < 2]
    from_lo = [p for p in range(24, lo, -1) if me[p] and opp_at[p - lo] < 2]
    plays: dict[int, Steps] = {}
    for p in from_hi:
        a = p - hi
        hit_a = opp_at[a] == 1
        key_a = _DELTA[p][hi]
        # One checker using both dice: through the hi landing, or through the lo landing below.
        b = a - lo
        if b >= 1 and opp_at[b] < 2:
            hit_b = opp_at[b] == 1
            key = key_a + _DELTA[a][lo] + (_HIT[a] if hit_a else 0) + (_HIT[b] if hit_b else 0)
            if key not in plays:
                plays[key] = ((p, a, hit_a), (a, b, hit_b))
        for r in from_lo:
            if r == p and me[p] < 2:
                continue
            b = r - lo
            key = key_a + _DELTA[r][lo]
            if hit_a:
                key += _HIT[a]
                hit_b = False if b == a else opp_at[b] == 1
            else:
                hit_b = opp_at[b] == 1
            if hit_b:
                key += _HIT[b]
            if key not in plays:
                plays[key] = ((p, a, hit_a), (r, b, hit_b))
    for r in from_lo:
        b = r - lo
        a = b - hi
        if a >= 1 and opp_at[a] < 2:
            hit_b = opp_at[b] == 1
            hit_a = opp_at[a] == 1
            key = _DELTA[r][lo] + _DELTA[b][hi] + (_HIT[b] if hit_b else 0) + (_HIT[a] if hit_a else 0)
            if key not in plays:
                plays[key] = ((r, b, hit_b), (b, a, hit_a))
    if plays:
        return plays
    # Only one die can be played: the larger if it can (RULES.md 1.3).
    for p in from_hi or from_lo:
        die = hi if from_hi else lo
        q = p - die
        hit = opp_at[q] == 1
        plays[_DELTA[p][die] + (_HIT[q] if hit else 0)] = ((p, q, hit),)
    return plays


def _fast_double(me: list[int], opp_at: list[int], die: int) -> dict[int, Steps]:
    """Doubles with nothing on the bar and at least four checkers outside: no bear-off."""
    # Points a checker may leave with this die, highest first: blocks never change in a play.
    movable = [p for p in range(24, die, -1) if opp_at[p - die] < 2]
    n = len(movable)
    by_depth: list[dict[int, Steps]] = [{}, {}, {}, {}, {}]
    hit1 = hit2 = hit3 = False
    deepest = 0
    for i in range(n):
        p1 = movable[i]
        if not me[p1]:
            continue
        q1 = p1 - die
        me[p1] -= 1
        me[q1] += 1
        k1 = _DELTA[p1][die]
        hit1 = opp_at[q1] == 1
        if hit1:
            opp_at[q1] = 0
            k1 += _HIT[q1]
        s1 = ((p1, q1, hit1),)
        stuck1 = True
        for j in range(i, n):
            p2 = movable[j]
            if not me[p2]:
                continue
            stuck1 = False
            q2 = p2 - die
            me[p2] -= 1
            me[q2] += 1
            k2 = k1 + _DELTA[p2][die]
            hit2 = opp_at[q2] == 1
            if hit2:
                opp_at[q2] = 0
                k2 += _HIT[q2]
            s2 = s1 + ((p2, q2, hit2),)
            stuck2 = True
            for k in range(j, n):
                p3 = movable[k]
                if not me[p3]:
                    continue
                stuck2 = False
                q3 = p3 - die
                me[p3] -= 1
                me[q3] += 1
                k3 = k2 + _DELTA[p3][die]
                hit3 = opp_at[q3] == 1
                if hit3:
                    opp_at[q3] = 0
                    k3 += _HIT[q3]
                s3 = s2 + ((p3, q3, hit3),)
                stuck3 = True
                for m in range(k, n):
                    p4 = movable[m]
                    if not me[p4]:
                        continue
                    stuck3 = False
                    q4 = p4 - die
                    k4 = k3 + _DELTA[p4][die]
                    hit4 = opp_at[q4] == 1
                    if hit4:
                        k4 += _HIT[q4]
                    if k4 not in by_depth[4]:
                        by_depth[4][k4] = s3 + ((p4, q4, hit4),)
                    deepest = 4
                if stuck3 and deepest < 4 and k3 not in by_depth[3]:
                    by_depth[3][k3] = s3
                    deepest = max(deepest, 3)
                if hit3:
                    opp_at[q3] = 1
                me[q3] -= 1
                me[p3] += 1
            if stuck2 and deepest < 3 and k2 not in by_depth[2]:
                by_depth[2][k2] = s2
                deepest = max(deepest, 2)
            if hit2:
                opp_at[q2] = 1
            me[q2] -= 1
            me[p2] += 1
        if stuck1 and deepest < 2 and k1 not in by_depth[1]:
            by_depth[1][k1] = s1
            deepest = max(deepest, 1)
        if hit1:
            opp_at[q1] = 1
        me[q1] -= 1
        me[p1] += 1
    return by_depth[deepest]


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
    from chouette.engine.errors import IllegalMoveError

    me = list(position.mover)
    opp = list(position.opponent)
    for p, q, _hit in move.hops():
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
