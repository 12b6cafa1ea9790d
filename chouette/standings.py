"""Points and money per player and per game: the chouette rules composed with the ledger.

Finished games count in full; the game in progress counts what it has settled already
(dropped cubes, extras' fees, deals: docs/rules.md 2.7, 2.10 and 2.12 book them at once). Used by the replay
command and by the web's ledger rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from chouette.ledger.games import Extras, Pairs, deal_points, game_cents, game_points
from chouette.table import GameRecord, TableState
from chouette.table.game import settled_so_far
from chouette.table.match_rules import match_of

#: A game's deals as the ledger prices them: (member, half points, cents).
DealTuples = tuple[tuple[str, int | None, int | None], ...]
#: Points: whole cube points, or a fraction once a deal counts (1.5 points: Fraction(3, 2)).
Points = int | Fraction


def exact(value: Points) -> Points:
    """A number of points as an int when it is whole, else the exact fraction."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def with_deals(points: Mapping[str, int], deals: Mapping[str, Fraction]) -> dict[str, Points]:
    """The cube points of a game plus the points of its deals, per player."""
    totals: dict[str, Points] = dict(points)
    for player, value in deals.items():
        totals[player] = exact(totals.get(player, 0) + value)
    return totals


@dataclass(frozen=True)
class GameMoney:
    """One game's points and cents per player; ``final`` once the game is over. A deal's
    points count (docs/rules.md 2.12): a player's points may be a fraction (``Points``)."""

    number: int
    points: dict[str, Points]
    cents: dict[str, int]
    final: bool


def _money(state: TableState, number: int, box: str, partner: str | None, pairs: Pairs, extras: Extras,
           stakes: dict[str, int] | None, final: bool, deals: DealTuples = ()) -> GameMoney:
    settings = state.settings_for(number)  # each game at the house rules it was played by
    return _priced(number, box, partner, tuple(pairs), tuple(extras),
                   tuple(sorted(stakes.items())) if stakes is not None else None,
                   settings.partner_share_percent, settings.stake_cents, final, deals)


@lru_cache(maxsize=65536)
def _priced(number: int, box: str, partner: str | None, pairs: tuple[tuple[str, int], ...],
            extras: tuple[tuple[str, str, int], ...], stakes: tuple[tuple[str, int], ...] | None, share: int,
            stake_cents: int, final: bool, deals: DealTuples = ()) -> GameMoney:
    """A game's points and cents, remembered: game records are immutable and every page of a
    table prices its whole night again. The answer is shared: callers only read it."""
    per_player = dict(stakes) if stakes is not None else None
    return GameMoney(
        number,
        with_deals(game_points(box, partner, pairs, extras, share),
                   deal_points(box, partner, deals, share, stake_cents=stake_cents,
                               stakes=per_player)),
        game_cents(box, partner, pairs, extras, share, stake_cents=stake_cents,
                   stakes=per_player, deals=deals),
        final,
    )


def games_money(state: TableState, numbers: set[int] | None = None) -> list[GameMoney]:
    """Every finished game's money, then what the game in progress has settled so far
    (only the games whose number is in ``numbers``, when given)."""
    if state.settings.is_match and state.settings.match_stake != "point":
        return _match_money(state, numbers)
    result = []
    if numbers is None:
        records: Iterable[GameRecord] = state.games
    else:  # game n is the n-th record: a command prices one game, not the whole night
        count = len(state.games)
        records = [state.games[n - 1] for n in sorted(numbers) if 1 <= n <= count]
    for record in records:
        if numbers is not None and record.number not in numbers:
            continue
        per_player = state.settings_for(record.number).per_player_stakes
        stakes = dict(record.stakes) if per_player else None
        result.append(_money(state, record.number, record.box, record.partner, record.pairs,
                             record.extras, stakes, True,
                             tuple(deal.as_ledger() for deal in record.deals)))
    game = state.game
    if game is not None and state.box is not None and (numbers is None or game.number in numbers):
        pairs, extras = settled_so_far(game)
        if pairs or extras:
            stakes = dict(game.stakes) if state.settings.per_player_stakes else None
            result.append(_money(state, game.number, state.box, state.partner, pairs, extras,
                                 stakes, False,
                                 tuple(deal.as_ledger() for deal in game.deals.values())))
    return result


def _match_money(state: TableState, numbers: set[int] | None) -> list[GameMoney]:
    """A match's games in the ledger: none without a stake; with a stake per match each
    game's points, and the stake booked with the game that wins the match (docs/rules.md 1.8)."""
    settings = state.settings
    if settings.match_stake != "match":
        return []
    match = match_of(state)
    last = len(state.games) if match is not None and match.is_over else None
    result = []
    for record in state.games:
        if numbers is not None and record.number not in numbers:
            continue
        points = game_points(record.box, None, record.pairs)
        cents = dict.fromkeys(points, 0)
        if record.number == last:
            cents = {player: settings.stake_cents if value > 0 else -settings.stake_cents
                     for player, value in points.items()}
        result.append(GameMoney(record.number, dict(points), cents, True))
    return result


def money(state: TableState) -> tuple[dict[str, Points], dict[str, int]]:
    """Points and cents per player (everyone who ever joined), summing to zero."""
    points: dict[str, Points] = dict.fromkeys(state.players, 0)
    cents = dict.fromkeys(state.players, 0)
    for game in games_money(state):
        for player, value in game.points.items():
            points[player] = exact(points.get(player, 0) + value)
        for player, value in game.cents.items():
            cents[player] = cents.get(player, 0) + value
    return points, cents


def touched_games(before: TableState, after: TableState) -> set[int]:
    """The games whose money may differ: game records are immutable and shared between
    states, so a record that is the same object in both is unchanged (a plain event
    touches only the game in progress; undo and corrections may rebuild every record)."""
    touched = {g.number for g in (before.game, after.game) if g is not None}
    longest = max(len(before.games), len(after.games))
    # States that share their list of games (an event after its state) share its first
    # records: only the records after them are compared (a fold stays linear).
    shared = before.games.shared_prefix(after.games) or 0
    for index in range(shared, longest):
        if (index >= len(before.games) or index >= len(after.games)
                or before.games[index] is not after.games[index]):
            touched.add(index + 1)
    return touched


def money_changes(before: TableState, after: TableState) -> list[tuple[int, str, Points, int]]:
    """(game, player, points, cents) taking the money of ``before`` to that of ``after``:
    the ledger rows an event writes (a drop at once, a finished game, an undo's reversal)."""
    touched = touched_games(before, after)
    old = {g.number: g for g in games_money(before, touched)}
    new = {g.number: g for g in games_money(after, touched)}
    changes = []
    for number in sorted(set(old) | set(new)):
        was = old.get(number) or GameMoney(number, {}, {}, False)
        now = new.get(number) or GameMoney(number, {}, {}, False)
        for player in sorted(set(was.points) | set(now.points) | set(was.cents) | set(now.cents)):
            points = exact(now.points.get(player, 0) - was.points.get(player, 0))
            cents = now.cents.get(player, 0) - was.cents.get(player, 0)
            if points or cents:
                changes.append((number, player, points, cents))
    return changes


__all__ = ["GameMoney", "GameRecord", "Points", "exact", "games_money", "money", "money_changes",
           "touched_games"]
