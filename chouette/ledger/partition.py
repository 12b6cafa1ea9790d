"""The most disjoint zero-sum groups of balances: the counting heart of settle-up.

Why groups: any settlement's transfers form a graph on the players; each connected component
must sum to zero, and a component of k players needs at least k - 1 transfers. So a
settlement of n non-zero balances needs at least n - g transfers, where g is the largest
number of disjoint zero-sum groups the balances split into, and settling each group of k
with k - 1 transfers (see ``settle_up``) reaches that minimum.

How, for at most ``EXACT_LIMIT`` values (after pairing exact opposites):

1. Exact opposites ``x`` and ``-x`` are paired first. Safe: take a best partition; if both are
   in one group G of more than two, ``{x, -x}`` and ``G - {x, -x}`` are two zero-sum groups, one
   more, a contradiction; if they are in different groups G1 and G2, replacing those by
   ``{x, -x}`` and ``G1 + G2 - {x, -x}`` (zero-sum, not empty) keeps the count. So some best
   partition holds ``{x, -x}``, and the same holds for the rest. After pairing, every group
   has at least three members.
2. Every subset is a bit mask; a family of subsets is one big ``int`` with bit ``mask`` set, so
   set operations over all 2**m subsets run in C. The zero-sum family comes from meeting in the
   middle: the subset sums of each half, one row of left masks per right mask.
3. The best count is the longest chain of zero-sum subsets from the empty set to the whole
   set (consecutive differences are the groups). Level k, the zero-sum subsets that end a
   chain of k groups, is the zero-sum family intersected with the strict supersets of level
   k - 1 (an upward closure, one shift per element). Stop at the first level that misses the
   whole set, or at the bound min(positives, negatives, m // 3).
4. Walk back down the levels to read the groups, always taking the smallest mask.

Above the limit, zero-sum triples then quadruples are taken greedily until the exact method
can finish the rest; if it still cannot, the rest is one group. Either way, n - 1 transfers
at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from chouette.ledger.errors import LedgerError

EXACT_LIMIT = 20
"""Most values (after pairing exact opposites) for which the partition is provably the best."""


def partition_zero_sum(values: Sequence[int]) -> list[tuple[int, ...]]:
    """Split the indices of non-zero values summing to 0 into the most disjoint zero-sum groups.

    Groups are sorted tuples of indices, listed by their first index. The count is the
    maximum whenever at most ``EXACT_LIMIT`` values are left after pairing exact opposites.

    Raises:
        LedgerError: a value is zero or not an int, or the values do not sum to zero.

    >>> partition_zero_sum([300, -100, 100, -500, 200])
    [(0, 3, 4), (1, 2)]
    """
    _check_values(values)
    groups, rest = _pair_opposites(values)
    if len(rest) > EXACT_LIMIT:
        small, rest = _take_small_groups(values, rest, EXACT_LIMIT)
        groups.extend(small)
    if len(rest) > EXACT_LIMIT:
        groups.append(tuple(rest))
    elif rest:
        for mask in most_zero_sum_masks([values[index] for index in rest]):
            groups.append(tuple(rest[bit] for bit in range(len(rest)) if mask >> bit & 1))
    return sorted(groups)


def most_zero_sum_masks(values: Sequence[int]) -> list[int]:
    """Return the most zero-sum groups that values (non-zero, sum 0) split into, as bit masks.

    Exact; time and memory grow as 2**len(values), hence the limit.

    Raises:
        LedgerError: more than ``EXACT_LIMIT`` values, a value is zero or not an int, or the
            values do not sum to zero.

    >>> most_zero_sum_masks([2, 3, -5, 1, -1])
    [7, 24]
    """
    size = len(values)
    if size > EXACT_LIMIT:
        raise LedgerError(f"the exact partition takes at most {EXACT_LIMIT} values, got {size}")
    _check_values(values)
    if size == 0:
        return []
    full = (1 << size) - 1
    zero = _zero_sum_family(values) & ~1
    clear = _clear_families(size)
    bound = min(sum(value > 0 for value in values), sum(value < 0 for value in values))
    seen = set(values)
    if not any(-value in seen for value in seen):
        bound = min(bound, size // 3)
    # Step 3: levels[k - 1] holds the zero-sum masks ending a chain of k groups.
    levels = [zero]
    while len(levels) < bound:
        above = 0
        for bit in range(size):
            above |= (levels[-1] & clear[bit]) << (1 << bit)
        for bit in range(size):
            above |= (above & clear[bit]) << (1 << bit)
        level = zero & above
        if not level >> full & 1:
            break
        levels.append(level)
    # Step 4: peel one group per level, keeping the smallest zero-sum mask below.
    masks = []
    current = full
    for level in reversed(levels[:-1]):
        below = 1 << current
        for bit in range(size):
            if current >> bit & 1:
                below |= below >> (1 << bit)
        candidates = level & below & ~(1 << current)
        smaller = (candidates & -candidates).bit_length() - 1
        masks.append(current ^ smaller)
        current = smaller
    masks.append(current)
    return sorted(masks)


def _check_values(values: Sequence[int]) -> None:
    """Refuse a zero or non-int value, or values that do not sum to zero."""
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or value == 0:
            raise LedgerError(f"value {index} must be a non-zero int, not {value!r}")
    if sum(values):
        raise LedgerError(f"values sum to {sum(values)}, not 0")


def _pair_opposites(values: Sequence[int]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Pair each x with a -x (lowest indices first); return the pairs and the indices left."""
    where: dict[int, list[int]] = {}
    for index, value in enumerate(values):
        where.setdefault(value, []).append(index)
    pairs: list[tuple[int, int]] = []
    for value in sorted(where):
        if value > 0 and -value in where:
            pairs.extend(zip(where[value], where[-value], strict=False))
    paired = {index for pair in pairs for index in pair}
    return [tuple(sorted(pair)) for pair in pairs], [
        i for i in range(len(values)) if i not in paired
    ]


