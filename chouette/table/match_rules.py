"""A head-to-head match at a table (docs/rules.md 1.8): the chouette log and board, two players.

A match table is a table whose settings have a ``match_length`` (``Settings.for_match``). Its
log is the chouette log: the two players join, the order (or an order roll) seats the first as
the box (side 0) and the second as the captain (side 1, their one cube the team's), then every
game is played on the board with the single-cube events (``double`` by ``"box"`` or by the
captain, ``take``/``drop`` on the captain's cube or ``"team"``). The rules here come on top:

- the seats never rotate: each player keeps their side for the whole match;
- a game is worth the cube x 1/2/3, capped at what the winner needs (no bonus beyond N);
- the Crawford game (no double), and with the ``holland`` setting no double by the trailer
  before their third turn after it (``chouette.engine.Match``);
- no beavers, raccoons, Jacoby or automatic doubles (``Settings`` refuses them), no
  corrections (undo instead), nobody joins a third seat or leaves;
- a game played on a physical board is recorded on the sheet in one ``result`` event: the
  winner, the kind and the cube value it ended at (``cube``, 1 when left out; 1 in the
  Crawford game), with no cube events of its own;
- nothing is played once a side has N points.

>>> from chouette.table import fold
>>> state = fold(Settings.for_match(3), [{"type": "join", "player": "Ann"},
...     {"type": "join", "player": "Bob"}, {"type": "order", "players": ["Ann", "Bob"]},
...     {"type": "opening_roll", "box": 3, "team": 1}, {"type": "move", "move": "8/5 6/5"},
...     {"type": "double", "by": "Bob"}, {"type": "drop", "cube": "team"}])
>>> match_of(state).scores, score_line(state)
((0, 1), (('Ann', 0), ('Bob', 1)))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chouette.engine import Cube, Match
from chouette.engine.matchid import GameState, MatchState
from chouette.table.errors import TableError
from chouette.table.game import BOARD, Game, GameRecord, settle
from chouette.table.settings import Settings

if TYPE_CHECKING:
    from chouette.table.tablestate import TableState

BOX = "box"
#: The highest cube of a game recorded on the sheet: at 64 a single wins any match (99 points
#: at most), so a higher cube changes nothing.
MAX_SHEET_CUBE = 64
#: Events that play a game: refused once the match is over.
GAME_EVENTS = frozenset({"double", "take", "drop", "beaver", "raccoon", "opening_roll", "roll",
                         "move", "result", "extra"})

__all__ = ["BOX", "GAME_EVENTS", "MAX_SHEET_CUBE", "Settings", "check", "finish", "match_id", "match_of",
           "players", "score_line", "sheet_cube"]


def players(state: TableState) -> tuple[str, str] | None:
    """The two players, side 0 (the box seat) first, once the order has seated them."""
    box, captain = state.seats.box, state.seats.captain
    if box is None or captain is None:
        return None
    return box, captain


def match_of(state: TableState) -> Match | None:
    """The match after the finished games (None at a chouette table).

    A game's record holds the captain's points against the box, already capped.
    """
    settings = state.settings
    if not settings.is_match:
        return None
    match = Match(settings.match_length, holland_rule=settings.holland)
    for record in state.games:
        if record.voided or not record.pairs:
            continue
        points = record.pairs[0][1]
        match = match.record_game(1 if points > 0 else 0, abs(points))
    return match


def score_line(state: TableState) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """Each player with their score, side 0 first (None before the order seats them)."""
    seated = players(state)
    match = match_of(state)
    if seated is None or match is None:
        return None
    return (seated[0], match.scores[0]), (seated[1], match.scores[1])


def turn_number(game: Game) -> int:
    """The side on roll's turn in this game, from 1 (the opening roll's winner moves first).

    >>> game = Game.start(1, ["Bob"])
    >>> game.turns = 3
    >>> turn_number(game)
    2
    """
    return game.turns // 2 + 1


def check(state: TableState, event: dict[str, Any]) -> None:
    """The match's own refusals, before the chouette rules judge ``event``.

    Raises:
        TableError: the match does not allow this event now (the message says why).
    """
    kind = event.get("type")
    match = match_of(state)
    assert match is not None
    if kind == "join" and len(state.seated) >= 2:
        raise TableError("a match is between two players: {first} and {second} play it",
                         first=state.seated[0], second=state.seated[1])
    if kind == "leave" and state.ordered:
        raise TableError("{name} plays this match: nobody leaves a match before its end",
                         name=event.get("player"))
    if kind == "correct":
        raise TableError("a match game is not corrected: undo the last actions instead")
    if kind not in GAME_EVENTS:
        return
    if match.is_over:
        winner = players(state)
        name = winner[match.winner or 0] if winner else ""
        raise TableError("the match is over: {name} won it {first}-{second}", name=name,
                         first=max(match.scores), second=min(match.scores))
    if kind == "result":
        _check_sheet_cube(match, event.get("cube", 1))
    if kind in ("beaver", "raccoon"):
        raise TableError("no beavers or raccoons in a match")
    if kind == "double":
        _check_double(state, match, event)


def _check_double(state: TableState, match: Match, event: dict[str, Any]) -> None:
    """No double before the board's opening roll, in the Crawford game, or (Holland rule)
    by the trailer before their third turn after it."""
    game = state.game
    if game is None or not game.is_board:
        raise TableError("in a match a double comes at the start of a turn on the board: "
                         "play the opening roll first")
    if match.crawford_game:
        raise TableError("nobody may double in the Crawford game")
    side = 0 if event.get("by") == BOX else 1
    on_roll = 0 if game.on_roll == BOX else 1
    seated = players(state)
    if side != on_roll and seated is not None:
        raise TableError("it is {name}'s turn: only {name} may double now", name=seated[on_roll])
    if game.dice is not None:
        return  # the chouette rules say the dice are rolled
    turn = turn_number(game)
    if match.double_refusal(side, turn_number=turn) is not None:
        raise TableError("after the Crawford game the trailer may not double before their third "
                         "turn (Holland rule; this is their turn {turn})", turn=turn)


def _check_sheet_cube(match: Match, value: object) -> None:
    """A game recorded on the sheet ends at a cube of 1, 2, 4, ... (1 in the Crawford game)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 \
            or value & (value - 1) or value > MAX_SHEET_CUBE:
        raise TableError("the cube is 1, 2, 4, 8... up to {max}, not {value!r}",
                         max=MAX_SHEET_CUBE, value=value)
    if value > 1 and match.crawford_game:
        raise TableError("nobody may double in the Crawford game: its cube stays at 1")


