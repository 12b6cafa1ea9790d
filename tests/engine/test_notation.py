"""Move notation both ways (docs/rules.md 1.1): GNU Backgammon's forms and the usual variants."""

from __future__ import annotations

import pytest

from chouette.engine import Move, NotationError


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("24/18 13/11*", "24/18 13/11*"),
        ("bar/22", "bar/22"),
        ("6/off", "6/off"),
        ("6/4(2)", "6/4(2)"),
        ("6/4 6/4", "6/4(2)"),
        ("13/7*/5", "13/7*/5"),
        ("bar/22*/16", "bar/22*/16"),
        ("25/22", "bar/22"),
        ("6/0", "6/off"),
        ("24/18/13", "24/13"),
        ("BAR/22  13/11 *", "bar/22 13/11*"),
        (" 24 / 18 ,13/11 ", "24/18 13/11"),
        ("13-8 6-5*", "13/8 6/5*"),
        ("6/5 13/8", "13/8 6/5"),
        ("7/4* 7/4", "7/4*(2)"),
        ("7/4*(2)", "7/4*(2)"),
        ("13/7( 2 )", "13/7(2)"),
        ("", ""),
    ],
)
def test_parse_reads_gnubg_notation_and_variants(text, written):
    assert str(Move.parse(text)) == written


@pytest.mark.parametrize("text", ["24/18 13/11*", "bar/22*/16 6/off", "6/4(2) 8/6(2)", "13/7*/5 8/5"])
def test_parse_of_str_round_trips_and_repr_evaluates_back(text):
    move = Move.parse(text)
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move
    assert hash(Move.parse(str(move))) == hash(move)


@pytest.mark.parametrize(
    "text", ["24/x", "24", "24/18/", "/18", "off/3", "3/bar", "18/24", "6/6", "26/20", "13/*8", "6/4(5)", "6/4(0)", "24*/18", 17]
)
def test_unreadable_move_raises_notation_error_naming_input(text):
    with pytest.raises(NotationError, match=r"^move ") as error:
        Move.parse(text)
    assert repr(text) in str(error.value)


def test_steps_and_pips_of_a_parsed_move():
    move = Move.parse("bar/22*/16 6/off")
    assert move.hops() == [(25, 22, True), (22, 16, False), (6, 0, False)]
    assert move.pips() == 9 + 6


def test_generated_double_knows_its_hits_and_writes_repeats():
    from chouette.engine import Position, legal_moves

    # Two checkers on the 7 and a blot on the mover's 4: 7/4*(2) with 3-3 hits once.
    position = Position.from_points({7: 2, 13: 2, 8: 2, 6: 9}, {21: 1, 24: 14})
    move = next(m for m in legal_moves(position, (3, 3)) if str(m).startswith("7/4*(2)"))
    hits = [step for step in move.steps if step[2]]
    assert hits == [(7, 4, True)]
    assert Move.parse(str(move)) == move
