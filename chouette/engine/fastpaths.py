"""Direct searches for the common shapes of a roll; ``movegen.general_plays`` is their reference.

Every function takes ``me`` (the mover's 26 counts, a list it restores before returning) and
``opp_at`` (opposing checkers on each of the mover's points, restored too) and returns one
entry per distinct resulting position:
- for non-doubles, plays as tuples of steps ``(from, to, hit)``: a list when the search cannot
  produce the same position twice, else a dict keyed by the position's key (``W``, ``HIT``);
- for doubles, ``(die, opp_at, *sources)``: the points the steps leave, from which a lazily
  built ``Move`` derives its steps only when asked.
Which function applies is decided by ``movegen.legal_moves``.
"""

from __future__ import annotations

from bisect import insort
from itertools import combinations
from typing import Any

from chouette.engine.position import BAR

Steps = tuple[tuple[int, int, bool], ...]
#: A doubles play: ``(die, opp_at, *sources)``, the points its steps leave (a lazy ``Move``).
DoublePlay = tuple[Any, ...]

# Base-16 digit per slot (0 = off .. 25 = bar), then one bit per point hit.
W = tuple(1 << (4 * i) for i in range(26))
HIT = tuple(1 << (104 + i) for i in range(26))
DELTA = tuple(tuple(W[max(p - d, 0)] - W[p] for d in range(7)) for p in range(26))


def pair_plays(me: list[int], opp_at: list[int], hi: int, lo: int) -> list[Steps]:
    """Non-doubles, nothing on the bar, two or more checkers outside home: no bear-off.

    Every play is either two checkers moving one die each or one checker moving both, and
    the two families never meet once a pair that is really one checker's path (the lo checker
    leaving the hi landing point, or landing where the hi checker leaves) is left to the
    second family; so each resulting position is produced once and no duplicate check is needed.

    The starting position and a 3-1 (the mover's 26 counts, the opponent's checkers by point):

    >>> me, opp_at = [0] * 26, [0] * 26
    >>> me[24], me[13], me[8], me[6] = 2, 5, 3, 5
    >>> opp_at[1], opp_at[12], opp_at[17], opp_at[19] = 2, 5, 3, 5
    >>> plays = pair_plays(me, opp_at, 3, 1)
    >>> len(plays), ((8, 5, False), (6, 5, False)) in plays
    (16, True)
    """
    hi_steps = [(p, p - hi, opp_at[p - hi] == 1) for p in range(24, hi, -1) if me[p] and opp_at[p - hi] < 2]
    lo_steps = [(r, r - lo, opp_at[r - lo] == 1) for r in range(24, lo, -1) if me[r] and opp_at[r - lo] < 2]
    plays: list[Steps] = []
    append = plays.append
    for step_a in hi_steps:
        p, a, hit_a = step_a
        alone = me[p] < 2
        for step_b in lo_steps:
            r = step_b[0]
            if r == a or r - lo == p or (r == p and alone):
                continue
            if hit_a and step_b[1] == a:
                # Both land on the same blot: only the first hits.
                step_b = (r, a, False)
            append((step_a, step_b))
    # One checker using both dice, through the hi or the lo landing point.
    for s in range(24, hi + lo, -1):
        end = s - hi - lo
        if not me[s] or opp_at[end] >= 2:
            continue
        hit_end = opp_at[end] == 1
        via_hi, via_lo = s - hi, s - lo
        open_hi, open_lo = opp_at[via_hi] < 2, opp_at[via_lo] < 2
        blot_hi, blot_lo = opp_at[via_hi] == 1, opp_at[via_lo] == 1
        if open_hi:
            append(((s, via_hi, blot_hi), (via_hi, end, hit_end)))
        # The second path is another position only when a hit on the way tells them apart.
        if open_lo and (not open_hi or blot_hi or blot_lo):
            append(((s, via_lo, blot_lo), (via_lo, end, hit_end)))
    if plays:
        return plays
    # Only one die can be played: the larger if it can (docs/rules.md 1.3).
    return [(step,) for step in (hi_steps or lo_steps)]


