"""The score sheet of a head-to-head match (docs/rules.md 1.8): the two players by name, game by
game, as a match is kept on paper: who won each game, how (single, gammon, backgammon or the
double dropped) and at what cube, the points it gave (capped at what the winner needed), the
match score after it, and which game was the Crawford game. A game in progress is the last
row, with no winner yet.

The printable score sheet and its CSV (``chouette.services.score_sheet``, ``night_csv``) show a match table with
this instead of the chouette's box, captain and team columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chouette.engine import Match
from chouette.table import TableState
from chouette.table.game import BOARD
from chouette.table.match_rules import match_of, players


@dataclass(frozen=True)
class MatchGame:
    """One game of the match: its winner by name (None while it is played), how it ended
    (``single``, ``gammon``, ``backgammon``, or ``drop``: the double dropped), the cube it
    ended at, the points it gave the winner, the score after it, whether it was the Crawford
    game."""

    number: int
    winner: str | None
    how: str | None
    cube: int
    points: int
    score: tuple[int, int]
    crawford: bool
    on_board: bool


@dataclass(frozen=True)
class MatchSheet:
    """The match's sheet: the two players (the first one is on the left), its length, the
    Holland rule, every game in order, the score now, the winner once it is over."""

    first: str
    second: str
    length: int
    holland: bool
    games: list[MatchGame] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)
    winner: str | None = None
    crawford_now: bool = False

    @property
    def players(self) -> tuple[str, str]:
        """The two players, the first one first."""
        return self.first, self.second


def match_sheet(state: TableState) -> MatchSheet | None:
    """The sheet of a match table (None at a chouette table, or before the two are seated)."""
    seated = players(state)
    final = match_of(state)
    if seated is None or final is None:
        return None
    match = Match(state.settings.match_length, holland_rule=state.settings.holland)
    games: list[MatchGame] = []
    for record in state.games:
        if record.voided or not record.pairs:
            continue
        points = record.pairs[0][1]  # the second player's points against the first, capped
        side = 1 if points > 0 else 0
        crawford = match.crawford_game
        match = match.record_game(side, abs(points))
        games.append(MatchGame(
            record.number, seated[side], record.kind or "drop",
            record.cubes[0].value if record.cubes else 1, abs(points),
            (match.scores[0], match.scores[1]), crawford, record.mode == BOARD))
    if state.game is not None:
        cube = state.game.cubes[seated[1]].cube if seated[1] in state.game.cubes else None
        games.append(MatchGame(
            state.game.number, None, None, cube.value if cube is not None else 1, 0,
            (match.scores[0], match.scores[1]), match.crawford_game, True))
    winner = seated[final.winner] if final.winner is not None else None
    return MatchSheet(seated[0], seated[1], final.length, final.holland_rule, games,
                      (final.scores[0], final.scores[1]), winner,
                      final.crawford_game and not final.is_over)
