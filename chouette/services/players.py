"""A player's history: every table they sat at, folded once, and their ledger rows.

A player is a display name as used at the tables (members and guests alike). The facts of
each of their tables (each finished game's seats and result, each cube decision and how it
ended) come from its log, folded once (``chouette.services.facts``) and cached and stored
(``chouette.services.stored_facts``), so a table is folded again only when its log moved,
and a closed night's tables never move. The money comes from the ledger rows, summed per game
in one query, so every amount matches the ledger.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Member,
    Night,
    TableEvent,
)
from chouette.services.facts import ANSWERS, Decision, TableFacts, display_name
from chouette.services.points import fraction_sums, joined, total
from chouette.services.stored_facts import facts_of, store_facts
from chouette.services.tables import table_log
from chouette.standings import Points, exact
from chouette.table import fold
from chouette.table.match_rules import match_of, score_line

# --------------------------------------------------------------------------- the history


@dataclass
class Tally:
    """Games in one role: how many, won, lost."""

    games: int = 0
    won: int = 0
    lost: int = 0

    def add(self, result: int) -> None:
        """Count one game with the player's result in it (> 0 won, < 0 lost)."""
        self.games += 1
        if result > 0:
            self.won += 1
        elif result < 0:
            self.lost += 1


@dataclass
class DecisionTally:
    """Answers of one kind: how many, how they ended, their points and money."""

    count: int = 0
    won: int = 0
    lost: int = 0
    open: int = 0
    points: int = 0
    cents: dict[str, int] = field(default_factory=dict)  # per currency


@dataclass(frozen=True)
class GameLine:
    """One game the player played or has money in (the chart's points, the latest games)."""

    night_id: int
    night: str
    date: Any
    currency: str
    table_id: int
    table: str
    game: int
    role: str  # box, partner, captain, member; "" while the game is still on
    points: Points  # a deal's points count: a fraction then (docs/rules.md 2.12)
    cents: int
    balance: int  # running cents after this game (in this game's currency)


@dataclass
class NightLine:
    """The player's result for one night."""

    night_id: int
    name: str
    date: Any
    currency: str
    tables: list[str] = field(default_factory=list)
    games: int = 0
    points: Points = 0
    cents: int = 0


@dataclass(frozen=True)
class MatchLine:
    """A head-to-head match the player plays or played (docs/rules.md 1.8): against whom, the score."""

    night_id: int
    night: str
    date: Any
    table_id: int
    table: str
    opponent: str
    length: int
    score: int  # theirs
    opponent_score: int
    result: str  # won, lost, playing


@dataclass
class PlayerHistory:
    """Everything the player page shows."""

    name: str
    member: Member | None
    games: list[GameLine] = field(default_factory=list)
    nights: list[NightLine] = field(default_factory=list)
    roles: dict[str, Tally] = field(default_factory=dict)  # box, partner, captain, member
    decisions: dict[str, DecisionTally] = field(default_factory=dict)  # per answer
    decisions_as: dict[str, dict[str, int]] = field(default_factory=dict)  # answer -> role -> n
    points: Points = 0
    cents: dict[str, int] = field(default_factory=dict)  # lifetime money per currency
    voided: int = 0
    matches: list[MatchLine] = field(default_factory=list)

    @property
    def plays_chouette(self) -> bool:
        """Whether the player sat in a chouette's game or answered a cube in one (a member
        who only played matches did not: the chouette's seats and cube answers say nothing)."""
        return bool(self.voided or any(t.games for t in self.roles.values())
                    or any(t.count for t in self.decisions.values()))

    @property
    def found(self) -> bool:
        """Whether the name ever sat at a table."""
        return bool(self.games or self.nights or sum(t.games for t in self.roles.values()))


def _tables_of(name: str) -> set[int]:
    """The tables where ``name`` joined, or has ledger rows."""
    query = select(TableEvent.table_id, TableEvent.payload).where(TableEvent.type == "join")
    tables = {table_id for table_id, payload in db.session.execute(query)
              if display_name((payload or {}).get("player")) == name}
    tables |= set(db.session.scalars(
        select(LedgerEntry.table_id).where(LedgerEntry.player == name).distinct()))
    return tables