def double_plays(me: list[int], opp_at: list[int], die: int) -> list[DoublePlay]:
    """Doubles, nothing on the bar, four or more checkers outside home: the plays of all four dice.

    Returns ``(die, opp_at, *sources)`` per play (the points the four steps leave), or an empty
    list when four steps cannot be played (the caller then runs the general search).

    Without bear-off, a play's result is sum(x**(p - die) - x**p) over its sources, a polynomial
    that determines the multiset of sources, and the points hit are its landings on blots: so
    distinct multisets are distinct plays and no duplicate check is needed. Each multiset is
    visited once, in non-increasing order (a step from a lower point never makes one from a higher
    point legal), and each level keeps the ascending list of occupied points that may still move.
    The last two steps are read off that list at once instead of being searched.
    """
    # movable[p]: the die can leave p (blocks never change during a play).
    movable = [p > die and opp_at[p - die] < 2 for p in range(26)]
    c1 = [p for p in range(die + 1, 25) if me[p] and movable[p]]
    four: list[DoublePlay] = []
    extend = four.extend
    append = four.append
    for i, p1 in enumerate(c1):
        q1 = p1 - die
        me[p1] -= 1
        me[q1] += 1
        c2 = c1[: i + 1] if me[p1] else c1[:i]
        if me[q1] == 1 and movable[q1]:
            insort(c2, q1)
        for j, p2 in enumerate(c2):
            q2 = p2 - die
            me[p2] -= 1
            me[q2] += 1
            c3 = c2[: j + 1] if me[p2] else c2[:j]
            if me[q2] == 1 and movable[q2]:
                insort(c3, q2)
            if c3:
                prefix = (die, opp_at, p1, p2)
                # Steps three and four: two different points, twice the same point, or one
                # checker going on from a point it alone occupies.
                extend(map(prefix.__add__, combinations(c3, 2)))
                for x in c3:
                    if me[x] > 1:
                        append((*prefix, x, x))
                    y = x - die
                    if not me[y] and movable[y]:
                        append((*prefix, x, y))
            me[q2] -= 1
            me[p2] += 1
        me[q1] -= 1
        me[p1] += 1
    return four


def bar_pair_plays(me: list[int], opp_at: list[int], hi: int, lo: int) -> dict[int, Steps]:
    """Non-doubles with checkers on the bar: enter, then (one on the bar) play the other die anywhere."""
    entries = [(d, BAR - d) for d in (hi, lo) if opp_at[BAR - d] < 2]
    if not entries:
        return {}
    if me[BAR] >= 2:
        if len(entries) == 1:
            d, q = entries[0]
            hit = opp_at[q] == 1
            return {DELTA[BAR][d] + (HIT[q] if hit else 0): ((BAR, q, hit),)}
        q_hi, q_lo = BAR - hi, BAR - lo
        h_hi, h_lo = opp_at[q_hi] == 1, opp_at[q_lo] == 1
        key = DELTA[BAR][hi] + DELTA[BAR][lo] + (HIT[q_hi] if h_hi else 0) + (HIT[q_lo] if h_lo else 0)
        return {key: ((BAR, q_hi, h_hi), (BAR, q_lo, h_lo))}
    # One on the bar: after it enters every checker is free, and none can bear off (it is outside).
    plays: dict[int, Steps] = {}
    me[BAR] = 0
    for d, q in entries:
        other = lo if d == hi else hi
        hit = opp_at[q] == 1
        key = DELTA[BAR][d] + (HIT[q] if hit else 0)
        me[q] += 1
        if hit:
            opp_at[q] = 0
        for p in range(24, other, -1):
            if me[p]:
                b = p - other
                if opp_at[b] < 2:
                    hit_b = opp_at[b] == 1
                    total = key + DELTA[p][other] + (HIT[b] if hit_b else 0)
                    if total not in plays:
                        plays[total] = ((BAR, q, hit), (p, b, hit_b))
        if hit:
            opp_at[q] = 1
        me[q] -= 1
    me[BAR] = 1
    if plays:
        return plays
    # Only one die can be played: entries lists the larger die first when it can enter.
    d, q = entries[0]
    hit = opp_at[q] == 1
    return {DELTA[BAR][d] + (HIT[q] if hit else 0): ((BAR, q, hit),)}


