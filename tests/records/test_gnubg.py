"""Records checked by GNU Backgammon itself (Debian's gnubg, installed by .ci/system-deps).

Each file is imported in gnubg (``import mat`` or ``load match``); gnubg's reading of every
play, position, cube action, score and result is compared with ours, then every game is
played again in a fresh gnubg session through gnubg's own rules (an illegal play is refused
there), and gnubg's final score is compared with ours.
"""

from __future__ import annotations

import json
import random

import pytest

from chouette.records import Double, Record, RecordedGame, Take
from chouette.records.tables import table_records
from tests.records.games import random_game, random_match, table_log
from tests.records.gnubg_tool import check_with_gnubg
from tests.scenarios import SCENARIOS

# No database here: the SQLite run is enough (the PostgreSQL run deselects these).
pytestmark = pytest.mark.sqlite_only

FORMATS = ("mat", "sgf")


@pytest.mark.parametrize("fmt", FORMATS)
def test_board_mode_scenario_opens_in_gnubg_with_every_play_legal(fmt):
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    records = table_records(log["table"], log["events"])
    assert [(r.left, r.right) for r in records] == [("A", "Team B")]
    assert check_with_gnubg(records[0], fmt) == []


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", range(4))
def test_random_legal_games_open_in_gnubg(fmt, seed):
    rng = random.Random(seed)
    games = []
    scores = [0, 0]
    for _ in range(4):
        game = random_game(rng, score=(scores[0], scores[1]))
        games.append(game)
        assert game.winner is not None
        scores[game.winner] += game.points
    assert check_with_gnubg(Record("Ann", "Bob", tuple(games)), fmt) == []


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", range(3))
def test_money_games_with_doubles_takes_and_drops_open_in_gnubg(fmt, seed):
    rng = random.Random(100 + seed)
    scores = [0, 0]
    games = []
    for _ in range(4):
        game = random_game(rng, cube=True, score=(scores[0], scores[1]))
        games.append(game)
        scores[game.winner or 0] += game.points
    assert any(isinstance(a, Double) for g in games for a in g.actions)
    assert check_with_gnubg(Record("Ann", "Bob", tuple(games)), fmt) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_match_with_its_crawford_game_opens_in_gnubg(fmt):
    # The first seed whose match has a Crawford game (a player 1-away before its end).
    games = next(g for g in (random_match(random.Random(seed), 5) for seed in range(100))
                 if any(game.crawford for game in g) and len(g) >= 3)
    assert sum(g.crawford for g in games) == 1
    assert not any(isinstance(a, Double) for g in games if g.crawford for a in g.actions)
    assert check_with_gnubg(Record("Ann", "Bob", games, match_length=5), fmt) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_jacoby_money_game_scores_a_gammon_at_cube_one_as_single(fmt):
    rng = random.Random(11)
    while True:
        game = random_game(rng, jacoby=True)
        if game.points == 1 and _kind(game) > 1:
            break
    assert check_with_gnubg(Record("Ann", "Bob", (game,), jacoby=True), fmt) == []


def _kind(game: RecordedGame) -> int:
    """The board's multiplier of a finished game with no cube action."""
    from chouette.engine import Move, Position, apply_move, outcome
    from chouette.records import Turn, replay

    position = Position.initial()
    for item in replay(game):
        if isinstance(item, Turn):
            position = apply_move(position, Move(item.steps))
            result = outcome(position)
            if result is not None:
                return int(result.kind)
            position = position.swap()
    return 0


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", range(3))
def test_single_cube_table_games_keep_their_cube_actions_in_gnubg(fmt, seed):
    log = table_log(random.Random(seed), "single", games=3)
    records = table_records(log["table"], log["events"])
    assert any(isinstance(a, Take) for r in records for g in r.games for a in g.actions)
    for record in records:
        assert check_with_gnubg(record, fmt) == []


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", range(3))
def test_multi_cube_table_games_open_in_gnubg_without_cube_actions(fmt, seed):
    log = table_log(random.Random(seed), "multi", games=3)
    records = table_records(log["table"], log["events"])
    assert records
    for record in records:
        assert not any(isinstance(a, Double) for g in record.games for a in g.actions)
        assert check_with_gnubg(record, fmt) == []


def test_the_check_finds_a_file_gnubg_reads_otherwise():
    rng = random.Random(3)
    record = Record("Ann", "Bob", (random_game(rng),))
    good = check_with_gnubg(record, "mat")
    assert good == []
    # A play whose dice do not match it imports silently in gnubg: the check still sees it.
    from chouette.records import write_mat

    text = write_mat(record)
    line = next(line for line in text.splitlines() if line.startswith("  3) "))
    dice = line[5:7]
    other = "12" if dice not in ("12", "21") else "34"
    problems = check_with_gnubg(record, "mat", text=text.replace(line, line[:5] + other + line[7:]))
    assert problems
