"""Consulting (docs/rules.md 2.9): who may advise the captain under each setting."""

from __future__ import annotations

from chouette.table.actions import may_consult

from .helpers import double, drop, run, seated, take


def test_consulting_after_cube_opens_once_someone_has_doubled_even_if_dropped():
    state = run(seated("ABCD", consulting="after_cube"), double("box", "C"), drop("C"))
    assert may_consult(state) == ["D"]


def test_consulting_after_cube_only_members_whose_cube_is_in_play():
    state = run(seated("ABCDE", consulting="after_cube"), double("box", "C", "D"), take("C"),
                drop("D"))
    assert may_consult(state) == ["C", "E"]


def test_consulting_advises_the_acting_captain():
    state = run(seated("ABCDE"), double("B"), drop("B"))
    # B beat the box and is out of this game; C is acting captain; D and E may advise.
    assert may_consult(state) == ["D", "E"]


def test_consulting_automatic_double_is_not_a_turned_cube():
    state = run(seated("ABCD", consulting="after_cube", automatic_doubles=1),
                {"type": "opening_roll", "box": 3, "team": 3})
    assert may_consult(state) == []
