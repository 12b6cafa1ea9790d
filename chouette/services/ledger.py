"""The night's ledger: every game of its tables and every player's money in it.

The ledger rows (``LedgerEntry``) are the source of truth for money; each night's ledger is
also checked against the projection of its tables' logs: the game lines written with the
events (``chouette.services.game_lines``), so a page folds no log. What is paid after play,
and what is still owed, is in ``chouette.services.money``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from chouette.amounts import format_cents
from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Night,
)
from chouette.services.game_lines import Lines, lines_of, store_lines, stored_lines
from chouette.services.night_rows import get_night
from chouette.services.points import fraction_sums, from_json, joined, total
from chouette.services.table_states import load_play
from chouette.standings import Points

Key = tuple[int, int, str]  # (table id, game number, player)


# --------------------------------------------------------------------------- night ledger


@dataclass(frozen=True)
class CubeLine:
    """One member's cube in a game, as the fold left it."""

    member: str
    value: int
    owner: str | None  # "box", "member" or None (in the middle)
    status: str  # live, dropped (the member dropped), won (the box dropped)


@dataclass(frozen=True)
class GameLine:
    """One game of one table: who sat where, the cubes, the result, and the money per player."""

    table_id: int
    table_name: str
    number: int
    box: str | None
    partner: str | None
    captain: str | None
    winner: str | None
    kind: str | None
    final: bool
    voided: bool
    correction: str | None
    cubes: tuple[CubeLine, ...]
    extras: tuple[tuple[str, str, int], ...]
    points: dict[str, Points]  # a deal's points count: a fraction then (docs/rules.md 2.12)
    cents: dict[str, int]
    captains: tuple[str, ...] = ()  # who started as captain, then each acting captain
    match: bool = False  # a head-to-head match's game: the box's seat against the captain's

    @property
    def winner_name(self) -> str | None:
        """The winner by name (a match's game: the first or the second player), a drop
        included (the first dropped the second's cube: status "won"; the second: "dropped")."""
        side = self.winner
        if side is None and self.cubes:
            side = {"dropped": "box", "won": "team"}.get(self.cubes[0].status)
        return {"box": self.box, "team": self.captain}.get(side or "")

    @property
    def loser_name(self) -> str | None:
        """The loser by name (a match's game)."""
        winner = self.winner_name
        return None if winner is None else self.captain if winner == self.box else self.box

    def owner_name(self, cube: CubeLine) -> str | None:
        """Who owns ``cube`` by name (a match's game), None while it is in the middle."""
        return {"box": self.box, "member": cube.member}.get(cube.owner or "")

    @property
    def box_side_cents(self) -> int:
        """The box side's money (box and partner together)."""
        return sum(self.cents.get(name, 0) for name in (self.box, self.partner) if name)

    def role(self, player: str) -> str:
        """``box``, ``partner``, ``captain`` or ``team`` (also ``extra``: only an extra cube)."""
        if player == self.box:
            return "box"
        if player == self.partner:
            return "partner"
        if player == self.captain:
            return "captain"
        if any(cube.member == player for cube in self.cubes):
            return "team"
        return "extra"

    def cube_of(self, player: str) -> CubeLine | None:
        """The player's own cube in this game, if they had one."""
        return next((cube for cube in self.cubes if cube.member == player), None)


@dataclass(frozen=True)
class PlayerLedger:
    """One player's night: total points and cents, and every game that moved their money."""

    player: str
    points: Points
    cents: int
    games: tuple[tuple[GameLine, Points, int], ...]  # (game, their points, their cents)


@dataclass(frozen=True)
class NightLedger:
    """A night's ledger, per player (summing to zero) and per game, with its consistency check."""

    night: Night
    players: tuple[PlayerLedger, ...]
    games: tuple[GameLine, ...]
    mismatches: tuple[str, ...]
    #: The players of the night who are guests (their rows name no member), marked as such
    guests: frozenset[str] = frozenset()

    @property
    def is_consistent(self) -> bool:
        """True when the ledger rows equal the projection of the tables' logs."""
        return not self.mismatches

    @property
    def total_cents(self) -> int:
        """The sum of every player's cents (0 unless something is badly wrong)."""
        return sum(line.cents for line in self.players)