def _take_small_groups(
    values: Sequence[int], rest: list[int], limit: int
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Greedily take zero-sum triples, then quadruples, from rest until at most limit remain."""
    groups: list[tuple[int, ...]] = []
    dead: set[int] = set()
    where: dict[int, list[int]] = {}
    for index in rest:
        where.setdefault(values[index], []).append(index)
    pairs = [(i, j) for position, i in enumerate(rest) for j in rest[position + 1 :]]
    # Triples: a pair and a third member completing it to zero.
    for i, j in pairs:
        if len(rest) - len(dead) <= limit:
            break
        if i in dead or j in dead:
            continue
        for k in where.get(-values[i] - values[j], ()):
            if k not in dead and k != i and k != j:
                groups.append(tuple(sorted((i, j, k))))
                dead.update((i, j, k))
                break
    # Quadruples: two disjoint pairs with opposite sums.
    by_sum: dict[int, list[tuple[int, int]]] = {}
    for i, j in pairs:
        if i not in dead and j not in dead:
            by_sum.setdefault(values[i] + values[j], []).append((i, j))
    for i, j in pairs:
        if len(rest) - len(dead) <= limit:
            break
        if i in dead or j in dead:
            continue
        for k, m in by_sum.get(-values[i] - values[j], ()):
            if not {i, j} & {k, m} and k not in dead and m not in dead:
                groups.append(tuple(sorted((i, j, k, m))))
                dead.update((i, j, k, m))
                break
    return groups, [index for index in rest if index not in dead]


def _subset_sums(values: Sequence[int]) -> list[int]:
    """Return the sum of every subset, indexed by its bit mask."""
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    return sums


def _zero_sum_family(values: Sequence[int]) -> int:
    """Return the family of zero-sum subsets, the empty one included, as a big int of masks."""
    size = len(values)
    if size < 6:
        return sum(1 << mask for mask, total in enumerate(_subset_sums(values)) if total == 0)
    half = size // 2
    rows: dict[int, int] = {}
    for mask, total in enumerate(_subset_sums(values[:half])):
        rows[total] = rows.get(total, 0) | 1 << mask
    width = (1 << half) // 8
    empty = bytes(width)
    # Subset (left | right << half) is bit left of row right: rows laid out little-endian.
    chunks = [
        rows[-total].to_bytes(width, "little") if -total in rows else empty
        for total in _subset_sums(values[half:])
    ]
    return int.from_bytes(b"".join(chunks), "little")


@lru_cache(maxsize=4)
def _clear_families(size: int) -> tuple[int, ...]:
    """Return, per element, the family of all subsets of range(size) without it, as big ints."""
    count = max(1, (1 << size) // 8)
    every = (1 << (1 << size)) - 1
    families = []
    for bit in range(size):
        if bit < 3:
            pattern = bytes([(0x55, 0x33, 0x0F)[bit]]) * count
        else:
            run = 1 << (bit - 3)
            pattern = (b"\xff" * run + b"\x00" * run) * (count // (2 * run))
        families.append(int.from_bytes(pattern, "little") & every)
    return tuple(families)