def player_history(name: str) -> PlayerHistory:
    """The player's whole history (an unknown name gives an empty one).

    It only reads, then stores the facts of the tables it had to fold in a short
    transaction of its own (``store_facts``: the caller's transaction is ended first).
    """
    name = display_name(name)
    member = db.session.scalar(select(Member).where(Member.name == name).limit(1))
    history = PlayerHistory(name, member,
                            roles={r: Tally() for r in ("box", "partner", "captain", "member")},
                            decisions={a: DecisionTally() for a in ANSWERS})
    table_ids = _tables_of(name)
    if not table_ids:
        return history
    rows = db.session.execute(
        select(ChouetteTable, Night).join(Night, Night.id == ChouetteTable.night_id)
        .where(ChouetteTable.id.in_(table_ids)).order_by(Night.date, Night.id, ChouetteTable.id)
    ).all()
    seqs = dict(db.session.execute(
        select(TableEvent.table_id, func.max(TableEvent.seq))
        .where(TableEvent.table_id.in_(table_ids)).group_by(TableEvent.table_id)
    ).all())
    money: dict[int, dict[int, tuple[Points, int]]] = defaultdict(dict)
    fractions = fraction_sums(LedgerEntry.table_id, LedgerEntry.game,
                              where=LedgerEntry.player == name)
    for table_id, game, points, cents in db.session.execute(
        select(LedgerEntry.table_id, LedgerEntry.game, func.sum(LedgerEntry.points),
               func.sum(LedgerEntry.cents))
        .where(LedgerEntry.player == name).group_by(LedgerEntry.table_id, LedgerEntry.game)
    ):
        money[table_id][game] = (joined(int(points), fractions.get((table_id, game))), int(cents))
    facts, folded = facts_of((table for table, _night in rows), seqs)
    nights: dict[int, NightLine] = {}
    balance: dict[str, int] = defaultdict(int)
    for table, night in rows:
        table_id, table_name = table.id, table.name
        night_id, night_name, date, currency = night.id, night.name, night.date, night.currency
        line = nights.setdefault(night_id, NightLine(night_id, night_name, date, currency))
        line.tables.append(table_name)
        table_facts_ = facts[table_id]
        is_match = bool((table.settings or {}).get("match_length"))
        if is_match:
            # A match is not a chouette: its seats and cube decisions stay out of the tallies.
            roles: dict[int, str] = {}
            found = _match_line(table, night, name)
            if found is not None:
                history.matches.append(found)
        else:
            roles = _add_games(history, table_facts_, name)
            _add_decisions(history, table_facts_.decisions, name, currency)
        # Every finished game they played (even at zero), and any other game with their money in
        # it (the game in progress).
        table_money = money.get(table_id, {})
        for number in sorted(set(roles) | set(table_money)):
            won, cents = table_money.get(number, (0, 0))
            if number not in roles and not won and not cents:
                continue
            balance[currency] += cents
            history.games.append(GameLine(
                night_id, night_name, date, currency, table_id, table_name, number,
                roles.get(number, "match" if is_match else ""), won, cents, balance[currency]))
            line.games += 1
            line.points = exact(line.points + won)
            line.cents += cents
    history.nights = [n for n in nights.values() if n.games or n.tables]
    history.points = total(n.points for n in history.nights)
    for night_line in history.nights:
        history.cents[night_line.currency] = history.cents.get(night_line.currency, 0) + night_line.cents
    store_facts(folded)
    return history


def _match_line(table: ChouetteTable, night: Night, name: str) -> MatchLine | None:
    """The player's match at this table, folded from its log (None if they do not play it)."""
    state = fold(table.settings, table_log(table.id))
    score = score_line(state)
    match = match_of(state)
    if score is None or match is None or name not in (score[0][0], score[1][0]):
        return None
    mine, theirs = score if score[0][0] == name else (score[1], score[0])
    result = "playing"
    if match.is_over:
        result = "won" if mine[1] == match.length else "lost"
    return MatchLine(night.id, night.name, night.date, table.id, table.name, theirs[0],
                     match.length, mine[1], theirs[1], result)


def _add_games(history: PlayerHistory, facts: TableFacts, name: str) -> dict[int, str]:
    """Count the player's seats in a table's finished games; return their seat per game."""
    roles: dict[int, str] = {}
    for number, (role, result, voided) in facts.seats.get(name, {}).items():
        if voided:
            history.voided += 1
            continue
        roles[number] = role
        history.roles[role].add(result)
    return roles


def _add_decisions(history: PlayerHistory, decisions: Iterable[Decision], name: str,
                   currency: str) -> None:
    for decision in decisions:
        if decision.player != name or decision.outcome == "void":
            continue
        tally = history.decisions[decision.answer]
        tally.count += 1
        if decision.outcome == "won":
            tally.won += 1
        elif decision.outcome == "lost":
            tally.lost += 1
        elif decision.outcome == "open":
            tally.open += 1
        tally.points += decision.points
        tally.cents[currency] = tally.cents.get(currency, 0) + decision.cents
        by_role = history.decisions_as.setdefault(decision.answer, {})
        by_role[decision.role] = by_role.get(decision.role, 0) + 1


def player_names() -> list[tuple[str, int, dict[str, int]]]:
    """Everyone with ledger rows: (name, games with money, cents over all nights per currency,
    sorted by currency), by name."""
    # Through the night: an import's staged rows have none yet (``import_staged.write_staged``).
    per_game = (select(LedgerEntry.player.label("player"))
                .join(Night, Night.id == LedgerEntry.night_id)
                .group_by(LedgerEntry.player, LedgerEntry.table_id, LedgerEntry.game).subquery())
    games = (select(per_game.c.player, func.count()).group_by(per_game.c.player)
             .order_by(per_game.c.player))
    money: dict[str, dict[str, int]] = defaultdict(dict)
    sums = (select(LedgerEntry.player, Night.currency, func.sum(LedgerEntry.cents))
            .join(Night, Night.id == LedgerEntry.night_id)
            .group_by(LedgerEntry.player, Night.currency).order_by(Night.currency))
    for player, currency, cents in db.session.execute(sums):
        money[player][currency] = int(cents)
    return [(player, int(count), money[player]) for player, count in db.session.execute(games)]
