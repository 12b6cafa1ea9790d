"""The record of a head-to-head match (docs/rules.md 1.8) from its table's log: the whole match.

The first player (the box seat) is on the left, the second on the right. Every finished game
is recorded with its rolls, plays and cube actions, the score line before it, whether it is
the Crawford game, and the game's value (the cube times 1/2/3, as GNU Backgammon counts it);
the score lines are the match's totals, where points beyond the length give no bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chouette.engine import Match
from chouette.records.model import LEFT, RIGHT, Record
from chouette.records.tables import board_games
from chouette.table import Settings, fold
from chouette.table.game import BOARD
from chouette.table.match_rules import players


def match_record(settings: Settings | Mapping[str, Any] | None,
                 events: Sequence[Mapping[str, Any]], *, date: str | None = None,
                 event: str = "") -> Record | None:
    """The whole match of a match table's log, or None when it is no match, has no players,
    or has a game recorded on the sheet (no plays to record).

    Raises:
        TableError: the log is malformed or the rules refuse an event.
    """
    state = fold(settings, events)
    seated = players(state)
    if not state.settings.is_match or seated is None:
        return None
    if any(record.mode != BOARD for record in state.games):
        return None  # a game recorded on the sheet has no plays for the record to hold
    match = Match(state.settings.match_length, holland_rule=state.settings.holland)
    found = {game.number: game.game for game in board_games(settings, events)}
    games = []
    for record in state.games:
        points = record.pairs[0][1]
        side = RIGHT if points > 0 else LEFT
        recorded = found[record.number]
        # The game's own value (cube x 1/2/3), as GNU Backgammon counts it; the score lines
        # carry the match's capped totals, and only the last game can pass the length.
        games.append(replace(recorded, winner=side, points=recorded.points or abs(points),
                             score_left=match.scores[0], score_right=match.scores[1],
                             crawford=match.crawford_game))
        match = match.record_game(side, abs(points))
    return Record(seated[0], seated[1], tuple(games), match_length=match.length, jacoby=False,
                  date=date, event=event)