def late_pair_plays(me: list[int], opp_at: list[int], hi: int, lo: int, outside: int) -> dict[int, Steps]:
    """Non-doubles, nothing on the bar, at most one checker outside: bear-offs are possible."""
    top0 = next((p for p in range(24, 0, -1) if me[p]), 0)
    plays: dict[int, Steps] = {}
    singles: dict[int, dict[int, Steps]] = {hi: {}, lo: {}}
    for d1, d2 in ((hi, lo), (lo, hi)):
        for p in range(top0, 0, -1):
            if not me[p]:
                continue
            q = p - d1
            if q > 0:
                if opp_at[q] >= 2:
                    continue
            elif outside or (q < 0 and p != top0):
                # Bear off only with all home; a larger die only from the highest point.
                continue
            else:
                q = 0
            hit = q > 0 and opp_at[q] == 1
            me[p] -= 1
            me[q] += 1
            if hit:
                opp_at[q] = 0
            key1 = W[q] - W[p] + (HIT[q] if hit else 0)
            out2 = outside - (p > 6 and q <= 6)
            top = top0 if me[top0] else next((t for t in range(top0 - 1, 0, -1) if me[t]), 0)
            moved = False
            for r in range(top, 0, -1):
                if not me[r]:
                    continue
                b = r - d2
                if b > 0:
                    if opp_at[b] >= 2:
                        continue
                elif out2 or (b < 0 and r != top):
                    continue
                else:
                    b = 0
                hit_b = b > 0 and opp_at[b] == 1
                key = key1 + W[b] - W[r] + (HIT[b] if hit_b else 0)
                moved = True
                if key not in plays:
                    plays[key] = ((p, q, hit), (r, b, hit_b))
            if not moved:
                singles[d1].setdefault(key1, ((p, q, hit),))
            if hit:
                opp_at[q] = 1
            me[q] -= 1
            me[p] += 1
    # Both dice when possible; else the larger die when it can be played alone.
    return plays or singles[hi] or singles[lo]


def late_double_plays(me: list[int], opp_at: list[int], die: int, outside: int) -> list[DoublePlay]:
    """Doubles, nothing on the bar, at most three checkers outside: bear-offs are possible.

    Returns ``(die, opp_at, *sources)`` per play, as many steps as can be played. Sources are
    taken in non-increasing order, and as in ``double_plays`` distinct multisets of sources are
    distinct positions even with bear-offs: in sum(x**max(p - die, 0) - x**p) the highest point
    where two multisets differ keeps different coefficients. So no duplicate check is needed,
    and hits need no tracking (a point hit stays open).
    """
    found: list[list[DoublePlay]] = [[], [], [], [], []]

    def search(cands: list[int], left: int, sources: tuple[Any, ...], outside: int) -> None:
        top = 0 if outside else next((t for t in range(6, 0, -1) if me[t]), 0)
        extended = False
        for i, p in enumerate(cands):
            q = p - die
            if q > 0:
                if opp_at[q] >= 2:
                    continue
            elif outside or (q < 0 and p != top):
                # Bear off only with all home; a larger die only from the highest point.
                continue
            else:
                q = 0
            extended = True
            if left == 1:
                found[4].append((*sources, p))
                continue
            me[p] -= 1
            me[q] += 1
            nxt = cands[: i + 1] if me[p] else cands[:i]
            if q and me[q] == 1:
                insort(nxt, q)
            search(nxt, left - 1, (*sources, p), outside - (p > 6 and q <= 6))
            me[q] -= 1
            me[p] += 1
        if not extended:
            found[len(sources) - 2].append(sources)

    search([p for p in range(1, 25) if me[p]], 4, (die, opp_at), outside)
    return found[4] or found[3] or found[2] or found[1]


def bar_double_plays(me: list[int], opp_at: list[int], die: int) -> list[DoublePlay]:
    """Doubles with checkers on the bar: enter (all four if need be), then play the rest anywhere.

    Returns ``(die, opp_at, *sources)`` per play, or an empty list when the whole roll cannot
    be played after entering (the caller then runs the general search). The entered checkers
    are outside home, so no bear-off happens and, as in ``double_plays``, plays are distinct.
    """
    entry = BAR - die
    if opp_at[entry] >= 2:
        return []
    entering = min(me[BAR], 4)
    prefix = (die, opp_at) + (BAR,) * entering
    left = 4 - entering
    if not left:
        return [prefix]
    saved = me[BAR]
    me[BAR] -= entering
    me[entry] += entering
    movable = [p > die and opp_at[p - die] < 2 for p in range(26)]
    plays: list[DoublePlay] = []

    def search(cands: list[int], sources: tuple[Any, ...], left: int) -> None:
        for i, p in enumerate(cands):
            if left == 1:
                plays.append((*sources, p))
                continue
            q = p - die
            me[p] -= 1
            me[q] += 1
            nxt = cands[: i + 1] if me[p] else cands[:i]
            if me[q] == 1 and movable[q]:
                insort(nxt, q)
            search(nxt, (*sources, p), left - 1)
            me[q] -= 1
            me[p] += 1

    search([p for p in range(die + 1, 25) if me[p] and movable[p]], prefix, left)
    me[entry] -= entering
    me[BAR] = saved
    return [play for play in plays if len(play) == 6]
