"""A game of an online table played up to a forced roll, for the tests of online play.

With the joins of A, B, C, D and their order, then ``GAME``, the team (B, the captain) is on
roll after 45 events; with ``DICE_SEED`` = ``SEED`` the server rolls them 3-6 there
(``chance.server_event``: the seed and the event count), whose one legal play is ``FORCED``.
Among its rolls is one with no legal play (the team's 1-6: the turn passed by itself).
"""

from __future__ import annotations

from typing import Any

SEED = 1
FORCED_DICE = (3, 6)
FORCED = "bar/22"

GAME: list[dict[str, Any]] = [
    {"type": "opening_roll", "box": 6, "team": 1},
    {"type": "move", "move": "24/23 8/2"},
    {"type": "roll", "dice": [4, 1]},
    {"type": "move", "move": "8/4 6/5"},
    {"type": "roll", "dice": [5, 4]},
    {"type": "move", "move": "13/8 6/2"},
    {"type": "roll", "dice": [3, 4]},
    {"type": "move", "move": "13/9 4/1*"},
    {"type": "roll", "dice": [5, 2]},
    {"type": "move", "move": "bar/20* 13/11"},
    {"type": "roll", "dice": [3, 2]},
    {"type": "move", "move": "bar/22 24/22"},
    {"type": "roll", "dice": [5, 3]},
    {"type": "move", "move": "13/5"},
    {"type": "roll", "dice": [6, 5]},
    {"type": "move", "move": "22/16 13/8"},
    {"type": "roll", "dice": [3, 1]},
    {"type": "move", "move": "23/20 2/1*"},
    {"type": "roll", "dice": [6, 3]},
    {"type": "move", "move": "bar/22 9/3"},
    {"type": "roll", "dice": [5, 1]},
    {"type": "move", "move": "11/6 2/1"},
    {"type": "roll", "dice": [4, 3]},
    {"type": "move", "move": "13/10 6/2"},
    {"type": "roll", "dice": [6, 2]},
    {"type": "move", "move": "20/18 8/2"},
    {"type": "roll", "dice": [4, 4]},
    {"type": "move", "move": "22/18(2) 8/4 6/2"},
    {"type": "roll", "dice": [3, 1]},
    {"type": "move", "move": "18/15* 6/5"},
    {"type": "roll", "dice": [1, 6]},
    {"type": "roll", "dice": [4, 6]},
    {"type": "move", "move": "20/14 15/11"},
    {"type": "roll", "dice": [5, 4]},
    {"type": "move", "move": "bar/21 16/11*"},
    {"type": "roll", "dice": [2, 6]},
    {"type": "roll", "dice": [3, 6]},
    {"type": "move", "move": "11/2"},
    {"type": "roll", "dice": [1, 2]},
    {"type": "move", "move": "bar/24* 6/4*"},
]
