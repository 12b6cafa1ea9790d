"""Random legal games from the engine with a seeded ``random.Random``, as records."""

from __future__ import annotations

import random

from chouette.engine import Position, apply_move, legal_moves, outcome
from chouette.records import Action, Double, Drop, Play, RecordedGame, Take


def random_game(rng: random.Random, *, cube: bool = False, jacoby: bool = False,
                score: tuple[int, int] = (0, 0), crawford: bool = False) -> RecordedGame:
    """A whole game of random legal plays; with ``cube`` random doubles, takes and drops."""
    position = Position.initial()
    actions: list[Action] = []
    player = rng.randrange(2)
    value, owner = 1, None
    first = True
    while True:
        if not first and cube and not crawford and owner in (None, player) and rng.random() < 0.15:
            actions.append(Double(player, value * 2))
            if rng.random() < 0.3:
                actions.append(Drop(1 - player))
                return RecordedGame(tuple(actions), player, value, *score, crawford)
            actions.append(Take(1 - player))
            value, owner = value * 2, 1 - player
        dice = tuple(rng.sample(range(1, 7), 2)) if first else (rng.randint(1, 6), rng.randint(1, 6))
        first = False
        plays = legal_moves(position, dice)
        move = rng.choice(plays) if plays else None
        actions.append(Play(player, dice, str(move) if move else ""))
        if move is not None:
            position = apply_move(position, move)
        result = outcome(position)
        if result is not None:
            kind = 1 if jacoby and value == 1 else int(result.kind)
            return RecordedGame(tuple(actions), player, value * kind, *score, crawford)
        position, player = position.swap(), 1 - player
