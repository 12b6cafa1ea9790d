"""Builders for match tests: a match table seated Ann (side 0, the box seat) against Bob."""

from __future__ import annotations

import random
from typing import Any

from chouette.engine import apply_move, legal_moves
from chouette.table import Settings, TableState, apply_event, new_table

ANN, BOB = "Ann", "Bob"


def match_table(length: int = 3, *, holland: bool = False, stake: str = "none",
                stake_cents: int = 0) -> TableState:
    """Ann and Bob seated for a match: Ann on side 0 (the box seat), Bob on side 1."""
    state = new_table(Settings.for_match(length, holland=holland, stake=stake,
                                         stake_cents=stake_cents))
    for event in ({"type": "join", "player": ANN}, {"type": "join", "player": BOB},
                  {"type": "order", "players": [ANN, BOB]}):
        state = apply_event(state, event)
    return state


def run(state: TableState, *events: dict[str, Any]) -> TableState:
    """Apply events in order."""
    for event in events:
        state = apply_event(state, event)
    return state


def opening(state: TableState, box: int = 3, team: int = 1) -> TableState:
    """The opening roll and the opener's move (the play that leaves the opener the fewest pips)."""
    state = run(state, {"type": "opening_roll", "box": box, "team": team})
    return move(state)


def move(state: TableState, rng: random.Random | None = None) -> TableState:
    """The side on roll plays its dice: a random legal play, or the fastest one."""
    game = state.game
    assert game is not None and game.position is not None and game.dice is not None
    plays = legal_moves(game.position, game.dice)
    if rng is not None:
        chosen = rng.choice(plays)
    else:
        chosen = min(plays, key=lambda m: (apply_move(game.position, m).pips()[0], str(m)))
    return run(state, {"type": "move", "move": str(chosen)})


def turn(state: TableState, rng: random.Random, dice: tuple[int, int] | None = None) -> TableState:
    """One turn: a roll and, when it plays, a move."""
    rolled = dice or (rng.randint(1, 6), rng.randint(1, 6))
    state = run(state, {"type": "roll", "dice": list(rolled)})
    game = state.game
    if game is not None and game.dice is not None:
        state = move(state, rng if rng.random() < 0.3 else None)
    return state


def play_out(state: TableState, rng: random.Random) -> TableState:
    """Play the game in progress (or a new one) to its last checker (no cube action)."""
    if state.game is None:
        state = opening(state, *_opening_dice(rng))
    while state.game is not None:
        game = state.game
        if game.position is None:
            state = opening(state, *_opening_dice(rng))
        elif game.dice is not None:
            state = move(state, rng)
        else:
            state = turn(state, rng)
    return state


def _opening_dice(rng: random.Random) -> tuple[int, int]:
    while True:
        box, team = rng.randint(1, 6), rng.randint(1, 6)
        if box != team:
            return box, team


def double(by: str) -> dict[str, Any]:
    """A double: by "box" (Ann, side 0) or by Bob (the captain, side 1)."""
    return {"type": "double", "by": by}


def answer(kind: str, doubler: str) -> dict[str, Any]:
    """The answer to ``doubler``'s double: Bob answers on their own cube, Ann on "team"."""
    return {"type": kind, "cube": BOB if doubler == "box" else "team"}


def other(side: str) -> str:
    """The other side: "box" (Ann) or Bob."""
    return BOB if side == "box" else "box"


def win_by_drop(state: TableState, winner: str, cube: int = 1) -> TableState:
    """A new game that ``winner`` ("box" for Ann, or Bob) wins at ``cube`` by a drop: the
    doubles alternate and are taken until the cube is ``cube``, then the winner doubles and
    the other drops."""
    doubles = cube.bit_length() - 1
    doubler = winner if doubles % 2 == 0 else other(winner)
    state = opening(state, 1, 3) if doubler == "box" else opening(state, 3, 1)
    for _ in range(doubles):
        state = _until_on_roll(state, doubler)
        state = run(state, double(doubler), answer("take", doubler))
        state = turn(state, random.Random(cube))
        doubler = other(doubler)
    state = _until_on_roll(state, winner)
    return run(state, double(winner), answer("drop", winner))


def _until_on_roll(state: TableState, who: str) -> TableState:
    """Play turns until ``who`` ("box" or Bob) is on roll before rolling."""
    side = "box" if who == "box" else "member"
    rng = random.Random(7)
    while state.game is not None and (state.game.on_roll != side or state.game.dice is not None):
        state = turn(state, rng) if state.game.dice is None else move(state)
    return state
