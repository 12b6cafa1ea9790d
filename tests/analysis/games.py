"""Hand-made table logs of short board games, each move the engine's first legal play."""

from __future__ import annotations

from typing import Any

from chouette.engine import legal_moves
from chouette.table import apply_event, fold


class Log:
    """A table log built event by event; ``play(d1, d2)`` rolls (after the opening) and moves."""

    def __init__(self, settings: dict[str, Any], players: tuple[str, ...] = ("A", "B", "C")) -> None:
        self.settings = settings
        self.players = players
        self.events: list[dict[str, Any]] = [{"type": "join", "player": p} for p in players]
        rolls = dict(zip(players, range(6, 6 - len(players), -1), strict=True))
        self.events.append({"type": "order_roll", "rolls": rolls})
        self.state = fold(settings, self.events)

    def add(self, event: dict[str, Any]) -> Log:
        self.state = apply_event(self.state, event)
        self.events.append(event)
        return self

    def play(self, d1: int, d2: int, pick: int = 0) -> Log:
        game = self.state.game
        assert game is not None
        if game.dice is None:
            self.add({"type": "roll", "dice": [d1, d2]})
            game = self.state.game
            assert game is not None
        plays = legal_moves(game.position, game.dice)
        return self.add({"type": "move", "move": str(plays[min(pick, len(plays) - 1)])})

    @property
    def log(self) -> dict[str, Any]:
        return {"table": self.settings, "events": list(self.events)}


def cube_game() -> Log:
    """Multi-cube: A is the box, B the captain, C the other member. C doubles and the box takes;
    the box doubles B (not C's cube it owns), who drops; the box redoubles C, who drops: the
    game ends."""
    log = Log({"cube_mode": "multi"})
    log.add({"type": "opening_roll", "box": 3, "team": 1}).play(3, 1)
    log.add({"type": "double", "by": "C"}).add({"type": "take", "cube": "C"})
    log.play(6, 6)
    log.add({"type": "double", "by": "box", "cubes": ["B"]}).add({"type": "drop", "cube": "B"})
    log.play(2, 1, pick=5).play(5, 2)
    log.add({"type": "double", "by": "box", "cubes": ["C"]}).add({"type": "drop", "cube": "C"})
    return log


def short_game(games: int = 1, players: tuple[str, str, str] = ("A", "B", "C")) -> Log:
    """Single cube: a few plays, the box doubles, the team drops (``games`` times); the first
    player is the box."""
    log = Log({"cube_mode": "single"}, players)
    for _ in range(games):
        _short(log)
    return log


def _short(log: Log) -> None:
    log.add({"type": "opening_roll", "box": 6, "team": 5}).play(6, 5)
    for dice in ((4, 2), (6, 4), (5, 5), (3, 1), (6, 2), (4, 4), (2, 1)):
        log.play(*dice, pick=3)
    log.add({"type": "double", "by": "box"})
    for member in log.players[1:]:
        log.add({"type": "drop", "cube": member})
