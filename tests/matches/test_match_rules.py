"""Head-to-head matches at a table (docs/rules.md 1.8): the chouette log and board, two players."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.engine.matchid import GameState, MatchState
from chouette.standings import games_money, money, money_changes
from chouette.table import (
    Settings,
    SettingsError,
    TableError,
    apply_event,
    fold,
    match_rules,
    new_table,
)
from chouette.table.match_rules import match_id, match_of, score_line
from tests.matches.helpers import (
    ANN,
    BOB,
    answer,
    double,
    match_table,
    move,
    opening,
    play_out,
    run,
    turn,
    win_by_drop,
)


def test_doctests():
    assert doctest.testmod(match_rules).failed == 0


def refused(state, event, reason: str) -> None:
    with pytest.raises(TableError) as raised:
        apply_event(state, event)
    assert str(raised.value) == reason


# --- the settings ----------------------------------------------------------------------------


def test_a_chouette_table_keeps_its_settings_as_before_matches():
    assert "match_length" not in Settings().to_dict()
    assert Settings.from_dict(Settings().to_dict()) == Settings()
    assert not Settings().is_match


def test_a_match_table_keeps_its_match_settings():
    settings = Settings.for_match(5, holland=True, stake="point", stake_cents=200)
    data = settings.to_dict()
    assert (data["match_length"], data["holland"], data["match_stake"]) == (5, True, "point")
    assert Settings.from_dict(data) == settings


@pytest.mark.parametrize(("overrides", "reason"), [
    ({"match_length": 4}, "a match is to an odd number of points, not 4"),
    ({"match_length": 101}, "setting match_length must be between 0 and 99, not 101"),
    ({"match_length": 5, "beavers": True}, "no beavers or raccoons in a match"),
    ({"match_length": 5, "jacoby": True}, "no Jacoby rule in a match"),
    ({"match_length": 5, "automatic_doubles": 1}, "no automatic doubles in a match"),
    ({"match_length": 5, "cube_mode": "multi"}, "a match plays one cube: cube_mode single"),
    ({"holland": True}, "the Holland rule and a match stake are settings of a match"),
    ({"match_length": 5, "match_stake": "game"},
     "setting match_stake must be one of none, point, match, not 'game'"),
])
def test_settings_a_match_cannot_have_are_refused_with_the_reason(overrides, reason):
    data = {**Settings.for_match(5).to_dict(), **overrides} if "match_length" in overrides \
        else overrides
    with pytest.raises(SettingsError) as raised:
        Settings.from_dict(data)
    assert str(raised.value) == reason


# --- seats -----------------------------------------------------------------------------------


def test_a_match_is_between_two_players_who_keep_their_sides():
    state = match_table()
    refused(state, {"type": "join", "player": "Cy"},
            "a match is between two players: Ann and Bob play it")
    refused(state, {"type": "leave", "player": BOB},
            "Bob plays this match: nobody leaves a match before its end")
    state = win_by_drop(state, BOB)  # Bob won the game: in a chouette Bob would take the box
    assert (state.box, state.captain) == (ANN, BOB)
    assert score_line(state) == ((ANN, 0), (BOB, 1))


# --- doubling refusals -----------------------------------------------------------------------


def test_a_double_comes_on_the_board_after_the_opening_roll():
    refused(match_table(), double("box"), "in a match a double comes at the start of a turn "
            "on the board: play the opening roll first")


def test_no_beavers_no_raccoons_no_result_on_the_sheet_once_on_the_board_no_corrections():
    state = run(opening(match_table()), double(BOB))
    refused(state, {"type": "beaver", "cube": "team"}, "no beavers or raccoons in a match")
    state = run(state, answer("take", BOB))
    refused(state, {"type": "result", "winner": "box", "kind": "single"},
            "this game is played on the board: its last move ends it")
    done = run(state, {"type": "roll", "dice": [6, 5]})
    done = move(done)
    refused(done, {"type": "correct", "game": 1, "void": True, "reason": "x"},
            "a match game is not corrected: undo the last actions instead")


def test_only_the_side_on_roll_doubles_before_rolling():
    state = opening(match_table())  # Ann opened 3-1 and moved: Bob is on roll
    refused(state, double("box"), "it is Bob's turn: only Bob may double now")
    state = run(state, {"type": "roll", "dice": [6, 5]})
    refused(state, double(BOB), "a double comes before the roll; the dice are already rolled")


# --- Crawford, Holland, points capped ----------------------------------------------------------


def test_the_crawford_game_comes_exactly_once():
    state = win_by_drop(match_table(5), "box", cube=4)  # Ann leads 4-0: Ann at N-1
    assert match_of(state).scores == (4, 0) and match_of(state).crawford_game
    state = opening(state, 1, 3)  # Ann is on roll, then Bob
    refused(state, double("box"), "nobody may double in the Crawford game")
    state = turn(state, random.Random(1))
    refused(state, double(BOB), "nobody may double in the Crawford game")
    # The Crawford game played out (a seed where Bob, the trailer, wins a gammon).
    state = play_out(state, random.Random(3))
    assert match_of(state).scores == (4, 2), "the seed no longer gives Bob a gammon"
    assert not match_of(state).crawford_game and match_of(state).post_crawford
    # Post-Crawford: Bob doubles on their first turn, and at 4-4 there is no second Crawford game.
    state = win_by_drop(state, BOB, cube=1)
    assert match_of(state).scores == (4, 3)
    state = win_by_drop(state, BOB, cube=1)
    assert match_of(state).scores == (4, 4) and not match_of(state).crawford_game
    state = win_by_drop(state, "box", cube=1)
    assert match_of(state).is_over and match_of(state).winner == 0


def test_the_holland_rule_keeps_the_trailer_from_doubling_before_their_third_turn():
    state = win_by_drop(match_table(3, holland=True), "box", cube=2)  # 2-0: Crawford next
    state = play_out(state, random.Random(1))  # Bob wins the Crawford game: 2-1
    match = match_of(state)
    assert match.post_crawford and match.trailer == 1, "the seed no longer gives the trailer a win"
    state = opening(state, 3, 1)  # Ann opens: Bob, the trailer, is on roll for their turn 1
    refused(state, double(BOB), "after the Crawford game the trailer may not double before "
            "their third turn (Holland rule; this is their turn 1)")
    state = turn(turn(state, random.Random(1)), random.Random(2))
    refused(state, double(BOB), "after the Crawford game the trailer may not double before "
            "their third turn (Holland rule; this is their turn 2)")
    state = turn(turn(state, random.Random(3)), random.Random(4))
    assert state.game.on_roll == "member" and state.game.dice is None
    state = run(state, double(BOB))  # Bob's third turn
    assert state.game.pending


def test_without_the_holland_rule_the_trailer_doubles_at_once_after_crawford():
    state = win_by_drop(match_table(3), "box", cube=2)
    state = play_out(state, random.Random(1))
    state = opening(state, 3, 1)
    assert run(state, double(BOB)).game.pending


def test_points_won_never_go_beyond_what_the_winner_needs():
    # Bob at 0 wins a cube of 4 by a drop in a match to 3: 3 points, not 4.
    state = win_by_drop(match_table(3), BOB, cube=4)
    assert state.games[-1].pairs == ((BOB, 3),)
    assert match_of(state).scores == (0, 3) and match_of(state).is_over


def test_a_gammon_at_a_cube_of_two_scores_four_below_the_cap():
    state = opening(match_table(7))
    state = run(state, double(BOB), answer("take", BOB))
    state = play_out(state, random.Random(11))
    record = state.games[-1]
    points = 2 * {"single": 1, "gammon": 2, "backgammon": 3}[record.kind]
    assert abs(record.pairs[0][1]) == points


def test_nothing_is_played_once_the_match_is_over():
    state = win_by_drop(match_table(1), BOB)
    refused(state, {"type": "opening_roll", "box": 3, "team": 1}, "the match is over: Bob won it 1-0")


# --- undo --------------------------------------------------------------------------------------


def test_undo_of_the_winning_drop_reopens_the_match_and_its_double():
    state = win_by_drop(match_table(1), BOB)
    back = apply_event(state, {"type": "undo"})
    assert not match_of(back).is_over and back.game.pending
    assert run(back, answer("take", BOB)).game.cubes[BOB].value == 2
    log = back.effective + [{"type": "undo"}, {"type": "undo"}]
    refolded = fold(Settings.for_match(1), log)
    assert refolded.game is not None and not refolded.game.pending


# --- the ledger --------------------------------------------------------------------------------


def test_a_match_without_a_stake_is_not_in_the_ledger():
    state = win_by_drop(match_table(3), BOB, cube=2)
    assert games_money(state) == [] and money(state) == ({ANN: 0, BOB: 0}, {ANN: 0, BOB: 0})


def test_a_stake_per_point_books_each_game_at_its_capped_points():
    state = win_by_drop(match_table(3, stake="point", stake_cents=500), BOB, cube=4)
    assert money(state) == ({ANN: -3, BOB: 3}, {ANN: -1500, BOB: 1500})


def test_a_stake_per_match_is_booked_with_the_game_that_wins_the_match():
    state = win_by_drop(match_table(3, stake="match", stake_cents=2000), BOB, cube=1)
    assert money(state)[1] == {ANN: 0, BOB: 0}
    before = state
    state = win_by_drop(state, BOB, cube=2)
    assert match_of(state).is_over
    assert money(state) == ({ANN: -3, BOB: 3}, {ANN: -2000, BOB: 2000})
    changes = money_changes(before, state)
    assert sorted(changes) == [(2, ANN, -2, -2000), (2, BOB, 2, 2000)]
    undone = apply_event(state, {"type": "undo"})
    assert sorted(money_changes(state, undone)) == [(2, ANN, 2, 2000), (2, BOB, -2, -2000)]


# --- the Match ID ------------------------------------------------------------------------------


def test_the_match_id_holds_the_score_the_cube_the_dice_and_crawford():
    state = win_by_drop(match_table(5), BOB, cube=2)  # 0-2
    between = MatchState.from_id(match_id(state))
    assert (between.length, between.scores, between.game_state) == (5, (0, 2), GameState.NO_GAME)
    state = run(opening(state), double(BOB))
    offered = MatchState.from_id(match_id(state))
    assert offered.double_offered and offered.on_roll == 1 and offered.turn == 0
    state = run(state, answer("take", BOB), {"type": "roll", "dice": [2, 5]})
    rolled = MatchState.from_id(match_id(state))
    assert (rolled.cube_value, rolled.cube_owner, rolled.dice) == (2, 0, (5, 2))
    crawford = win_by_drop(match_table(3), "box", cube=2)
    assert MatchState.from_id(match_id(opening(crawford))).crawford
    over = win_by_drop(match_table(1), "box")
    assert MatchState.from_id(match_id(over)).game_state == GameState.OVER


def test_a_chouette_table_has_no_match():
    state = new_table({})
    assert match_of(state) is None and match_id(state) is None


# --- whole matches, drawn at random ------------------------------------------------------------


def _random_match(seed: int, length: int, holland: bool) -> tuple[list[dict], list[tuple[bool, int]]]:
    """A whole match of random legal events: doubles offered when the rules allow them,
    taken or dropped at random. Returns its log and, per game, whether it was the Crawford
    game and how many doubles were offered in it."""
    rng = random.Random(seed)
    state = match_table(length, holland=holland)
    games: list[tuple[bool, int]] = []
    while not match_of(state).is_over:
        game = state.game
        if game is None:
            games.append((match_of(state).crawford_game, 0))
        if game is not None and game.pending:
            state = run(state, {"type": rng.choice(["take", "drop"]),
                                "cube": BOB if game.cubes[BOB].to_answer == "member" else "team"})
            continue
        if game is not None and game.position is not None and game.dice is None and rng.random() < 0.3:
            by = "box" if game.on_roll == "box" else BOB
            try:
                state = run(state, double(by))
            except TableError:
                pass
            else:
                games[-1] = (games[-1][0], games[-1][1] + 1)
                continue
        if game is None or game.position is None:
            state = run(state, {"type": "opening_roll", "box": rng.randint(1, 6),
                                "team": rng.randint(1, 6)})
        elif game.dice is None:
            state = run(state, {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        else:
            state = move(state, rng)
    return state.effective, games


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1, 3, 5, 7]), st.booleans())
def test_random_matches_end_at_n_with_the_crawford_game_exactly_once(seed, length, holland):
    log, games = _random_match(seed, length, holland)
    state = fold(Settings.for_match(length, holland=holland), log)
    match = match_of(state)
    assert max(match.scores) == length and min(match.scores) < length
    # The Crawford game is the one after the first game that left a side at N-1, if the
    # match went on; nobody doubled in it.
    totals, expected = [0, 0], None
    for number, record in enumerate(state.games, start=1):
        points = record.pairs[0][1]
        assert points != 0
        totals[1 if points > 0 else 0] += abs(points)
        assert max(totals) <= length
        if expected is None and length > 1 and max(totals) == length - 1:
            expected = number + 1
    assert totals == list(match.scores)
    assert [crawford for crawford, _doubles in games] == [
        number == expected for number in range(1, len(games) + 1)]
    if expected is not None and expected <= len(games):
        assert games[expected - 1][1] == 0
    # Undo the last event and play it again: the same match.
    again = apply_event(apply_event(state, {"type": "undo"}), log[-1])
    assert match_of(again) == match and again.games == state.games
