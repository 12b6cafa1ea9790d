"""GNU Backgammon Match ID, both ways: the manual's example, published IDs, round trips, errors.

The comparison with the IDs GNU Backgammon itself writes is in test_matchid_gnubg.py.
"""

from __future__ import annotations

import base64
import dataclasses
import doctest

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import chouette.engine.matchid as matchid_module
from chouette.engine.cube import Cube
from chouette.engine.errors import FormatError
from chouette.engine.match import Match
from chouette.engine.matchid import GameState, MatchState, Resignation

# Field layout written out independently of the module, from the manual: (first bit, width).
LAYOUT = {
    "cube_log": (1, 4),
    "owner": (5, 2),
    "on_roll": (7, 1),
    "crawford": (8, 1),
    "game_state": (9, 3),
    "turn": (12, 1),
    "double": (13, 1),
    "resign": (14, 2),
    "die_1": (16, 3),
    "die_2": (19, 3),
    "length": (22, 15),
    "score_0": (37, 15),
    "score_1": (52, 15),
    "no_jacoby": (67, 1),
}
# A match to 7 being played, written as gnubg writes the matches it starts (Jacoby not in use).
CLEAN = dict.fromkeys(LAYOUT, 0) | {"owner": 3, "game_state": 1, "length": 7, "no_jacoby": 1}


def pack(**fields: int) -> str:
    """A Match ID built bit by bit from ``CLEAN`` with ``fields`` replaced."""
    key = 0
    for name, value in (CLEAN | fields).items():
        first, width = LAYOUT[name]
        assert 0 <= value < 2**width
        key |= value << (first - 1)
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def test_doctests():
    result = doctest.testmod(matchid_module)
    assert result.attempted > 0, "no examples: this test would test nothing"
    assert result.failed == 0


def test_manual_example_decodes_to_its_fields():
    # GNU Backgammon manual, "A technical description of the Match ID": player 1 on roll with
    # 52, the 2-cube owned by player 0, 9-point match, score 2-4. The example predates bit 67:
    # at 0 it reads as the Jacoby rule in use, as gnubg reads it.
    assert MatchState.from_id("QYkqASAAIAAA") == MatchState(
        cube_value=2,
        cube_owner=0,
        on_roll=1,
        crawford=False,
        game_state=GameState.PLAYING,
        turn=1,
        double_offered=False,
        resignation=Resignation.NONE,
        dice=(5, 2),
        length=9,
        scores=(2, 4),
        jacoby=True,
    )


def test_manual_example_encodes_back():
    state = MatchState(2, 0, 1, False, GameState.PLAYING, 1, False, Resignation.NONE, (5, 2), 9, (2, 4), True)
    assert state.id == "QYkqASAAIAAA"
    # The same state with the Jacoby rule off, as gnubg writes the matches it starts: bit 67 set.
    assert dataclasses.replace(state, jacoby=False).id == "QYkqASAAIAAE"


@pytest.mark.parametrize(
    ("match_id", "fields"),
    [
        ("MAAAAAAAAAAA", {"cube_value": 1, "cube_owner": None, "game_state": GameState.NO_GAME, "length": 0}),
        ("cIkmAQAAAAAA", {"on_roll": 1, "dice": (5, 1), "length": 9, "scores": (0, 0)}),
        ("QYlyASAAGAAA", {"cube_value": 2, "cube_owner": 0, "dice": (5, 4), "length": 11, "scores": (2, 3)}),
        ("cAmgACAAGAAA", {"cube_owner": None, "dice": None, "length": 5, "scores": (2, 3)}),
    ],
)
def test_published_ids_decode_and_encode_back(match_id, fields):
    state = MatchState.from_id(match_id)
    for name, value in fields.items():
        assert getattr(state, name) == value, name
    assert state.id == match_id


def test_published_id_with_the_smaller_die_first_reads_and_is_written_larger_first():
    # Published with the dice 1 then 5 (as our IDs were written before): gnubg writes 5 then 1.
    state = MatchState.from_id("AYH0ACAAAAAA")
    assert (state.cube_value, state.on_roll, state.dice, state.length, state.scores) == (2, 0, (5, 1), 7, (2, 0))
    assert state.id == "AYHmACAAAAAA" == pack(cube_log=1, owner=0, die_1=5, die_2=1, score_0=2, no_jacoby=0)
    assert MatchState.from_id(state.id) == state


def test_dice_are_kept_larger_first_whatever_order_they_are_given_in():
    assert MatchState(dice=(2, 6)) == MatchState(dice=(6, 2))
    assert MatchState(dice=(2, 6)).dice == (6, 2)
    assert MatchState(dice=(2, 6)).id == MatchState(dice=(6, 2)).id == pack(length=0, game_state=0, die_1=6, die_2=2)


