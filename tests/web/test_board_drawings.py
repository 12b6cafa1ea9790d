"""The board's drawings remembered (cache ``board_drawings``): a board drawn again for what it
shows is the same drawing, and anything it shows that differs (language, dice, side at the
bottom, names, cubes, taps) gives its own drawing, never another board's."""

from __future__ import annotations

from flask import Flask
from flask_babel import force_locale

from chouette import caches
from chouette.engine import Position
from chouette.web.board import BOARD_DRAWINGS, board_context, legal_steps
from chouette.web.board_cubes import CubeView
from chouette.web.board_svg import render_board

START = Position.initial()


def drawing(**changes) -> str:
    """The board of table 1 at the start with 3-1 to play; ``changes`` replace its arguments."""
    arguments = {"on_roll": "box", "dice": (3, 1), "bottom": "box", "labels": {"box": "Ann", "team": "Bob"},
                 "cubes": [CubeView(member="Cy", value=1)], "interactive": True,
                 "legal": legal_steps(START, (3, 1)), **changes}
    return str(board_context(1, arguments.pop("position", START), **arguments)["board_svg"])


def test_a_board_drawn_again_for_the_same_things_is_the_remembered_drawing(app: Flask):
    with app.test_request_context():
        first = drawing()
        assert drawing() == first
        assert len(caches.cache(BOARD_DRAWINGS)) == 1
        # What was remembered is what drawing it now gives.
        assert first.startswith(str(render_board(START, on_roll="box", dice=(3, 1), bottom="box",
                                                 labels={"box": "Ann", "team": "Bob"},
                                                 cubes=[CubeView(member="Cy", value=1)],
                                                 legal=legal_steps(START, (3, 1)), controls=True)))


def test_every_thing_a_board_shows_gives_its_own_drawing(app: Flask):
    with app.test_request_context():
        first = drawing()
        others = {
            "dice": drawing(dice=(4, 2), legal=legal_steps(START, (4, 2))),
            "side at the bottom": drawing(bottom="team"),
            "names": drawing(labels={"box": "Ann", "team": "Dee"}),
            "cubes": drawing(cubes=[CubeView(member="Cy", value=2, owner="box")]),
            "taps": drawing(interactive=False),
            "on roll": drawing(on_roll="team"),
            "position": drawing(position=Position.from_points({6: 15}, {6: 15})),
        }
        for name, other in others.items():
            assert other != first, name
        with force_locale("it"):
            italian = drawing()
        assert "Tiro 3-1" in italian and "Tiro 3-1" not in first
        assert len(caches.cache(BOARD_DRAWINGS)) == 1 + len(others) + 1
