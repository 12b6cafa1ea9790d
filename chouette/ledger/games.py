"""A finished game's points and money per player (docs/rules.md 2.8, 2.10, 2.11).

The chouette rules give, for every game, each member's points against the box side and each
extra cube's points between its two holders; this module turns them into points and integer
cents per player: the box side's result split with the partner, each pair at its stake.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from chouette.ledger.errors import LedgerError
from chouette.ledger.money import (
    pair_stake_cents,
    points_to_cents,
    require_cents,
    split_share,
)

Pairs = Sequence[tuple[str, int]]  # (member, their points against the box side)
Extras = Sequence[tuple[str, str, int]]  # (giver, taker, the taker's points against the giver)
#: (member, their agreed result in half points, or in cents): deals (docs/rules.md 2.12), one of the two.
Deals = Sequence[tuple[str, int | None, int | None]]


def _add(totals: dict[str, int], player: str, amount: int) -> None:
    totals[player] = totals.get(player, 0) + amount


def _book_box_side(totals: dict[str, int], box: str, partner: str | None, amount: int,
                   partner_percent: int) -> None:
    """The box side's result to the box, or split with the partner (odd unit to the box)."""
    if partner is None:
        _add(totals, box, amount)
        return
    box_part, partner_part = split_share(amount, partner_percent)
    _add(totals, box, box_part)
    _add(totals, partner, partner_part)


def game_points(box: str, partner: str | None, pairs: Pairs, extras: Extras = (),
                partner_percent: int = 50) -> dict[str, int]:
    """Each player's points for one game; they sum to zero.

    The box side's result is split with the partner, the odd point to the box.

    >>> game_points("A", "D", [("B", -1), ("C", -1), ("E", -1)], [])
    {'B': -1, 'C': -1, 'E': -1, 'A': 2, 'D': 1}
    """
    totals: dict[str, int] = {}
    for member, points in pairs:
        _add(totals, member, points)
    for giver, taker, points in extras:
        _add(totals, taker, points)
        _add(totals, giver, -points)
    box_side = -sum(points for _, points in pairs)
    _book_box_side(totals, box, partner, box_side, partner_percent)
    return totals


def deal_cents(half_points: int | None, cents: int | None, stake_cents: int) -> int:
    """A deal's money for the member: their cents, or their half points at the pair's stake.

    A half point at an odd stake leaves half a cent: it goes to the box (the member's amount
    is rounded down, whether they win or pay).

    Raises:
        LedgerError: neither amount, or an amount or the stake is not whole.

    >>> deal_cents(3, None, 100), deal_cents(-3, None, 125), deal_cents(None, -250, 100)
    (150, -188, -250)
    """
    if cents is not None:
        return require_cents(cents, "a deal's cents")
    if isinstance(half_points, bool) or not isinstance(half_points, int):
        raise LedgerError("a deal is in half points or in cents, not {value!r}", value=half_points)
    return (half_points * pair_stake_cents(stake_cents, stake_cents)) // 2


def deal_points(box: str, partner: str | None, deals: Deals, partner_percent: int = 50, *,
                stake_cents: int, stakes: Mapping[str, int] | None = None) -> dict[str, Fraction]:
    """Each player's points of the game's deals, exact (a fraction, never a float).

    With one table stake they are each player's money of the deals divided by the stake, so
    points x stake is the money on every line (the box side's part split in cents as
    ``game_cents`` splits it: 1.5 points with a partner at 50% are 0.75 each). With per-player
    stakes (or a stake of nothing) the member's points are their money at the pair's stake (their
    agreed points), and the box side's part is split with the partner in exact shares.

    >>> deal_points("A", None, [("B", 3, None)], stake_cents=250)
    {'B': Fraction(3, 2), 'A': Fraction(-3, 2)}
    >>> deal_points("A", "D", [("B", -3, None)], stake_cents=100)
    {'B': Fraction(-3, 2), 'A': Fraction(3, 4), 'D': Fraction(3, 4)}
    """
    if not deals:
        return {}
    if stakes is None and stake_cents:
        cents: dict[str, int] = {}
        _book_deals(cents, box, partner, deals, partner_percent, lambda _player: stake_cents)
        return {player: Fraction(amount, stake_cents) for player, amount in cents.items()}

    def stake(player: str) -> int:
        return stakes.get(player, stake_cents) if stakes is not None else stake_cents

    totals: dict[str, Fraction] = {}
    box_side = Fraction(0)
    for member, half_points, cents_agreed in deals:
        pair = pair_stake_cents(stake(box), stake(member))
        amount = deal_cents(half_points, cents_agreed, pair)
        points = Fraction(amount, pair) if pair else Fraction(half_points or 0, 2)
        totals[member] = totals.get(member, Fraction(0)) + points
        box_side -= points
    if partner is None:
        totals[box] = totals.get(box, Fraction(0)) + box_side
    else:
        share = box_side * partner_percent / 100
        totals[box] = totals.get(box, Fraction(0)) + box_side - share
        totals[partner] = totals.get(partner, Fraction(0)) + share
    return totals


def game_cents(box: str, partner: str | None, pairs: Pairs, extras: Extras = (),
               partner_percent: int = 50, *, stake_cents: int,
               stakes: Mapping[str, int] | None = None, deals: Deals = ()) -> dict[str, int]:
    """Each player's money for one game in integer cents; they sum to zero.

    With one table stake, money follows the points (points x stake). With per-player
    ``stakes`` each pair plays at the lower of its two stakes (the box's stake for the box
    side), and the box side's money is split with the partner in cents, the odd cent to
    the box. ``deals`` are booked in cents (``deal_cents``) at the same stakes, and the box
    side's share of them is split with the partner in cents.

    Raises:
        LedgerError: a stake is negative or not a whole number.

    >>> game_cents("A", None, [("B", 2), ("C", -1)], stake_cents=100, stakes={"A": 100, "B": 50})
    {'B': 100, 'C': -100, 'A': 0}
    """
    def stake(player: str) -> int:
        return stakes.get(player, stake_cents) if stakes is not None else stake_cents

    if stakes is None:
        points = game_points(box, partner, pairs, extras, partner_percent)
        flat = {p: points_to_cents(v, stake_cents) for p, v in points.items()}
        _book_deals(flat, box, partner, deals, partner_percent, stake)
        return flat

    totals: dict[str, int] = {}
    box_side = 0
    for member, won in pairs:
        cents = points_to_cents(won, pair_stake_cents(stake(box), stake(member)))
        _add(totals, member, cents)
        box_side -= cents
    for giver, taker, won in extras:
        cents = points_to_cents(won, pair_stake_cents(stake(giver), stake(taker)))
        _add(totals, taker, cents)
        _add(totals, giver, -cents)
    _book_box_side(totals, box, partner, box_side, partner_percent)
    _book_deals(totals, box, partner, deals, partner_percent, stake)
    return totals


def _book_deals(totals: dict[str, int], box: str, partner: str | None, deals: Deals,
                partner_percent: int, stake: Callable[[str], int]) -> None:
    """Each deal's cents to its member, their sum from the box side (split with the partner)."""
    if not deals:
        return
    box_side = 0
    for member, half_points, cents in deals:
        amount = deal_cents(half_points, cents, pair_stake_cents(stake(box), stake(member)))
        _add(totals, member, amount)
        box_side -= amount
    _book_box_side(totals, box, partner, box_side, partner_percent)
