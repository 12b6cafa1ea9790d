"""GNU Backgammon's analysis as the pages read it: each player's figures for a night, a season,
over nights; each game's decisions; the worst of a night (``chouette.analysis`` writes them).

A member's figures are theirs by id (``PlayerAnalysis.member_id``): a rename re-attributes them
to the new name (``reattribute``, called with the ledger's ``identity.rewrite_history``), and a
member's page adds up their rows by id, so nothing stays behind under a former name."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, update

from chouette.extensions import db
from chouette.models import ChouetteTable, GameAnalysis, Member, Night, PlayerAnalysis, Season


@dataclass
class Figures:
    """A player's figures over some games: errors in EMG (positive), rates in mEMG."""

    name: str
    moves: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    games: int = 0

    @property
    def checker_rate(self) -> float:
        return self.checker_error / self.moves * 1000 if self.moves else 0.0

    @property
    def cube_rate(self) -> float:
        return self.cube_error / self.cube_decisions * 1000 if self.cube_decisions else 0.0

    @property
    def decisions(self) -> int:
        return self.moves + self.cube_decisions

    def add(self, moves: int, checker_error: float, cube_decisions: int, cube_error: float, games: int) -> None:
        self.moves += moves
        self.checker_error += checker_error
        self.cube_decisions += cube_decisions
        self.cube_error += cube_error
        self.games += games


@dataclass
class NightFigures:
    """A player's figures on one night."""

    night_id: int
    night: str
    date: dt.date
    figures: Figures


@dataclass
class JudgedGame:
    """One analysed game: its table, number and decisions (``Judged.to_dict`` rows)."""

    table: str
    table_id: int
    number: int
    decisions: list[dict[str, Any]] = field(default_factory=list)


SORTS = ("name", "moves", "checker_error", "checker_rate", "cube_decisions", "cube_error", "cube_rate")


def _sums() -> tuple[Any, ...]:
    return (func.sum(PlayerAnalysis.moves), func.sum(PlayerAnalysis.checker_error),
            func.sum(PlayerAnalysis.cube_decisions), func.sum(PlayerAnalysis.cube_error),
            func.count(PlayerAnalysis.id))


def player_nights(name: str, member_id: int | None = None) -> list[NightFigures]:
    """The player's figures night by night, oldest first: a member's rows by id (whatever name
    they were stored under), a guest's by name."""
    whose = (PlayerAnalysis.member_id == member_id if member_id is not None
             else (PlayerAnalysis.name == name) & PlayerAnalysis.member_id.is_(None))
    rows = db.session.execute(
        select(Night.id, Night.name, Night.date, *_sums())
        .join(PlayerAnalysis, PlayerAnalysis.night_id == Night.id)
        .where(whose).group_by(Night.id, Night.name, Night.date)
        .order_by(Night.date, Night.id)).all()
    found = []
    for night_id, night, date, *sums in rows:
        figures = Figures(name)
        figures.add(*(s or 0 for s in sums))
        found.append(NightFigures(night_id, night, date, figures))
    return found


def total(name: str, nights: Iterable[NightFigures]) -> Figures:
    """The player's figures over ``nights``."""
    figures = Figures(name)
    for night in nights:
        f = night.figures
        figures.add(f.moves, f.checker_error, f.cube_decisions, f.cube_error, f.games)
    return figures


def season_of(date: dt.date) -> Season | None:
    """The season a night's date falls in (the latest one when several do)."""
    return db.session.scalars(select(Season).where(Season.first_date <= date, Season.last_date >= date)
                              .order_by(Season.first_date.desc()).limit(1)).first()


def players_of(night_ids: list[int], sort: str = "checker_rate", descending: bool = False) -> list[Figures]:
    """Every player of those nights' analysed games with their figures, sorted by ``sort``."""
    if not night_ids:
        return []
    rows = db.session.execute(
        select(PlayerAnalysis.name, *_sums()).where(PlayerAnalysis.night_id.in_(night_ids))
        .group_by(PlayerAnalysis.name)).all()
    found = []
    for name, *sums in rows:
        figures = Figures(name)
        figures.add(*(s or 0 for s in sums))
        found.append(figures)
    key = sort if sort in SORTS else "checker_rate"
    found.sort(key=lambda f: (getattr(f, key) if key != "name" else f.name.casefold(), f.name))
    if descending:
        found.reverse()
    return found


def night_games(night_id: int) -> list[JudgedGame]:
    """The night's analysed games, table by table, game by game."""
    rows = db.session.execute(
        select(ChouetteTable.name, GameAnalysis.table_id, GameAnalysis.number, GameAnalysis.decisions)
        .join(ChouetteTable, ChouetteTable.id == GameAnalysis.table_id)
        .where(GameAnalysis.night_id == night_id).order_by(ChouetteTable.name, GameAnalysis.number)).all()
    return [JudgedGame(table, table_id, number, list(decisions)) for table, table_id, number, decisions in rows]


def worst(games: Iterable[JudgedGame], count: int = 5, names: set[str] | None = None
          ) -> list[tuple[JudgedGame, dict[str, Any]]]:
    """The ``count`` decisions that cost the most (of ``names`` only, when given)."""
    found = [(game, d) for game in games for d in game.decisions
             if d.get("error", 0) > 0 and (names is None or d.get("player") in names)]
    found.sort(key=lambda pair: -float(pair[1]["error"]))
    return found[:count]


def has_analysis() -> bool:
    """Whether any game was analysed here."""
    return db.session.scalar(select(GameAnalysis.id).limit(1)) is not None


def reattribute(member_id: int, name: str) -> None:
    """A member was renamed: their figures and the decisions stored under a former name take
    ``name`` (inside the caller's transaction)."""
    old = set(db.session.scalars(select(PlayerAnalysis.name).where(
        PlayerAnalysis.member_id == member_id, PlayerAnalysis.name != name)))
    if not old:
        return
    # The games' ids first: PostgreSQL compares no JSON column for a DISTINCT.
    ids = set(db.session.scalars(select(PlayerAnalysis.game_id).where(
        PlayerAnalysis.member_id == member_id, PlayerAnalysis.name.in_(old))))
    for game in db.session.scalars(select(GameAnalysis).where(GameAnalysis.id.in_(ids))):
        game.decisions = [{**d, "player": name} if d.get("player") in old else d for d in game.decisions]
    db.session.execute(update(PlayerAnalysis).where(PlayerAnalysis.member_id == member_id)
                       .values(name=name))


def current_names(member_ids: Iterable[int]) -> dict[int, str]:
    """Members' names as they are now, by id."""
    ids = sorted(set(member_ids))
    if not ids:
        return {}
    return dict(db.session.execute(select(Member.id, Member.name).where(Member.id.in_(ids))).all())
