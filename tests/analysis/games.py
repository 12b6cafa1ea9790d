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
            if game.dice is None:  # no legal play: the turn passed by itself
                return self
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


def beaver_game(players: tuple[str, str, str] = ("A", "B", "C")) -> Log:
    """Multi-cube with beavers and raccoons: A is the box, B the captain, C the other member.
    Early on the box doubles B and C: B beavers (right: the box's double/take is below 0), C
    takes (wrong), the box takes B's beaver. Later C redoubles when ahead, the box beavers
    (wrong), C raccoons (right) and the box takes (the box owns C's cube at 16); then B
    doubles and the box drops, and the box redoubles C, who drops."""
    log = Log({"cube_mode": "multi", "beavers": True, "raccoons": True}, players)
    _, b, c = players
    log.add({"type": "opening_roll", "box": 3, "team": 1}).play(3, 1).play(4, 2)
    log.add({"type": "double", "by": "box", "cubes": [b, c]})
    log.add({"type": "beaver", "cube": b}).add({"type": "take", "cube": c})
    log.add({"type": "take", "cube": b})
    log.play(2, 1).play(6, 6).play(2, 1)
    log.add({"type": "double", "by": c}).add({"type": "beaver", "cube": c})
    log.add({"type": "raccoon", "cube": c}).add({"type": "take", "cube": c})
    log.play(5, 5).play(1, 2)
    log.add({"type": "double", "by": b}).add({"type": "drop", "cube": b})
    log.play(3, 1)
    log.add({"type": "double", "by": "box", "cubes": [c]}).add({"type": "drop", "cube": c})
    return log


def no_beaver_game() -> Log:
    """The beaver game's start at a table without beavers: B and C take the box's early double,
    then each doubles the box, which drops."""
    log = Log({"cube_mode": "multi"})
    log.add({"type": "opening_roll", "box": 3, "team": 1}).play(3, 1).play(4, 2)
    log.add({"type": "double", "by": "box", "cubes": ["B", "C"]})
    log.add({"type": "take", "cube": "B"}).add({"type": "take", "cube": "C"})
    log.play(2, 1).play(6, 6).play(2, 1)
    log.add({"type": "double", "by": "B"}).add({"type": "drop", "cube": "B"})
    log.add({"type": "double", "by": "C"}).add({"type": "drop", "cube": "C"})
    return log


def extras_game() -> Log:
    """Extras (docs/rules.md 2.7): A is the box of B, C and D. The box doubles all three early:
    B and C drop, D takes alone; B gives D an extra cube, C gives none. D redoubles the extra
    and B takes; D doubles the box, which drops; B redoubles the extra and D drops it."""
    log = Log({"cube_mode": "multi", "extras": True}, ("A", "B", "C", "D"))
    log.add({"type": "opening_roll", "box": 3, "team": 1}).play(3, 1).play(4, 2)
    log.add({"type": "double", "by": "box", "cubes": ["B", "C", "D"]})
    log.add({"type": "drop", "cube": "B"}).add({"type": "drop", "cube": "C"})
    log.add({"type": "take", "cube": "D"})
    log.add({"type": "extra", "from": "B", "to": "D"})
    log.play(2, 1)
    log.add({"type": "double", "by": "D", "extra": "B"}).add({"type": "take", "extra": "B"})
    log.add({"type": "double", "by": "D"}).add({"type": "drop", "cube": "D"})
    log.play(6, 6)
    log.add({"type": "double", "by": "B", "extra": "B"}).add({"type": "drop", "extra": "B"})
    return log
