"""DICE_SEED: seeded server dice for tests (a failure replays), never on in production."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import create_app
from chouette.services import chance
from chouette.table import apply_event, new_table
from tests.conftest import dispose, make_app


def _seated(*names: str):
    state = new_table()
    for name in names:
        state = apply_event(state, {"type": "join", "player": name})
    return state


def _rolls(app, seed_state, count: int) -> list[dict]:
    """The server's next ``count`` chance events, each applied before the next is drawn."""
    events, state = [], seed_state
    with app.app_context():
        for _ in range(count):
            event = chance.server_event(state, "order_roll" if not state.ordered else "roll")
            events.append(event)
            state = apply_event(state, event)
    return events


def test_seeded_dice_roll_the_same_for_the_same_actions(tmp_path: Path):
    for name in "abc":
        (tmp_path / name).mkdir()
    first = make_app(tmp_path / "a", DICE_SEED=7)
    second = make_app(tmp_path / "b", DICE_SEED=7)
    other = make_app(tmp_path / "c", DICE_SEED=8)
    try:
        state = _seated("Ann", "Bob", "Cy")
        rolls = _rolls(first, state, 1)
        assert rolls == _rolls(second, state, 1)
        with first.app_context():
            opening = [chance.server_event(state, "roll") for _ in range(5)]
        assert len({str(event) for event in opening}) == 1  # a function of the seed and the log
        with other.app_context():
            others = [chance.server_event(_seated("Ann", "Bob", "Cy", *"DEFGH"[:n]), "order_roll")
                      for n in range(5)]
        with first.app_context():
            mine = [chance.server_event(_seated("Ann", "Bob", "Cy", *"DEFGH"[:n]), "order_roll")
                    for n in range(5)]
        assert others != mine  # another seed, other dice
    finally:
        for app in (first, second, other):
            dispose(app)


def test_without_a_seed_the_dice_are_not_repeated(app):
    state = _seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    with app.app_context():
        orders = {str(chance.server_event(state, "order_roll")) for _ in range(20)}
    assert len(orders) > 1  # six dice each time from secrets: 20 equal draws would be 6**-114


def test_dice_seed_is_refused_outside_tests(tmp_path: Path):
    with pytest.raises(ValueError, match="DICE_SEED: seeded dice are for tests only"):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}",
                    "SECRET_KEY": "x", "DICE_SEED": 1})


def test_dice_seed_is_never_read_from_the_environment(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DICE_SEED", "1")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}", "SECRET_KEY": "x"})
    assert app.config.get("DICE_SEED") is None