def test_bit_67_set_means_the_jacoby_rule_is_not_in_use():
    # A published ID (a match gnubg started) with bit 67 set: read as Jacoby off, written back as is.
    state = MatchState.from_id("8IhuACAACAAE")
    assert (state.crawford, state.length, state.scores, state.jacoby) == (True, 3, (2, 1), False)
    assert state.id == "8IhuACAACAAE"
    assert MatchState.from_id("8IhuACAACAAA").jacoby is True
    assert dataclasses.replace(state, jacoby=True).id == "8IhuACAACAAA"


def test_money_game_ids_carry_the_jacoby_setting():
    on, off = MatchState(jacoby=True), MatchState(jacoby=False)
    assert (on.id, off.id) == ("MAAAAAAAAAAA", "MAAAAAAAAAAE")
    assert MatchState.from_id(on.id) == on and MatchState.from_id(off.id) == off


def test_padding_bits_after_bit_67_are_ignored_and_written_as_0():
    key = bytearray(base64.b64decode(pack()))
    key[8] |= 0b11111000  # bits 68-72
    state = MatchState.from_id(base64.b64encode(bytes(key)).decode())
    assert state == MatchState.from_id(pack())
    assert state.id == pack()


def test_packer_agrees_with_the_manual_example():
    example = pack(cube_log=1, owner=0, on_roll=1, turn=1, die_1=5, die_2=2, length=9, score_0=2, score_1=4,
                   no_jacoby=0)
    assert example == "QYkqASAAIAAA"


@pytest.mark.parametrize("log", range(16))
def test_every_cube_value_up_to_32768_round_trips(log):
    state = MatchState.from_id(pack(cube_log=log, owner=1))
    assert (state.cube_value, state.cube_owner) == (2**log, 1)
    assert MatchState.from_id(state.id) == state


# --- malformed IDs ---


@pytest.mark.parametrize(
    "bad",
    ["", "QYkqASAAIAA", "QYkqASAAIAAAA", "QYkqASAAIAA=", "QYkqASAAIAA!", " QYkqASAAIAA", "QYkqASAA IAA"],
)
def test_bad_length_or_characters_raise_format_error_naming_the_input(bad):
    with pytest.raises(FormatError, match=f"Match ID {bad!r} is not 12 characters"):
        MatchState.from_id(bad)


@pytest.mark.parametrize("bad", [None, 12, b"QYkqASAAIAAA"])
def test_non_strings_raise_format_error(bad):
    with pytest.raises(FormatError, match="is not 12 characters"):
        MatchState.from_id(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"owner": 2}, "cube owner bits 10 mean nothing"),
        ({"game_state": 5}, "game state 5 does not exist"),
        ({"game_state": 7}, "game state 7 does not exist"),
        ({"die_1": 7, "die_2": 1}, "impossible dice \\(7, 1\\)"),
        ({"die_1": 3, "die_2": 0}, "impossible dice \\(3, 0\\)"),
        ({"score_0": 8}, "scores \\(\\d+, \\d+\\) are impossible in a match to 7"),
        (
            {"score_0": 7, "score_1": 7, "game_state": 2},
            "scores \\(\\d+, \\d+\\) are impossible in a match to 7",
        ),
        ({"score_0": 7}, "a game is being played in a match already won"),
        ({"crawford": 1}, "exactly one side at match point"),
        ({"crawford": 1, "length": 0}, "exactly one side at match point"),
        ({"crawford": 1, "score_1": 6, "cube_log": 1}, "nobody doubles in the Crawford game"),
        ({"double": 1, "game_state": 0}, "a double is offered only while a game is being played"),
        ({"double": 1, "turn": 1, "game_state": 3}, "a double is offered only while a game is being played"),
        ({"resign": 2, "game_state": 2}, "a resignation is offered only while a game is being played"),
        ({"resign": 1, "game_state": 4}, "a resignation is offered only while a game is being played"),
        ({"double": 1, "turn": 1, "die_1": 3, "die_2": 4}, "a double is offered before rolling"),
        ({"double": 1, "turn": 0}, "the other player must act"),
        ({"double": 1, "turn": 1, "resign": 2}, "or the doubler if the other resigned"),
        ({"double": 1, "turn": 1, "owner": 1, "cube_log": 1}, "the doubler is the player on roll"),
    ],
)
def test_impossible_values_raise_format_error_naming_the_input(fields, message):
    match_id = pack(**fields)
    with pytest.raises(FormatError, match=message) as raised:
        MatchState.from_id(match_id)
    assert repr(match_id) in str(raised.value)


@pytest.mark.parametrize(
    "fields",
    [
        {"game_state": 3, "resign": 3},  # gnubg keeps what was resigned once it is accepted
        {"double": 1, "turn": 0, "resign": 2},  # the doubled player resigned instead of answering
        {"double": 1, "turn": 1, "owner": 0, "cube_log": 1},
    ],
)
def test_states_gnubg_writes_in_play_are_read(fields):
    state = MatchState.from_id(pack(**fields))
    assert state.id == pack(**fields)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 2**16}, "a power of two from 1 to 32768"),
        ({"jacoby": 1}, "the Jacoby flag is a bool"),
        ({"cube_value": 3}, "a power of two from 1 to 32768"),
        ({"length": 2**15}, "the match length is an int from 0"),
        ({"scores": (2**15, 0)}, "the scores are two ints from 0 to 32767"),
        ({"on_roll": 2}, "are 0 or 1"),
        ({"dice": (0, 6)}, "the dice are None or two ints from 1 to 6"),
    ],
)
def test_states_a_match_id_cannot_hold_are_refused(kwargs, message):
    with pytest.raises(FormatError, match=message):
        MatchState(**kwargs)


