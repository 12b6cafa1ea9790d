"""A night's score sheet, per table and per game, folded from the tables' logs: the printed
sheet (``templates/exports/score_sheet.html``) and its CSV (``chouette.services.night_csv``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from chouette.models import ChouetteTable, Night
from chouette.services.match_sheet import MatchSheet, match_sheet
from chouette.services.night_rows import get_night
from chouette.services.sheet import SheetGame, stake_periods, table_games
from chouette.standings import Points, exact
from chouette.table import TableState


@dataclass(frozen=True)
class SheetRow:
    """One game of a table's score sheet (``chouette.services.sheet.SheetGame``, the model
    every sheet shares) and each player's running points after it."""

    game: SheetGame
    totals: dict[str, Points]


@dataclass
class TableSheet:
    """A table's score sheet: its players in order of arrival, one row per game, the house
    rules in force now (each change is on the game it applied from) and the stakes played."""

    table: ChouetteTable
    players: list[str]
    rows: list[SheetRow] = field(default_factory=list)
    cents: dict[str, int] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    #: The stakes its games were played at: (first game, last game or None, cents), the
    #: last the stake in force now (``sheet.stake_periods``).
    stakes: list[tuple[int, int | None, int]] = field(default_factory=list)
    #: At a match table, the match's own sheet (its two players, game by game, the score).
    match: MatchSheet | None = None

    @property
    def totals(self) -> dict[str, Points]:
        """Each player's points over the whole table."""
        return self.rows[-1].totals if self.rows else dict.fromkeys(self.players, 0)


def _state(table: ChouetteTable) -> TableState:
    """The table's folded state (through the commands' cache)."""
    from chouette.services.table_states import load_play

    return load_play(table.id).state


def table_sheet(table: ChouetteTable) -> TableSheet:
    """The score sheet of one table, folded from its log.

    A player who never played a game of it (never sat in one, never had money in one) has
    no column.
    """
    state = _state(table)
    games = table_games(state)
    played = {name for game in games
              for name in (game.box, game.partner, *game.members, *game.points) if name}
    players = [p for p in state.players if p in played]
    sheet = TableSheet(table, players, settings=state.settings.to_dict(),
                       stakes=stake_periods(state), match=match_sheet(state))
    running: dict[str, Points] = dict.fromkeys(players, 0)
    cents = dict.fromkeys(players, 0)
    for game in games:
        for player, value in game.points.items():
            running[player] = exact(running.get(player, 0) + value)
        for player, value in game.cents.items():
            cents[player] = cents.get(player, 0) + value
        sheet.rows.append(SheetRow(game, dict(running)))
    sheet.cents = cents
    return sheet


def score_sheet(night_id: int) -> tuple[Night, list[TableSheet]]:
    """The night and every table's score sheet. Raises NotFound."""
    night = get_night(night_id)
    return night, [table_sheet(table) for table in night.tables]


def result_words(game: SheetGame) -> str:
    """The result of a game in a few words (CSV and the printed sheet)."""
    if game.voided:
        return _("void")
    if not game.final:
        return _("in progress")
    if game.winner is None:
        return _("all cubes dropped")
    kinds = {"single": _("single"), "gammon": _("gammon"), "backgammon": _("backgammon")}
    side = _("box") if game.winner == "box" else _("team")
    return _("%(side)s wins %(kind)s", side=side, kind=kinds.get(game.kind or "", game.kind or ""))

