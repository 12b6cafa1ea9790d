"""Points and money per player and per game: the chouette rules composed with the ledger.

Finished games count in full; the game in progress counts what it has settled already
(dropped cubes, extras' fees: RULES 2.7 and 2.10 book them at once). Used by the replay
command and by the web's ledger rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from chouette.ledger.games import game_cents, game_points
from chouette.table import GameRecord, TableState
from chouette.table.game import settled_so_far


@dataclass(frozen=True)
class GameMoney:
    """One game's points and cents per player; ``final`` once the game is over."""

    number: int
    points: dict[str, int]
    cents: dict[str, int]
    final: bool


def _money(state: TableState, number: int, box: str, partner: str | None, pairs, extras,
           stakes: dict[str, int] | None, final: bool) -> GameMoney:
    settings = state.settings
    share = settings.partner_share_percent
    return GameMoney(
        number,
        game_points(box, partner, pairs, extras, share),
        game_cents(box, partner, pairs, extras, share, stake_cents=settings.stake_cents,
                   stakes=stakes),
        final,
    )


def games_money(state: TableState, numbers: set[int] | None = None) -> list[GameMoney]:
    """Every finished game's money, then what the game in progress has settled so far
    (only the games whose number is in ``numbers``, when given)."""
    per_player = state.settings.per_player_stakes
    result = []
    for record in state.games:
        if numbers is not None and record.number not in numbers:
            continue
        stakes = dict(record.stakes) if per_player else None
        result.append(_money(state, record.number, record.box, record.partner, record.pairs,
                             record.extras, stakes, True))
    game = state.game
    if game is not None and state.box is not None and (numbers is None or game.number in numbers):
        pairs, extras = settled_so_far(game)
        if pairs or extras:
            stakes = dict(game.stakes) if per_player else None
            result.append(_money(state, game.number, state.box, state.partner, pairs, extras,
                                 stakes, False))
    return result


def money(state: TableState) -> tuple[dict[str, int], dict[str, int]]:
    """Points and cents per player (everyone who ever joined), summing to zero."""
    points = {p: 0 for p in state.players}
    cents = {p: 0 for p in state.players}
    for game in games_money(state):
        for player, value in game.points.items():
            points[player] = points.get(player, 0) + value
        for player, value in game.cents.items():
            cents[player] = cents.get(player, 0) + value
    return points, cents


__all__ = ["GameMoney", "GameRecord", "games_money", "money"]
