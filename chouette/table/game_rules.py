"""A game outside its cubes: its start, the board, its result and corrections (docs/rules.md 2.3, 2.10).

The checks every game event makes first are here too, for the seats and the cubes: the
player it names, the game in progress (started by its first event), no double waiting for an
answer. The end of a game settles it, records it and rotates the seats, with any correction
of it applied. Handlers as in :mod:`chouette.table.rules`: check the event, raise TableError,
or change the state in place.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chouette.engine import (
    Cube,
    Position,
    RulesError,
    apply_move,
    legal_moves,
    match_move,
    outcome,
)
from chouette.engine.errors import Phrase
from chouette.table import seats as seating
from chouette.table.cubes import BOX_SIDE, DEALT, DROPPED, WON
from chouette.table.errors import TableError
from chouette.table.game import BOARD, KINDS, SCORESHEET, Game, GameRecord, settle
from chouette.table.tablestate import TableState, check_name

BOX = "box"  # the side on roll in board mode
MEMBER = "member"


# --- players and starting a game ---------------------------------------------------------


def seated_player(state: TableState, value: object, what: str = "player") -> str:
    """A seated player named in an event."""
    name = check_name(value, what)
    if not state.is_seated(name):
        raise TableError("{name} is not at this table", name=name)
    return name


def game_in_progress(state: TableState) -> Game:
    """The game in progress, started now if this is its first event."""
    if state.game is not None:
        return state.game
    if not state.ordered:
        raise TableError("roll for the starting order first")
    if state.seats.box is None or state.seats.captain is None:
        raise TableError("a game needs a box and a captain: at least two players")
    if state.needs_partner():
        nxt = state.next_partner_offer()
        if nxt:
            raise TableError("the box's partnership comes first: offer it to {name}", name=nxt)
        raise TableError("the box's partnership comes first: draw the partner")
    game = Game.start(len(state.games) + 1, state.seats.team)
    game.start_seats = state.seats.to_dict()
    if state.settings.per_player_stakes:
        # The stakes in force when the game starts price all of it, even after a rejoin.
        players = [p for p in (state.seats.box, state.seats.partner) if p] + game.members
        game.stakes = {p: state.stake_of(p) for p in players}
    state.game = game
    return game


def close_windows(game: Game) -> None:
    """Extras are given at once: any other action closes the window."""
    game.extras_open = None


# --- waiting for an answer ---------------------------------------------------------------


def no_offer_waiting(game: Game) -> None:
    """Nothing else happens while a cube waits for an answer."""
    waiting = _waiting_words(game)
    if waiting:
        raise TableError("answer the open double first (waiting: {waiting})", waiting=listed_words(waiting))


def _waiting_words(game: Game) -> list[str | Phrase]:
    givers = [e.giver if e.cube.to_answer == BOX_SIDE else e.taker
              for e in game.pending_extras]
    words: list[str | Phrase] = [Phrase("{name} on the extra cube", name=who) for who in givers]
    for member in game.pending:
        offer = game.cubes[member].cube.offer
        if (game.box_double and member in game.box_double.answers and offer is not None
                and offer.kind == "double"):
            continue  # a single cube's take or beaver, applied once every member answered
        side = game.cubes[member].to_answer
        words.append(member if side == "member" else Phrase("the box on {name}'s cube", name=member))
    return words


def listed_words(words: list[str | Phrase]) -> str | Phrase:
    """``words`` joined by commas, each still translatable."""
    if len(words) == 1:
        return words[0]
    return Phrase("{first}, {rest}", first=words[0], rest=listed_words(words[1:]))


# --- the board ---------------------------------------------------------------------------


def _die(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise TableError("a die is a number from 1 to 6, not {value!r}", value=value)
    return value


def on_opening_roll(state: TableState, event: dict[str, Any]) -> None:
    """Each side rolls one die; a tie turns the cubes (automatic doubles) and rolls again."""
    game = game_in_progress(state)
    box_die, team_die = _die(event.get("box")), _die(event.get("team"))
    if game.is_board:
        raise TableError("the opening roll has been played already")
    if box_die == team_die:
        if game.any_double:
            raise TableError("the opening roll comes before any cube action")
        if game.automatic < state.settings.automatic_doubles:
            game.automatic += 1
            for member, cube in list(game.cubes.items()):
                game.cubes[member] = cube.with_cube(Cube(cube.value * 2))
        return
    if game.mode == SCORESHEET:
        raise TableError("this game is scored on the sheet; it cannot move to the board now")
    game.mode = BOARD
    game.on_roll = BOX if box_die > team_die else MEMBER
    game.position = Position.initial()
    game.dice = (box_die, team_die)


def on_roll(state: TableState, event: dict[str, Any]) -> None:
    """The side on roll rolls; with no legal play the turn passes by itself."""
    game = game_in_progress(state)
    dice = event.get("dice")
    if not isinstance(dice, list | tuple) or len(dice) != 2:
        raise TableError("a roll is two dice, e.g. [6, 5]")
    d1, d2 = _die(dice[0]), _die(dice[1])
    if not game.is_board:
        if game.mode is None:
            raise TableError("roll the opening first (one die each)")
        raise TableError("this game is scored on the sheet: enter its result")
    no_offer_waiting(game)
    if game.dice is not None:
        raise TableError("the dice are rolled ({die1}-{die2}): move first", die1=game.dice[0], die2=game.dice[1])
    close_windows(game)
    game.dice = (d1, d2)
    assert game.position is not None  # a board game always has its position
    if not legal_moves(game.position, game.dice):
        _pass_turn(game)


def on_move(state: TableState, event: dict[str, Any]) -> None:
    """The side on roll plays the dice; the last checker off ends the game."""
    game = state.game
    text = event.get("move")
    if not isinstance(text, str):
        raise TableError('a move is written like "24/18 13/11"')
    if game is None or not game.is_board or game.dice is None:
        raise TableError("roll the dice before moving")
    no_offer_waiting(game)
    assert game.position is not None  # a board game always has its position
    try:
        move = match_move(game.position, game.dice, text)
    except RulesError as exc:
        raise TableError(exc.phrase) from exc
    game.position = apply_move(game.position, move)
    game.last_move = str(move)
    result = outcome(game.position)
    if result is not None:
        winner = "box" if game.on_roll == BOX else "team"
        _finish(state, game, winner, result.kind.name.lower())
        return
    _pass_turn(game)


def _pass_turn(game: Game) -> None:
    assert game.position is not None  # a board game always has its position
    game.position = game.position.swap()
    game.on_roll = MEMBER if game.on_roll == BOX else BOX
    game.dice = None
    game.turns += 1


# --- the end of a game -------------------------------------------------------------------


def on_result(state: TableState, event: dict[str, Any]) -> None:
    """A declared result (score sheet): winner and kind, or a finished position."""
    game = game_in_progress(state)
    if game.is_board:
        raise TableError("this game is played on the board: its last move ends it")
    no_offer_waiting(game)
    if "position_id" in event:
        winner, kind = _classify(event.get("position_id"), event.get("on_roll"))
    else:
        given_winner, given_kind = event.get("winner"), event.get("kind")
        if given_winner not in ("box", "team"):
            raise TableError('the winner is "box" or "team"')
        if given_kind not in KINDS:
            raise TableError('the result is "single", "gammon" or "backgammon"')
        winner, kind = str(given_winner), str(given_kind)
    if state.settings.is_match:
        from chouette.table import match_rules

        match_rules.sheet_cube(game, event.get("cube"), winner)
    elif event.get("cube") is not None:
        raise TableError("a result carries a cube value only in a match: a chouette's cubes "
                         "are turned by their own doubles")
    game.mode = SCORESHEET
    _finish(state, game, winner, kind)


def _classify(position_id: object, on_roll: object) -> tuple[str, str]:
    if on_roll not in ("box", "team"):
        raise TableError('say which side is on roll in the position: "box" or "team"')
    if not isinstance(position_id, str):
        raise TableError("a finished position is given by its Position ID")
    try:
        position = Position.from_id(position_id.strip())
    except RulesError as exc:
        raise TableError(exc.phrase) from exc
    result = outcome(position)
    if result is None:
        raise TableError("the game in position {position_id} is not finished", position_id=position_id)
    other = "team" if on_roll == "box" else "box"
    winner = on_roll if result.on_roll_won else other
    return str(winner), result.kind.name.lower()


def end_if_no_cube(state: TableState, game: Game) -> None:
    """The game ends when no cube is live, extra cubes included (docs/rules.md 2.5)."""
    if state.game is game and game.is_over:
        _finish(state, game, None, None)


def _finish(state: TableState, game: Game, winner: str | None, kind: str | None) -> None:
    """Settle the game, record it, rotate the seats (docs/rules.md 2.3, 2.10), corrections applied."""
    settings = state.settings
    if settings.is_match:
        from chouette.table import match_rules

        match_rules.finish(state, game, winner, kind)
        return
    correction = state.corrections.get(game.number)
    reason = correction.get("reason") if correction else None
    if correction and correction.get("void"):
        _void(state, game, winner, kind, reason)
        return
    if correction and correction.get("result") and winner is not None and not game.is_board:
        winner, kind = correction["result"]["winner"], correction["result"]["kind"]
    pairs, extras = settle(game, winner, kind, jacoby=settings.jacoby)
    seat_cube = game.cubes[game.seat_captain]
    if seat_cube.status == WON:
        captain_won = True
    elif seat_cube.status == DROPPED:
        captain_won = False
    elif seat_cube.status == DEALT:
        # The organizer said who kept the seat (docs/rules.md 2.12): "captain" marked their win.
        captain_won = game.captain_won_early
    else:
        captain_won = winner == "team"
    record = GameRecord(
        game.number, state.seats.box or "", state.seats.partner, game.seat_captain,
        captain_won, winner, kind, game.mode or SCORESHEET,
        tuple(game.cubes[m] for m in game.members), pairs, extras,
        _stakes(state, game) if settings.per_player_stakes else (), False, reason,
        deals=tuple(game.deals.values()), proxies=tuple(game.proxies.items()),
    )
    net = record.box_side_points + _deals_points(state, game)
    keeps = {"beat_captain": True, "net_non_negative": net >= 0, "net_positive": net > 0}
    if seating.rotate(state.seats, captain_won=captain_won,
                      box_keeps=keeps[settings.box_retention]):
        state.partner_offers = []
    state.seats.line.extend(state.pending_joiners)
    state.pending_joiners = []
    state.seats.fill()
    state.games.append(record)
    state.game = None


def _void(state: TableState, game: Game, winner: str | None, kind: str | None,
          reason: str | None) -> None:
    """A voided game counts for nothing: no money, and the seats are as when it began
    (who joined meanwhile waits at the end of the line; who left stays gone)."""
    start = game.start_seats
    seated = set(state.seats.seated) | set(state.pending_joiners)
    before = [start["box"], start["partner"], start["captain"], *start["line"]]
    box, partner, captain = (p if p in seated else None for p in before[:3])
    seats = seating.Seats(box, partner, captain, [p for p in start["line"] if p in seated])
    newcomers = [p for p in state.seats.seated + state.pending_joiners if p not in before]
    seats.line.extend(newcomers)
    if seats.partner is None and start["partner"] is not None:
        state.partner_offers = []
    seats.fill()
    state.seats = seats
    state.pending_joiners = []
    state.games.append(GameRecord(
        game.number, start["box"], start["partner"], game.seat_captain, False, winner, kind,
        game.mode or SCORESHEET, tuple(game.cubes[m] for m in game.members), (), (), (),
        True, reason,
    ))
    state.game = None


def on_correct(state: TableState, event: dict[str, Any]) -> None:
    """A correction of a finished game: void it, or fix its declared result, with a reason.

    Its effect is applied where that game ends (the fold knows every correction in advance),
    so every later rotation and amount is recomputed; here it is only checked.
    """
    number = event.get("game")
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(state.games):
        raise TableError("there is no finished game {number!r} to correct", number=number)
    reason = event.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        raise TableError("a correction needs a reason (at most 200 characters)")
    record = state.games[number - 1]
    result, answer = event.get("result"), event.get("answer")
    if answer is not None:
        if event.get("void") or result is not None:
            raise TableError("a correction either voids the game, gives its right result or "
                             "fixes one answer")
        _check_answer_fix(state, number, answer)
        return
    if bool(event.get("void")) == (result is not None):
        raise TableError("a correction either voids the game or gives its right result")
    if result is None:
        return
    if not isinstance(result, dict) or result.get("winner") not in ("box", "team") \
            or result.get("kind") not in KINDS:
        raise TableError('the right result names the winner ("box" or "team") and the kind')
    if record.voided:
        return
    if record.mode == BOARD:
        raise TableError("game {number} was played on the board: the board decided its "
                         "result; void it instead", number=number)
    if record.winner is None:
        raise TableError("game {number} ended when every cube was dropped: there is no "
                         "result to fix; void it instead", number=number)


def _check_answer_fix(state: TableState, number: int, answer: dict[str, Any]) -> None:
    """A fixed answer names an answer the fold found in game ``number`` (state.as_corrected)."""
    if state.games[number - 1].voided:
        raise TableError("game {number} is void: there is no answer to fix", number=number)
    found = state.corrections.get(number, {}).get("found", ())
    if [answer["cube"], answer["value"]] not in found:
        raise TableError("in game {number} {name}'s cube at {value} was not doubled and "
                         "answered with a take or a drop", number=number,
                         name=answer["cube"], value=answer["value"])


def _deals_points(state: TableState, game: Game) -> Fraction:
    """The box side's result of the game's deals in points (retention counts them): half
    points as they are, cents at the pair's stake."""
    total = Fraction(0)
    default = state.settings.stake_cents
    box = state.seats.box or ""
    for deal in game.deals.values():
        if deal.half_points is not None:
            total -= Fraction(deal.half_points, 2)
            continue
        stake = min(game.stakes.get(box, default), game.stakes.get(deal.member, default))
        if stake and deal.cents:
            total -= Fraction(deal.cents, stake)
    return total


def _stakes(state: TableState, game: Game) -> tuple[tuple[str, int], ...]:
    """The stakes of everyone in this game, as at its start, kept with its record."""
    return tuple(game.stakes.items())