def ledger_totals(night_id: int) -> dict[Key, tuple[Points, int]]:
    """The ledger rows summed per table, game and player (non-zero only): ``(points, cents)``,
    the points exact (a deal's fraction included)."""
    query = (
        select(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
               func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
        .where(LedgerEntry.night_id == night_id)
        .group_by(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player)
    )
    fractions = fraction_sums(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
                              where=LedgerEntry.night_id == night_id)
    totals: dict[Key, tuple[Points, int]] = {}
    for table_id, game, player, whole, cents in db.session.execute(query):
        points = joined(int(whole), fractions.get((table_id, game, player)))
        if points or cents:
            totals[(table_id, game, player)] = (points, int(cents))
    return totals


def _game_line(table: ChouetteTable, number: int, line: Mapping[str, Any]) -> GameLine:
    """A stored game line (``game_lines``) as the ledger shows it."""
    return GameLine(
        table.id, table.name, number, line["box"], line["partner"], line["captain"],
        line["winner"], line["kind"], bool(line["final"]), bool(line["voided"]),
        line["correction"],
        tuple(CubeLine(member, int(value), owner, status)
              for member, value, owner, status in line["cubes"]),
        tuple((giver, taker, int(points)) for giver, taker, points in line["extras"]),
        {player: from_json(points) for player, points in line["points"].items()},
        {player: int(cents) for player, cents in line["cents"].items()},
        tuple(line.get("captains") or ([line["captain"]] if line["captain"] else [])),
        bool(table.settings.get("match_length")),
    )


def _table_games(tables: Sequence[ChouetteTable]
                 ) -> tuple[list[GameLine], dict[int, tuple[int, dict[str, Any], Lines]]]:
    """Every game of the tables, from their stored game lines (``game_lines``): no log is
    folded, except for a table whose lines are behind its log; and the lines folded here,
    for ``store_lines`` once the page is read."""

    stored, stale = stored_lines(tables)
    folded: dict[int, tuple[int, dict[str, Any], Lines]] = {}
    for table in tables:
        if table.id in stale:
            play = load_play(table.id)
            lines = lines_of(play.state)
            folded[table.id] = (play.seq, dict(table.settings), lines)
            stored[table.id] = {n: line for n, line in lines.items() if line is not None}
    games = [_game_line(table, number, line)
             for table in tables for number, line in sorted(stored[table.id].items())]
    return games, folded


def projected_totals(games: Iterable[GameLine]) -> dict[Key, tuple[Points, int]]:
    """What the ledger rows must add up to, from the games folded from the logs."""
    totals: dict[Key, tuple[Points, int]] = {}
    for game in games:
        for player in set(game.points) | set(game.cents):
            points, cents = game.points.get(player, 0), game.cents.get(player, 0)
            if points or cents:
                totals[(game.table_id, game.number, player)] = (points, cents)
    return totals


def night_ledger(night_id: int) -> NightLedger:
    """The night's ledger: per player and per game, checked against the logs. Raises NotFound."""
    night = get_night(night_id)
    games, folded = _table_games(list(night.tables))
    by_key = {(game.table_id, game.number): game for game in games}
    rows = ledger_totals(night.id)
    projection = projected_totals(games)
    mismatches = []
    names = {table.id: table.name for table in night.tables}
    for key in sorted(set(rows) | set(projection)):
        # The money is checked (the source of truth, what the warning names): rows a deal
        # wrote before its points counted (issue 25 item 6) hold its cents and no points.
        if rows.get(key, (0, 0))[1] != projection.get(key, (0, 0))[1]:
            table_id, number, player = key
            mismatches.append(_(
                "%(table)s, game %(game)d, %(player)s: the ledger says %(ledger)s, the log %(log)s.",
                table=names.get(table_id, str(table_id)), game=number, player=player,
                ledger=message_amount(rows.get(key, (0, 0))[1], night.currency),
                log=message_amount(projection.get(key, (0, 0))[1], night.currency),
            ))
    per_player: dict[str, list[tuple[GameLine, Points, int]]] = defaultdict(list)
    for (table_id, number, player), (points, cents) in sorted(rows.items()):
        game = by_key.get((table_id, number)) or GameLine(
            table_id, names.get(table_id, "?"), number, None, None, None, None, None, False,
            False, None, (), (), {}, {})
        per_player[player].append((game, points, cents))
    players = sorted(
        (PlayerLedger(name, total(p for _g, p, _c in lines), sum(c for _g, _p, c in lines),
                      tuple(lines))
         for name, lines in per_player.items()),
        key=lambda line: (-line.cents, line.player),
    )
    guests = frozenset(db.session.scalars(select(LedgerEntry.player).distinct().where(
        LedgerEntry.night_id == night.id, LedgerEntry.member_id.is_(None))))
    book = NightLedger(night, tuple(players), tuple(games), tuple(mismatches), guests)
    store_lines(folded)  # the tables folded above are read from rows next time
    return book


def night_balances(night_id: int) -> dict[str, int]:
    """Each player's money for the night from the ledger rows (sorted by name, zeros dropped)."""
    query = (select(LedgerEntry.player, func.sum(LedgerEntry.cents))
             .where(LedgerEntry.night_id == night_id).group_by(LedgerEntry.player))
    totals = {player: int(cents) for player, cents in db.session.execute(query) if cents}
    return {name: totals[name] for name in sorted(totals)}


def message_amount(cents: int, currency: str) -> str:
    """An amount as the club writes them, for messages."""
    return format_cents(cents, currency)
