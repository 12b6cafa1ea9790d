"""Proxies: a member who steps away hands their cube decisions to a teammate still playing, for
the rest of the game; the money stays theirs (docs/rules.md 2.12, issue 14 item 2).

The rules of the event are here; who may then post the absent member's decisions is
``deciders.decider`` (tests/web/test_deals_and_proxies.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chouette.services.deciders import decider, decision_owner
from chouette.table import TableError, TableState, apply_event, new_table

from .helpers import cents, double, drop, result, run, seated, take

TIED = {"type": "opening_roll", "box": 3, "team": 3}  # starts the game, cubes in the middle


def proxy(absent: str, to: str) -> dict[str, Any]:
    return {"type": "proxy", "player": absent, "to": to}


def started(order: str = "ABCD", **settings: Any) -> TableState:
    return run(seated(order, **settings), TIED)


def test_proxy_answers_the_box_double_for_the_absent_member():
    state = run(started(), proxy("C", "D"), double("box", "B", "C", "D"))
    assert decision_owner(state, take("C")) == "C"
    assert decider(state, take("C")) == "D"
    assert decider(state, take("D")) == "D" and decider(state, take("B")) == "B"


def test_proxy_doubles_for_the_absent_member():
    state = run(started(), proxy("C", "D"))
    assert decider(state, double("C")) == "D"


def test_proxy_answers_the_box_beaver_on_the_absent_members_double_side():
    state = run(started(beavers=True), proxy("C", "D"), double("C"), {"type": "beaver", "cube": "C"})
    # The box beavered C's double: C (the original doubler) answers, so C's proxy does.
    assert decider(state, take("C")) == "D"


def test_single_cube_proxy_answers_the_box_double_for_the_absent_member():
    state = run(started(cube_mode="single"), proxy("D", "C"), double("box"))
    assert decider(state, drop("D")) == "C"


def test_money_stays_the_absent_members():
    state = run(started(), proxy("C", "D"), double("box", "B", "C", "D"), take("B"), drop("C"),
                take("D"), result("box"))
    assert cents(state) == {"A": 500, "B": -200, "C": -100, "D": -200}


def test_proxy_ends_with_the_game():
    state = run(started(), proxy("C", "D"), result("box"))
    assert state.games[-1].proxies == (("C", "D"),)
    state = run(state, TIED, double("box", "C", "D"))
    assert state.game.proxies == {} and decider(state, take("C")) == "C"


def test_undo_of_a_proxy_gives_the_decisions_back():
    state = run(started(), proxy("C", "D"), {"type": "undo"}, double("box", "C"))
    assert decider(state, take("C")) == "C"


def test_proxy_between_games_starts_the_next_game_as_a_double_does():
    state = run(seated("ABCD"), proxy("C", "D"))
    assert state.game is not None and state.game.proxies == {"C": "D"}


def test_proxy_survives_a_snapshot():
    state = run(started(), proxy("C", "D"))
    again = TableState.from_snapshot(json.loads(json.dumps(state.snapshot())))
    assert again.game.proxies == {"C": "D"}


@pytest.mark.parametrize(("events", "event", "message"), [
    ([], proxy("C", "C"), "a proxy is another teammate, not C"),
    ([], proxy("C", "A"), "A is not a teammate still playing this game"),
    ([], proxy("C", "Zed"), "Zed is not at this table"),
    ([], proxy("Zed", "D"), "Zed is not at this table"),
    ([], proxy("A", "D"), "A does not play this game"),
    ([], proxy("B", "D"), "B is the captain, who plays the board for the team"),
    ([], {"type": "proxy", "player": "C"}, "the proxy needs a name"),
    ([double("box", "D"), drop("D")], proxy("C", "D"), "D is not a teammate still playing"),
    ([double("box", "C"), drop("C")], proxy("C", "D"), "C's cube is out of play: there is no decision"),
    ([proxy("C", "D")], proxy("C", "B"), "C has already handed the decisions to D"),
    ([proxy("C", "D")], proxy("D", "B"), "D decides for a teammate in this game"),
    ([proxy("C", "D")], proxy("B", "C"), "B is the captain"),
    ([proxy("D", "B")], proxy("C", "D"), "D has handed their own decisions to B"),
])
def test_proxy_refusals_say_why_and_change_nothing(events, event, message):
    state = run(started(), *events)
    with pytest.raises(TableError, match=message):
        apply_event(state, event)


def test_proxy_before_the_starting_order_is_refused():
    state = run(new_table(), {"type": "join", "player": "A"}, {"type": "join", "player": "B"})
    with pytest.raises(TableError, match="roll for the starting order first"):
        apply_event(state, proxy("A", "B"))
