"""The exact layout of the .mat and SGF files (the facts of issue 13 about GNU Backgammon 1.07)."""

from __future__ import annotations

import random

import pytest

from chouette.records import (
    Double,
    Drop,
    Play,
    Record,
    RecordedGame,
    RecordError,
    Take,
    safe_name,
    write_mat,
    write_sgf,
)
from tests.records.games import random_game

OPENING = Play(0, (6, 4), "24/18 13/9")


def _lines(record: Record) -> list[str]:
    return write_mat(record).split("\n")


def test_header_names_the_match_length_and_zero_for_money():
    money = Record("Ann", "Bob", (RecordedGame((OPENING,), None, 0),))
    match = Record("Ann", "Bob", (RecordedGame((OPENING,), None, 0),), match_length=5)
    assert _lines(money)[0] == " 0 point match"
    assert _lines(match)[0] == " 5 point match"


def test_game_line_and_score_line_with_the_left_name_padded():
    record = Record("Alice", "Bob", (RecordedGame((OPENING,), None, 0, 0, 4),), match_length=7)
    lines = _lines(record)
    assert lines[2] == " Game 1"
    assert lines[3] == " Alice : 0" + " " * 22 + "Bob : 4"


def test_numbered_line_pads_the_left_column_to_its_full_width():
    game = RecordedGame((OPENING, Play(1, (5, 2), "13/8 13/11")), None, 0)
    line = _lines(Record("Ann", "Bob", (game,)))[4]
    assert line == "  1) " + "64: 24/18 13/9".ljust(28) + "52: 13/8 13/11"
    assert line.index("52:") == 5 + 28


def test_a_line_of_the_right_player_alone_keeps_the_empty_left_column():
    game = RecordedGame((Play(1, (6, 4), "24/18 13/9"),), None, 0)
    assert _lines(Record("Ann", "Bob", (game,)))[4] == "  1) " + " " * 28 + "64: 24/18 13/9"


def _first_dance() -> RecordedGame:
    """A random legal game cut after its first roll with no legal play."""
    rng = random.Random(1)
    while True:
        game = random_game(rng)
        for index, action in enumerate(game.actions):
            if isinstance(action, Play) and not action.move:
                return RecordedGame(game.actions[:index + 1], None, 0)


def test_a_dance_is_the_dice_and_a_colon_alone():
    game = _first_dance()
    dance = game.actions[-1]
    assert isinstance(dance, Play)
    line = [line for line in _lines(Record("Ann", "Bob", (game,))) if ") " in line][-1]
    dice = f"{dance.dice[0]}{dance.dice[1]}:"
    if dance.player == 0:
        assert line == line[:5] + dice.ljust(28)
    else:
        assert line.endswith(" " + dice) and line[5 + 28:] == dice


def test_doubles_takes_drops_and_wins_in_their_columns():
    game = RecordedGame((
        OPENING, Play(1, (5, 2), "13/8 13/11"),
        Double(0, 2), Take(1), Play(0, (3, 1), "8/5 6/5"),
        Double(1, 4), Drop(0),
    ), 1, 2)
    lines = _lines(Record("Ann", "Bob", (game,)))
    assert lines[5] == "  2)  Doubles => 2" + " " * 15 + " Takes"
    assert lines[6] == "  3) " + "31: 8/5 6/5".ljust(28) + " Doubles => 4"
    assert lines[7] == "  4) " + " Drops".ljust(28) + " Wins 2 points"


def test_one_point_is_singular():
    game = RecordedGame((OPENING, Play(1, (5, 2), "13/8 13/11"), Double(0, 2), Drop(1)), 0, 1)
    assert _lines(Record("Ann", "Bob", (game,)))[6] == "  3)  Wins 1 point" + " " * 15


def test_bar_and_off_are_written_with_slashes_only():
    rng = random.Random(2)
    games = tuple(random_game(rng) for _ in range(3))
    text = write_mat(Record("Ann", "Bob", games))
    assert "bar/" in text and "/off" in text and "-" not in text


def test_every_step_is_written_out():
    game = RecordedGame((Play(0, (6, 5), "24/13"),), None, 0)
    assert "65: 24/18 18/13" in write_mat(Record("Ann", "Bob", (game,)))


@pytest.mark.parametrize(("name", "safe"), [
    ("Bob: the box", "Bob the box"),
    ("Ann\x07ie", "Ann ie"),
    ("a" * 40, "a" * 31),
    (":::", "Player"),
    ("x]y\\z", "x y z"),
])
def test_names_lose_colons_and_control_characters(name, safe):
    assert safe_name(name) == safe


def test_no_line_but_a_game_line_says_game():
    game = RecordedGame((OPENING,), None, 0)
    text = write_mat(Record("Game Boy", "Team Game", (game,)))
    assert [line for line in text.splitlines() if "Game " in line] == [" Game 1"]
    assert ":" not in text.splitlines()[3].replace(" : ", "")


def test_sgf_root_says_match_scores_crawford_and_result():
    games = (RecordedGame((OPENING,), None, 0, 2, 0), RecordedGame((OPENING,), None, 0, 2, 1, crawford=True))
    text = write_sgf(Record("Ann", "Bob", games, match_length=3, date="2026-11-24"))
    first, second = text.split("\n(;")
    assert "MI[length:3][game:0][ws:2][bs:0]" in first and "RU[Crawford]" in first
    assert "MI[length:3][game:1][ws:2][bs:1]" in second and "RU[Crawford:CrawfordGame]" in second
    assert "DT[2026-11-24]" in first and "PW[Ann]PB[Bob]" in first


def test_sgf_money_with_jacoby_and_the_cube_actions():
    game = RecordedGame((OPENING, Play(1, (5, 2), "13/8 13/11"), Double(0, 2), Drop(1)), 0, 1)
    text = write_sgf(Record("Ann", "Bob", (game,), jacoby=True))
    assert "RU[Jacoby]" in text and "RE[W+1]" in text
    assert text.endswith(";W[64xrmi]\n;B[52lqln]\n;W[double]\n;B[drop])\n")


def test_an_illegal_play_is_refused_with_the_game_and_the_action():
    game = RecordedGame((OPENING, Play(1, (5, 2), "13/7")), None, 0)
    with pytest.raises(RecordError, match="game 1, action 2"):
        write_mat(Record("Ann", "Bob", (game,)))


def test_a_double_in_the_crawford_game_is_refused():
    game = RecordedGame((OPENING, Double(1, 2)), None, 0, 2, 0, crawford=True)
    with pytest.raises(RecordError, match="Crawford"):
        write_sgf(Record("Ann", "Bob", (game,), match_length=3))


def test_a_result_the_board_contradicts_is_refused():
    game = RecordedGame((OPENING, Play(1, (5, 2), "13/8 13/11"), Double(0, 2), Drop(1)), 1, 1)
    with pytest.raises(RecordError, match="player 0 winning"):
        write_mat(Record("Ann", "Bob", (game,)))


def test_a_play_out_of_turn_is_refused():
    game = RecordedGame((OPENING, Play(0, (5, 2), "13/8 13/11")), None, 0)
    with pytest.raises(RecordError, match="other player's turn"):
        write_mat(Record("Ann", "Bob", (game,)))