def sheet_cube(game: Game, value: object, winner: str) -> None:
    """Turn the one cube of a game recorded on the sheet to ``value`` (checked by ``check``),
    owned by the winner (who took the last double changes no points)."""
    if value is None or value == 1:
        return
    assert isinstance(value, int)
    second = game.members[0]
    owner = 0 if winner == BOX else 1
    game.cubes[second] = game.cubes[second].with_cube(Cube(value, owner=owner, turned=True))


def finish(state: TableState, game: Game, winner: str | None, kind: str | None) -> None:
    """Record a finished match game: the cube's points capped at what the winner needed.

    The seats stay: each player keeps their side for the whole match.
    """
    match = match_of(state)
    assert match is not None
    (member, points), = settle(game, winner, kind, jacoby=False)[0]
    side = 1 if points > 0 else 0
    won = min(abs(points), match.away(side))
    state.games.append(GameRecord(
        game.number, state.seats.box or "", None, member, points > 0, winner, kind,
        game.mode or BOARD, tuple(game.cubes[m] for m in game.members),
        ((member, won if points > 0 else -won),), (),
    ))
    state.game = None


def match_id(state: TableState) -> str | None:
    """The GNU Backgammon Match ID of the match now (None at a chouette table).

    Between games it holds the score (the game state "over" once the match is won); during a
    game the cube, the side on roll, the dice and a double waiting for an answer too.
    """
    match = match_of(state)
    if match is None:
        return None
    game = state.game
    if game is None or game.position is None or game.on_roll is None:
        from chouette.engine import Cube

        over = GameState.OVER if match.is_over else GameState.NO_GAME
        return MatchState.from_game(Cube(), on_roll=0, match=match, game_state=over).id
    cube = next(iter(game.cubes.values())).cube
    offer = cube.offer
    on_roll = offer.side if offer is not None else (0 if game.on_roll == BOX else 1)
    return MatchState.from_game(cube, on_roll=on_roll, match=match, dice=game.dice).id
