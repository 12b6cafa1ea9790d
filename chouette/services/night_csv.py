"""A night as CSV: the score sheet, per table and per game (one column per player of the
night), and the ledger, one row per player per game (amounts as plain decimals). Every cell
goes through ``chouette.services.csv_cells`` (no cell is read as a formula).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select

from chouette.deal_words import deal_sentence, proxy_sentence
from chouette.extensions import db
from chouette.ledger import cents_to_decimal
from chouette.models import ChouetteTable, LedgerEntry
from chouette.point_words import points_text
from chouette.services.csv_cells import safe_writer
from chouette.services.match_sheet import MatchSheet
from chouette.services.night_rows import get_night
from chouette.services.points import fraction_sums, joined
from chouette.services.score_sheet import score_sheet
from chouette.services.sheet import line_words


def _owner_code(owner: str | None) -> str:
    """A cube's owner in the CSV: ``box``, ``member`` or ``middle``."""
    return "middle" if owner is None else "box" if owner == "box" else "member"


def _rules_text(changed: Mapping[str, tuple[Any, Any]]) -> str:
    """The settings a game changed, for the CSV: ``key=new (was old)``."""
    return "; ".join(f"{key}={json.dumps(new)} (was {json.dumps(old)})"
                     for key, (old, new) in changed.items())


def score_sheet_csv(night_id: int) -> str:
    """The score sheet as CSV: one row per game of every table, one column per player.

    ``cubes`` lists ``member:value:status:owner`` (owner ``box``, ``member`` or ``middle``),
    ``extras`` ``giver>taker:value:status:owner``; ``events`` says what happened in order;
    ``rules_changed`` the house rules that changed from that game on. A match's rows leave
    the chouette's seats and cubes empty and fill the ``match_*`` columns and ``crawford``.
    """
    night, sheets = score_sheet(night_id)
    players: list[str] = []
    for sheet in sheets:
        players += [p for p in sheet.players if p not in players]
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerow(["night", "date", "table", "game", "box", "partner", "captain",
                     "acting_captains", "members", "cubes", "extras", "events", "winner",
                     "kind", "voided", "correction", "partner_points", "rules_changed",
                     *players, "deals and proxies", "match_first", "match_second",
                     "match_winner", "match_how", "match_cube", "match_points", "match_score",
                     "crawford"])
    for sheet in sheets:
        for row in sheet.rows:
            game = row.game
            cubes = " ".join(f"{c.member}:{c.value}:{c.status}:{_owner_code(c.owner)}"
                             for c in game.cubes)
            extras = " ".join(f"{e.giver}>{e.taker}:{e.value}:{e.status}:"
                              f"{'giver' if e.owner == e.giver else 'taker'}" for e in game.extras)
            cells = [
                night.name, night.date.isoformat(), sheet.table.name, game.number, game.box,
                game.partner or "", game.captain, " ".join(game.acting_captains),
                " ".join(game.members), cubes, extras,
                "; ".join(line_words(line) for line in game.lines),
                game.winner or ("" if game.final else "in progress"), game.kind or "",
                "yes" if game.voided else "", game.correction or "",
                "" if game.partner_points is None else points_text(game.partner_points, False),
                _rules_text(game.rules_changed),
                *[points_text(game.points[p], False) if p in game.points else ""
                  for p in players],
                " | ".join([*(deal_sentence(d, night.currency) for d in game.deals),
                            *(proxy_sentence(a, p) for a, p in game.proxies)]),
                *_match_cells(sheet.match, game.number),
            ]
            if sheet.match is not None:
                # A match has no box, captain, team or cubes of members: its own columns say it.
                cells[4:11] = [""] * 7
                cells[12] = cells[-6]
            writer.writerow(cells)
    return out.getvalue()


def _match_cells(match: MatchSheet | None, number: int) -> list[str]:
    """A match game's cells: the two players, the winner by name, how, the cube, the points,
    the match score after it, the Crawford game (empty at a chouette table)."""
    game = next((g for g in match.games if g.number == number), None) if match else None
    if match is None or game is None:
        return [""] * 8
    return [match.first, match.second, game.winner or "", game.how or "", str(game.cube),
            str(game.points) if game.winner else "", f"{game.score[0]}-{game.score[1]}",
            "yes" if game.crawford else ""]

def ledger_csv(night_id: int) -> str:
    """The night's ledger as CSV: one row per player per game, from the ledger rows."""
    night = get_night(night_id)
    query = (
        select(ChouetteTable.name, LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
               func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
        .join(ChouetteTable, ChouetteTable.id == LedgerEntry.table_id)
        .where(LedgerEntry.night_id == night.id)
        .group_by(ChouetteTable.name, LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player)
        .order_by(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player)
    )
    out = io.StringIO()
    writer = safe_writer(out)
    fractions = fraction_sums(LedgerEntry.table_id, LedgerEntry.game, LedgerEntry.player,
                              where=LedgerEntry.night_id == night.id)
    writer.writerow(["night", "date", "currency", "table", "game", "player", "points", "amount"])
    for table_name, table_id, game, player, whole, cents in db.session.execute(query):
        points = joined(int(whole), fractions.get((table_id, game, player)))
        if not points and not cents:
            continue
        writer.writerow([night.name, night.date.isoformat(), night.currency, table_name, game,
                         player, points_text(points, False), cents_to_decimal(int(cents))])
    return out.getvalue()
