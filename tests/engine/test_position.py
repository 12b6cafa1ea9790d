"""Positions, Position ID and XGID (docs/rules.md 1.1)."""

from __future__ import annotations

import pytest

from chouette.engine import (
    FormatError,
    Position,
    Side,
    XgidFields,
    format_xgid,
    parse_xgid,
)

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_initial_position_id_and_pips():
    start = Position.initial()
    assert start.id == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == start
    assert start.pips() == (167, 167)
    assert start.swap() == start


@pytest.mark.parametrize("position_id", ["27YBAOBYAAAAAA", "C0iEMj7++wAEAA", "Fc8HASRSc/CAYA", "hucHASRSc/CAUA"])
def test_position_id_round_trips(position_id):
    position = Position.from_id(position_id)
    assert position.id == position_id
    assert eval(repr(position)) == position


def test_position_id_puts_the_player_on_roll_second():
    # GNU Backgammon: 27YBAOBYAAAAAA has the player on roll with 3 on the 1, 2 on the 4, 1 on the 5.
    position = Position.from_id("27YBAOBYAAAAAA")
    assert position.mover[1:6] == (3, 0, 0, 2, 1)
    assert position.off() == 9 and position.off(Side.OPPONENT) == 3


@pytest.mark.parametrize("bad", ["4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "////////////////"[:14], ""])
def test_bad_position_id_raises_format_error_naming_input(bad):
    with pytest.raises(FormatError, match=r"^Position ID ") as error:
        Position.from_id(bad)
    assert repr(bad) in str(error.value)


def test_from_points_counts_off_and_views_per_side():
    position = Position.from_points({6: 2, 25: 1}, {6: 1})
    assert position.mover[0] == 12 and position.opponent[0] == 14
    assert position.bar() == 1 and position.bar(Side.OPPONENT) == 0
    # The opponent's 6-point is the mover's 19.
    assert position.checkers(Side.OPPONENT)[19] == 1
    assert position.board[19] == -1 and position.board[6] == 2
    assert position.pips() == (37, 6)


def test_more_than_fifteen_checkers_is_refused():
    with pytest.raises(FormatError, match="16 checkers"):
        Position.from_points({6: 16}, {})


def test_both_sides_on_one_point_is_refused():
    with pytest.raises(FormatError, match="point 19"):
        Position.from_points({19: 1}, {6: 1})


def test_from_points_with_slots_checks_the_off_slot():
    slots = list(Position.initial().mover)
    assert Position.from_points(slots, slots) == Position.initial()
    slots[0] = 3
    with pytest.raises(FormatError, match="slot 0"):
        Position.from_points(slots, slots)


def test_contact_and_race():
    assert Position.initial().is_contact()
    assert not Position.from_points({6: 15}, {6: 15}).is_contact()


def test_xgid_of_initial_position():
    assert Position.initial().xgid() == START_XGID
    assert Position.from_xgid(START_XGID) == Position.initial()


def test_xgid_round_trips_with_fields():
    text = "XGID=-a-B--C-B---bC---c-e----B-:1:-1:-1:52:3:2:1:7:10"
    position, fields = parse_xgid(text)
    assert fields == XgidFields(1, -1, -1, "52", 3, 2, 1, 7, 10)
    assert fields.roll == (5, 2) and fields.cube_value == 2
    assert format_xgid(position, fields) == text
    # The top player is on roll: their checkers are the lowercase ones, seen from their side.
    assert position.mover[24] == 1 and position.xgid(fields) == text


def test_xgid_without_max_cube_field_round_trips():
    text = START_XGID.rsplit(":", 1)[0]
    position, fields = parse_xgid(text)
    assert fields.max_cube_log2 is None and format_xgid(position, fields) == text


@pytest.mark.parametrize(
    "bad",
    [
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",
        "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",
        "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
        "XGID=-b----O-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ],
)
def test_bad_xgid_raises_format_error_naming_input(bad):
    with pytest.raises(FormatError, match=r"^XGID ") as error:
        parse_xgid(bad)
    assert repr(bad) in str(error.value)


def test_position_id_with_bits_after_the_counts_is_refused():
    # 27YBAOBYAAAAAA (12 checkers off, so 12 bits of padding) with the last bit set.
    with pytest.raises(FormatError, match="beyond"):
        Position.from_id("27YBAOBYAAAAgA")