# --- round trips ---


@st.composite
def match_states(draw):
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, 2**15 - 1)))
    score = st.integers(0, max(length, 1) if length else 2**15 - 1)
    game_state = draw(st.sampled_from(GameState))
    playing = game_state == GameState.PLAYING
    double_offered = playing and draw(st.booleans())
    on_roll = draw(st.sampled_from((0, 1)))
    resignation = (
        Resignation(draw(st.integers(0, 3)))
        if game_state in (GameState.PLAYING, GameState.RESIGNED)
        else Resignation.NONE
    )
    state = {
        "cube_value": 2 ** draw(st.integers(0, 15)),
        "cube_owner": draw(st.sampled_from((None, 0, 1))),
        "on_roll": on_roll,
        "crawford": draw(st.booleans()),
        "game_state": game_state,
        "turn": (on_roll if resignation else 1 - on_roll) if double_offered else draw(st.sampled_from((0, 1))),
        "double_offered": double_offered,
        "resignation": resignation,
        "dice": None if double_offered else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        "length": length,
        "scores": (draw(score), draw(score)),
        "jacoby": draw(st.booleans()),
    }
    if double_offered and state["cube_owner"] == 1 - on_roll:
        state["cube_owner"] = on_roll
    if state["crawford"]:
        state["cube_value"], state["cube_owner"] = 1, None
    try:
        return MatchState(**state)
    except FormatError:
        assume(False)


@given(match_states())
def test_match_state_round_trips_through_its_id(state):
    match_id = state.id
    assert len(match_id) == 12
    assert MatchState.from_id(match_id) == state
    assert eval(repr(state)) == state


@given(st.binary(min_size=9, max_size=9))
def test_any_key_either_decodes_to_itself_or_is_refused(key):
    key = key[:8] + bytes([key[8] & 0b111])  # only 67 bits carry information
    match_id = base64.b64encode(key).decode()
    try:
        state = MatchState.from_id(match_id)
    except FormatError as error:
        assert repr(match_id) in str(error)
    else:
        assert MatchState.from_id(state.id) == state
        dice = (int.from_bytes(key, "little") >> 15) & 0o77  # die 1 in the low 3 bits
        assert (state.id == match_id) == (dice & 7 >= dice >> 3)  # differs only in the dice order


# --- conversions ---


def test_from_game_writes_the_crawford_game():
    match = Match(5).record_game(1, 4)
    state = MatchState.from_game(Cube(), on_roll=0, match=match, dice=(3, 1))
    assert state.crawford and state.scores == (0, 4) and state.length == 5
    assert MatchState.from_id(state.id).match() == match


def test_from_game_writes_the_tables_jacoby_setting_in_money_play_only():
    money_on = MatchState.from_game(Cube(), on_roll=0, jacoby=True)
    money_off = MatchState.from_game(Cube(), on_roll=0)
    in_match = MatchState.from_game(Cube(), on_roll=0, match=Match(7), jacoby=True)
    assert (money_on.jacoby, money_off.jacoby, in_match.jacoby) == (True, False, False)
    assert (money_on.id[-1], money_off.id[-1], in_match.id[-1]) == ("A", "E", "E")


def test_from_game_writes_a_pending_double_for_the_other_side_to_answer():
    state = MatchState.from_game(Cube(2, 0, turned=True).double(0), on_roll=0, match=Match(7, (2, 1)))
    assert (state.double_offered, state.turn, state.cube_value) == (True, 1, 2)
    assert MatchState.from_id(state.id).cube() == Cube(2, 0, turned=True).double(0)


def test_money_game_has_length_zero():
    state = MatchState.from_game(Cube.automatic(1), on_roll=1)
    assert (state.length, state.scores, state.cube_value, state.cube_owner) == (0, (0, 0), 2, None)
    assert state.cube() == Cube.automatic(1)
    with pytest.raises(FormatError, match="is a money game: no match"):
        state.match()


def test_match_id_cannot_hold_a_beaver():
    with pytest.raises(FormatError, match="cannot hold a pending beaver"):
        MatchState.from_game(Cube().double(0).beaver(1), on_roll=0)


def test_from_game_refuses_a_doubler_not_on_roll():
    with pytest.raises(FormatError, match="side 0 doubled, so side 0 is on roll, not 1"):
        MatchState.from_game(Cube().double(0), on_roll=1)


def test_a_side_at_match_point_outside_the_crawford_game_is_post_crawford():
    match = MatchState.from_id(pack(score_0=6, score_1=3)).match(holland_rule=True)
    assert match.post_crawford and not match.crawford_game and match.holland_rule
