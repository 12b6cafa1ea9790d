"""Records of a chouette table's board games, from its log (docs/log-format.md).

Each board-mode game is the box (left) against the team (right), the team named after the
captain who started the game ("Team Bob"). Rolls and moves are always recorded. Cube actions
are recorded where the game had one cube (a single-cube table, no automatic double, no
beaver, raccoon or extra): the box's double of the one cube is taken when any member took it
and dropped when every member dropped. Any other game is recorded without cube actions, its
result at cube 1 (the real money stays on our score sheet). Consecutive games of the same box
and team make one money session, the scores adding up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chouette.records.model import (
    LEFT,
    RIGHT,
    Action,
    Double,
    Drop,
    Play,
    Record,
    RecordedGame,
    Take,
)
from chouette.table import Settings, TableState, fold
from chouette.table import rules as table_rules
from chouette.table.game import BOARD, KINDS, Game
from chouette.table.state import corrections_of

CUBE_ANSWERS = ("take", "drop", "beaver", "raccoon")


def team_name(captain: str) -> str:
    """The team's name in a record: the captain who started the game.

    >>> team_name("Bob")
    'Team Bob'
    """
    return f"Team {captain}"


@dataclass
class _Game:
    """What the walk through the log gathers for one game."""

    number: int
    actions: list[Action] = field(default_factory=list)
    one_cube: bool = True  # cube actions can be recorded
    cube: int = 1
    offer: int | None = None  # who doubled, while the answers come
    board_over: bool = False


@dataclass(frozen=True)
class TableGame:
    """One finished board game of a table, ready to go into a record."""

    number: int
    box: str
    team: str
    game: RecordedGame  # scores 0-0: the session adds them
    jacoby: bool = False  # the Jacoby rule of the house rules the game was played by


def board_games(settings: Settings | Mapping[str, Any] | None,
                events: Sequence[Mapping[str, Any]]) -> list[TableGame]:
    """Every finished, not voided, board-mode game of a table log, in order.

    Raises:
        TableError: the log is malformed or the rules refuse an event (LogError names it).
    """
    final = fold(settings, events)
    effective = [dict(e) for e in final.effective]
    # The walk replays the log from the rules the table started with: each change of the
    # house rules in it applies again between the same games (from the final rules, the first
    # change would change nothing and be refused).
    state = TableState(final.initial_settings, corrections=corrections_of(effective))
    walk: dict[int, _Game] = {}
    for event in effective:
        if event.get("type") == "correct":
            continue
        game_before = state.game
        on_roll = game_before.on_roll if game_before else None
        dice = game_before.dice if game_before else None
        automatic = game_before.automatic if game_before else 0
        single = state.settings.cube_mode == "single"  # the rules of the game being played
        table_rules.apply(state, event)
        game = state.game or game_before
        if game is None:
            continue
        current = walk.setdefault(game.number, _Game(game.number))
        _note(current, event, state, game, on_roll, dice, single=single, automatic=automatic)
    found = []
    for record in final.games:
        looked = walk.get(record.number)
        if record.mode != BOARD or record.voided or looked is None:
            continue
        current = looked
        jacoby = final.settings_for(record.number).jacoby
        found.append(TableGame(record.number, record.box, team_name(record.captain),
                               _result(current, record.winner, record.kind, jacoby), jacoby))
    return found


def _note(current: _Game, event: dict[str, Any], state: TableState, game: Game,
          on_roll: str | None, dice: tuple[int, int] | None, *, single: bool, automatic: int) -> None:
    """Add what ``event`` did to the game's actions."""
    kind = event.get("type")
    if kind == "opening_roll" and game.is_board and on_roll is None:
        # The winner of the opening roll plays its two dice (the move below records them).
        current.one_cube = current.one_cube and game.automatic == 0
    elif kind == "roll" and state.game is game and game.dice is None:
        # No legal play: the turn passed by itself.
        current.actions.append(Play(_side(on_roll), (int(event["dice"][0]), int(event["dice"][1])), ""))
    elif kind == "move" and dice is not None:
        current.actions.append(Play(_side(on_roll), dice, game.last_move or str(event["move"])))
        current.board_over = state.game is None
    elif kind == "extra" or kind in ("beaver", "raccoon") or not single or automatic:
        if kind in ("double", "extra", *CUBE_ANSWERS):
            current.one_cube = False
    elif kind == "double":
        doubler = LEFT if event.get("by") == "box" else RIGHT
        current.offer = doubler
        current.actions.append(Double(doubler, current.cube * 2))
    elif kind in ("take", "drop") and current.offer is not None:
        if state.game is None:
            current.actions.append(Drop(1 - current.offer))
            current.offer = None
        elif not game.pending and game.box_double is None:
            current.actions.append(Take(1 - current.offer))
            current.cube *= 2
            live = [c.value for c in game.cubes.values() if c.is_live]
            current.one_cube = current.one_cube and bool(live) and max(live) == current.cube
            current.offer = None


def _side(on_roll: str | None) -> int:
    return LEFT if on_roll == "box" else RIGHT


def _result(current: _Game, winner: str | None, kind: str | None, jacoby: bool) -> RecordedGame:
    """The recorded game: with its cube actions, or without them at cube 1."""
    side = None if winner is None else LEFT if winner == "box" else RIGHT
    actions = list(current.actions)
    cube = current.cube if current.one_cube else 1
    if not current.one_cube:
        actions = [a for a in actions if isinstance(a, Play)]
    elif actions and isinstance(actions[-1], Drop):
        # Every member dropped the box's double (or the box the team's): the doubler wins.
        return RecordedGame(tuple(actions), 1 - actions[-1].player, cube)
    if not current.board_over or side is None or kind is None:
        # Ended off the board (every cube dropped in a multi-cube game): no result to record.
        return RecordedGame(tuple(actions), None, 0)
    multiplier = 1 if jacoby and cube == 1 else KINDS[kind]
    return RecordedGame(tuple(actions), side, cube * multiplier)


def table_records(settings: Settings | Mapping[str, Any] | None,
                  events: Sequence[Mapping[str, Any]], *, date: str | None = None,
                  event: str = "", games: Iterable[int] | None = None) -> list[Record]:
    """The table's board games as records: one money session per run of games with the same
    box, team and Jacoby rule (``games`` keeps only those game numbers; a change of the house
    rules that turns the Jacoby rule on or off starts a new session).

    Raises:
        TableError: the log is malformed or the rules refuse an event.
    """
    wanted = set(games) if games is not None else None
    records: list[Record] = []
    run: list[TableGame] = []
    for found in board_games(settings, events):
        if wanted is not None and found.number not in wanted:
            continue
        if run and (run[-1].box, run[-1].team, run[-1].jacoby) != (found.box, found.team, found.jacoby):
            records.append(_session(run, date, event))
            run = []
        run.append(found)
    if run:
        records.append(_session(run, date, event))
    return records


def _session(run: list[TableGame], date: str | None, event: str) -> Record:
    """Games of one box against one team as a money session, the scores adding up."""
    scores = [0, 0]
    games = []
    for found in run:
        game = found.game
        games.append(RecordedGame(game.actions, game.winner, game.points, scores[LEFT], scores[RIGHT]))
        if game.winner is not None:
            scores[game.winner] += game.points
    notes = tuple(f"game {found.number}" for found in run)
    return Record(run[0].box, run[0].team, tuple(games), 0, run[0].jacoby, date, event, notes)


__all__ = ["TableGame", "board_games", "table_records", "team_name"]
