"""Random legal games from the engine with a seeded ``random.Random``, as records."""

from __future__ import annotations

import random
from typing import Any

from chouette.engine import Position, apply_move, legal_moves, outcome
from chouette.records import Action, Double, Drop, Play, RecordedGame, Take
from chouette.table import TableError, apply_event, fold


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


def random_match(rng: random.Random, length: int) -> tuple[RecordedGame, ...]:
    """A whole match of random games: cube actions, the Crawford game once, scores before each."""
    scores = [0, 0]
    games: list[RecordedGame] = []
    crawford_played = False
    while max(scores) < length:
        crawford = not crawford_played and length - 1 in scores
        crawford_played = crawford_played or crawford
        game = random_game(rng, cube=True, score=(scores[0], scores[1]), crawford=crawford)
        games.append(game)
        assert game.winner is not None
        scores[game.winner] += game.points
    return tuple(games)


class Log:
    """A table log in the making: its events and the state they fold to."""

    def __init__(self, settings: dict[str, Any], players: tuple[str, ...], rolls: list[int]) -> None:
        self.events: list[dict[str, Any]] = [{"type": "join", "player": p} for p in players]
        self.events.append({"type": "order_roll", "rolls": dict(zip(players, rolls, strict=True))})
        self.state = fold(settings, self.events)

    def attempt(self, event: dict[str, Any]) -> bool:
        """Add ``event`` if the table accepts it; whether it did (a refusal is left out)."""
        try:
            self.state = apply_event(self.state, event)
        except TableError:
            return False
        self.events.append(event)
        return True


def table_log(rng: random.Random, cube_mode: str, *, games: int = 2, cube_chance: float = 0.12,
              drop_chance: float = 0.25, players: tuple[str, ...] = ("Ann", "Bob", "Cy")
              ) -> dict[str, Any]:
    """A table log of whole board games: random legal plays, doubles tried at random (an
    attempt the table refuses is left out), every double answered take or drop."""
    settings = {"cube_mode": cube_mode}
    log = Log(settings, players, rng.sample(range(1, 7), len(players)))
    attempt = log.attempt

    for _ in range(games):
        box, team = rng.sample(range(1, 7), 2)
        assert attempt({"type": "opening_roll", "box": box, "team": team})
        while log.state.game is not None:
            game = log.state.game
            if game.dice is None and game.turns and rng.random() < cube_chance:
                by = "box" if game.on_roll == "box" else game.acting_captain
                double: dict[str, Any] = {"type": "double", "by": by}
                if by == "box" and cube_mode == "multi":
                    double["cubes"] = game.live
                if attempt(double):
                    while log.state.game is not None and (log.state.game.pending or log.state.game.box_double):
                        answer = "drop" if rng.random() < drop_chance else "take"
                        answered = log.state.game.box_double.answers if log.state.game.box_double else {}
                        who = next((m for m in log.state.game.pending if m not in answered), "team")
                        assert attempt({"type": answer, "cube": who}) or attempt(
                            {"type": answer, "cube": "team"})
                    continue
            if log.state.game.dice is None:
                assert attempt({"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
                continue
            plays = legal_moves(log.state.game.position, log.state.game.dice)
            assert attempt({"type": "move", "move": str(rng.choice(plays))})
    return {"table": settings, "events": log.events}


def club_night_log(seed: int, cube_mode: str = "single") -> dict[str, Any]:
    """A board-mode table log as a club night lives it: a proxy in game 1, game 2 voided by
    a correction, the house rules changed (the Jacoby rule on, a new stake), a deal in game 3,
    then game 4. Random legal plays (seeded); every double taken."""
    rng = random.Random(seed)
    players = ("Ann", "Bob", "Cy", "Dee")
    settings = {"cube_mode": cube_mode}
    log = Log(settings, players, rng.sample(range(1, 7), 4))
    attempt = log.attempt

    def team_member() -> str:
        """A member of the team, not its captain, whose cube is still in play."""
        assert log.state.game is not None
        return next(m for m in log.state.game.members if m != log.state.game.acting_captain
                    and log.state.game.cubes[m].is_live)

    def game(aside: str | None = None) -> None:
        box, team = rng.sample(range(1, 7), 2)
        assert attempt({"type": "opening_roll", "box": box, "team": team})
        while log.state.game is not None:
            current = log.state.game
            if current.dice is None and current.turns == 2 and aside == "proxy":
                member = team_member()
                other = next(m for m in current.members if m not in (member, current.acting_captain))
                assert attempt({"type": "proxy", "player": member, "to": other})
            if current.dice is None and current.turns == 3 and aside == "deal":
                assert attempt({"type": "deal", "cube": team_member(), "winner": "box", "points": 1})
            if current.dice is None and current.turns and not current.pending and rng.random() < 0.1:
                by = "box" if current.on_roll == "box" else current.acting_captain
                if attempt({"type": "double", "by": by}):
                    while log.state.game is not None and (log.state.game.pending or log.state.game.box_double):
                        answered = log.state.game.box_double.answers if log.state.game.box_double else {}
                        who = next((m for m in log.state.game.pending if m not in answered), "team")
                        assert attempt({"type": "take", "cube": who}) or attempt({"type": "take", "cube": "team"})
                    continue
            if log.state.game.dice is None:
                assert attempt({"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
                continue
            assert attempt({"type": "move", "move": str(rng.choice(legal_moves(log.state.game.position, log.state.game.dice)))})

    game("proxy")
    game()
    assert attempt({"type": "correct", "game": 2, "reason": "played with the wrong dice", "void": True})
    assert attempt({"type": "settings", "settings": {"jacoby": True, "stake_cents": 200}})
    game("deal")
    game()
    return {"table": settings, "events": log.events}
