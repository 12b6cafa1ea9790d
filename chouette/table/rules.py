"""The chouette rules, one handler per event type (RULES 2; log format in DESIGN.md).

Each handler checks the event against the state, raises TableError with a reason the
players understand, and otherwise changes the (already copied) state in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from chouette.engine import Position, RulesError, apply_move, legal_moves, match_move, outcome
from chouette.table import seats as seating
from chouette.table.cubes import BOX, DROPPED, LIVE, MEMBER, WON, Extra, Offer
from chouette.table.errors import TableError
from chouette.table.game import BOARD, KINDS, SCORESHEET, Game, GameRecord, settle

if TYPE_CHECKING:
    from chouette.table.state import TableState

ANSWERS = ("take", "drop", "beaver")


def apply(state: TableState, event: dict[str, Any]) -> None:
    """Apply one event to ``state`` in place.

    Raises:
        TableError: the event is malformed or not allowed now.
    """
    kind = event.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise TableError(f"unknown event type {kind!r}")
    handler(state, event)


# --- players and seats -------------------------------------------------------------------


def _player(state: TableState, value: object, what: str = "player") -> str:
    """A seated player named in an event."""
    from chouette.table.state import check_name

    name = check_name(value, what)
    if name not in state.seated:
        raise TableError(f"{name} is not at this table")
    return name


def on_join(state: TableState, event: dict[str, Any]) -> None:
    """A player sits down: at the end of the line (or behind the next rotation)."""
    from chouette.table.state import check_name

    name = check_name(event.get("player"))
    if name in state.seated:
        raise TableError(f"{name} is already at the table")
    stake = event.get("stake_cents")
    if stake is not None:
        if not state.settings.per_player_stakes:
            raise TableError("this table plays one stake for everyone; per-player stakes are off")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise TableError(f"{name}'s stake must be a whole number of cents, not {stake!r}")
        state.stakes[name] = stake
    if name not in state.players:
        state.players.append(name)
    if not state.ordered:
        if state.order_groups is None:
            state.waiting.append(name)
        else:
            state.order_groups.append([name])
    elif state.game is not None and state.settings.join_position == "after_next_rotation":
        state.pending_joiners.append(name)
    else:
        state.seats.line.append(name)
        state.seats.fill()


def on_leave(state: TableState, event: dict[str, Any]) -> None:
    """A player leaves; not while he has a live cube in the game (RULES 2.2)."""
    name = _player(state, event.get("player"))
    game = state.game
    if game is not None:
        if name in (state.seats.box, state.seats.partner):
            raise TableError(f"{name} plays for the box side in this game; leave after it")
        if name == game.seat_captain and game.captain_won_early:
            raise TableError(f"{name} has beaten the box in this game; leave after it")
        if name in game.live or any(name in (e.giver, e.taker) for e in game.extras):
            raise TableError(f"{name} has a live cube in this game; leave after it")
    if name in state.waiting:
        state.waiting.remove(name)
    elif name in state.pending_joiners:
        state.pending_joiners.remove(name)
    elif state.order_groups is not None and not state.ordered:
        state.order_groups = [[p for p in g if p != name] for g in state.order_groups]
        state.order_groups = [g for g in state.order_groups if g]
        _finish_order(state)
    else:
        was_partner = name == state.seats.partner
        if seating.remove_player(state.seats, name) or was_partner:
            state.partner_offers = []
    if name in state.partner_offers:
        state.partner_offers.remove(name)


def on_order_roll(state: TableState, event: dict[str, Any]) -> None:
    """One die each for the starting order; later rolls only among the tied (RULES 2.1)."""
    rolls = event.get("rolls")
    if not isinstance(rolls, dict) or not rolls:
        raise TableError("an order roll needs a die for each player")
    if state.ordered:
        raise TableError("the starting order is already settled")
    checked = {_player(state, n): seating.check_die(str(n), d) for n, d in rolls.items()}
    if state.order_groups is None:
        expected = set(state.waiting)
        if len(expected) < 2:
            raise TableError("at least two players must be at the table to roll for the order")
        if set(checked) != expected:
            missing = ", ".join(sorted(expected - set(checked))) or "none"
            raise TableError(f"every player rolls for the order; missing: {missing}")
        state.order_groups = seating.order_groups(checked)
        state.waiting = []
    else:
        tied = [g for g in state.order_groups if len(g) > 1]
        rolled = set(checked)
        chosen = [g for g in tied if set(g) <= rolled]
        if {p for g in chosen for p in g} != rolled or not chosen:
            groups = "; ".join(", ".join(g) for g in tied)
            raise TableError(f"only tied players roll again, a whole tie at a time: {groups}")
        new_groups: list[list[str]] = []
        for group in state.order_groups:
            if group in chosen:
                new_groups.extend(seating.order_groups({p: checked[p] for p in group}))
            else:
                new_groups.append(group)
        state.order_groups = new_groups
    _finish_order(state)


def on_order(state: TableState, event: dict[str, Any]) -> None:
    """A recorded starting order (a shuffle, or dice rolled off the app): box first."""
    players = event.get("players")
    if state.ordered:
        raise TableError("the starting order is already settled")
    if not isinstance(players, list):
        raise TableError("a recorded order lists the players, box first")
    names = [_player(state, p) for p in players]
    expected = state.waiting + [p for g in state.order_groups or [] for p in g]
    if sorted(names) != sorted(expected) or len(set(names)) != len(names):
        raise TableError("a recorded order names every player at the table exactly once")
    if len(names) < 2:
        raise TableError("at least two players must be at the table to set the order")
    state.waiting = []
    state.order_groups = [[n] for n in names]
    _finish_order(state)


def _finish_order(state: TableState) -> None:
    """Seat everyone once no tie is left: box, captain, line."""
    groups = state.order_groups
    if groups is None or any(len(g) > 1 for g in groups) or not groups:
        return
    order = [g[0] for g in groups]
    state.seats = seating.Seats(order[0], None, None, order[1:])
    state.seats.fill()
    state.ordered = True
    state.order_groups = None


def on_partner(state: TableState, event: dict[str, Any]) -> None:
    """The partnership offered to the next player in turn: accepted or declined (RULES 2.8)."""
    name = _player(state, event.get("player"))
    if state.game is not None:
        raise TableError("the partnership is settled between games")
    if not state.needs_partner():
        raise TableError("no partnership is to be offered now")
    expected = state.next_partner_offer()
    if name != expected:
        raise TableError(f"the partnership must be offered to {expected} now, not {name}")
    accept = event.get("accept")
    if not isinstance(accept, bool):
        raise TableError("say whether the partnership is accepted (true) or declined (false)")
    if accept:
        _seat_partner(state, name)
    else:
        state.partner_offers.append(name)


def on_partner_draw(state: TableState, event: dict[str, Any]) -> None:
    """After everyone declined: the partner drawn among the team but the captain."""
    name = _player(state, event.get("player"))
    if state.game is not None or not state.needs_partner():
        raise TableError("no partnership is to be drawn now")
    if state.next_partner_offer() is not None:
        raise TableError(f"the partnership must first be offered to {state.next_partner_offer()}")
    if name not in state.seats.line:
        raise TableError(f"the partner is drawn among the team other than the captain, not {name}")
    _seat_partner(state, name)


def _seat_partner(state: TableState, name: str) -> None:
    seats = state.seats
    if name == seats.captain:
        seats.captain = None
    else:
        seats.line.remove(name)
    seats.partner = name
    seats.fill()
    state.partner_offers = []


# --- starting a game ---------------------------------------------------------------------


def _game(state: TableState) -> Game:
    """The game in progress, started now if this is its first event."""
    if state.game is not None:
        return state.game
    if not state.ordered:
        raise TableError("roll for the starting order first")
    if state.seats.box is None or state.seats.captain is None:
        raise TableError("a game needs a box and a captain: at least two players")
    if state.needs_partner():
        nxt = state.next_partner_offer()
        who = f"offer it to {nxt}" if nxt else "draw the partner"
        raise TableError(f"the box's partnership comes first: {who}")
    state.game = Game.start(len(state.games) + 1, state.seats.team)
    return state.game


def _close_windows(game: Game) -> None:
    """Raccoons and extras are immediate: any other action closes them."""
    game.raccoon_open.clear()
    game.extras_open = None


def _no_offer(game: Game) -> None:
    if game.offer is not None:
        waiting = ", ".join(game.offer.waiting)
        raise TableError(f"answer the open double first (waiting: {waiting})")


# --- the cube ----------------------------------------------------------------------------


def on_double(state: TableState, event: dict[str, Any]) -> None:
    """The box doubles some members' cubes, or a member (the captain, single-cube) the box."""
    game = _game(state)
    _no_offer_unless_member_batch(game, event)
    by = event.get("by")
    if game.mode is None:
        game.mode = SCORESHEET
    single = state.settings.cube_mode == "single"
    if by == "box":
        _board_turn(game, BOX, "double")
        cubes = event.get("cubes")
        if cubes is None or single:
            targets = game.live
            if single and cubes is not None and sorted(_names(state, cubes)) != sorted(targets):
                raise TableError("with a single cube the box doubles every member still playing")
        else:
            targets = _names(state, cubes)
            if not targets:
                raise TableError("name the cubes the box doubles")
        for member in targets:
            cube = _cube(game, member)
            if not cube.can_double(BOX):
                raise TableError(_no_access(member, cube, BOX))
        _close_windows(game)
        game.offer = Offer(BOX, targets, {m: game.cubes[m].value for m in targets},
                           all_live=sorted(targets) == sorted(game.live),
                           initial=not game.box_doubled)
        game.box_doubled = True
        return
    member = _player(state, by, "doubler")
    _board_turn(game, MEMBER, "double")
    if single:
        if member != game.acting_captain:
            raise TableError(f"with a single cube only the captain ({game.acting_captain}) "
                             "doubles for the team")
        targets = game.live
    else:
        targets = [member]
    for name in targets:
        cube = _cube(game, name)
        if not cube.can_double(MEMBER):
            raise TableError(_no_access(name, cube, MEMBER))
    _close_windows(game)
    if game.offer is not None:  # another member doubles at the same moment
        if member in game.offer.cubes:
            raise TableError(f"{member} has already doubled")
        game.offer.cubes.append(member)
        game.offer.pre[member] = game.cubes[member].value
    else:
        game.offer = Offer(MEMBER, targets, {m: game.cubes[m].value for m in targets})


def _no_offer_unless_member_batch(game: Game, event: dict[str, Any]) -> None:
    offer = game.offer
    if offer is None:
        return
    joining = offer.by == MEMBER and not offer.answers and event.get("by") not in (None, "box")
    if not joining:
        _no_offer(game)


def _names(state: TableState, cubes: object) -> list[str]:
    if not isinstance(cubes, list):
        raise TableError("the cubes are a list of member names")
    names = [_player(state, c, "cube") for c in cubes]
    if len(set(names)) != len(names):
        raise TableError("a cube is named twice")
    return names


def _cube(game: Game, member: str):
    if member not in game.cubes:
        raise TableError(f"{member} does not play this game")
    cube = game.cubes[member]
    if not cube.is_live:
        raise TableError(f"{member}'s cube is out of play in this game")
    return cube


def _no_access(member: str, cube, side: str) -> str:
    if side == BOX:
        return f"the box cannot double {member}: {member} owns that cube"
    return f"{member} cannot double: the box owns that cube"


def _board_turn(game: Game, side: str, action: str) -> None:
    """In board mode a double comes at the start of the doubler's own turn, before rolling."""
    if not game.is_board:
        return
    mover = "box" if game.on_roll == BOX else "team"
    if game.on_roll != side:
        raise TableError(f"it is the {mover}'s turn: only the {mover} may {action} now")
    if game.dice is not None:
        raise TableError("a double comes before the roll; the dice are already rolled")


def on_answer(state: TableState, event: dict[str, Any]) -> None:
    """Take, drop or beaver: the side that was doubled answers a cube."""
    game = state.game
    answer = event["type"]
    offer = game.offer if game else None
    if game is None or offer is None:
        raise TableError(f"there is no double to {answer}")
    if answer == "beaver" and not state.settings.beavers:
        raise TableError("beavers are not played at this table")
    target = event.get("cube")
    single = state.settings.cube_mode == "single"
    if offer.by == BOX:
        member = _player(state, target, "cube")
        if member not in offer.waiting:
            raise TableError(_not_waiting(member, offer))
        offer.answers[member] = answer
        if not offer.waiting:
            _resolve_box_offer(state, game, offer)
        return
    # Members doubled the box: the box answers each cube, or the team's one cube.
    if single:
        if target != "team":
            raise TableError('with a single cube the box answers the team\'s double: cube "team"')
        members = list(offer.waiting)
    else:
        member = _player(state, target, "cube")
        if member not in offer.waiting:
            raise TableError(_not_waiting(member, offer))
        members = [member]
    for member in members:
        _same_value_same_action(state, offer, member, answer)
        offer.answers[member] = answer
        _box_answers(state, game, member, offer.pre[member], answer)
    if not offer.waiting:
        game.offer = None
    _end_if_no_cube(state, game)


def _not_waiting(member: str, offer: Offer) -> str:
    if member in offer.answers:
        return f"{member}'s cube has already been answered"
    return f"{member}'s cube was not doubled"


def _same_value_same_action(state: TableState, offer: Offer, member: str, answer: str) -> None:
    if not state.settings.same_value_same_action:
        return
    for other, given in offer.answers.items():
        if offer.pre[other] == offer.pre[member] and (given == "drop") != (answer == "drop"):
            raise TableError(f"same value, same action: the box answered {other}'s cube with "
                             f"{given}, so {member}'s must be answered the same way")


def _box_answers(state: TableState, game: Game, member: str, pre: int, answer: str) -> None:
    cube = game.cubes[member]
    if answer == "drop":
        game.cubes[member] = cube.dropped_by(BOX, pre)
        if member == game.seat_captain:
            game.captain_won_early = True
        if member == game.acting_captain:
            _next_acting_captain(state, game, move_old_to_end=False)
        return
    factor = 4 if answer == "beaver" else 2
    game.cubes[member] = cube.taken(pre * factor, BOX)
    if answer == "beaver":
        game.raccoon_open[member] = MEMBER


def _resolve_box_offer(state: TableState, game: Game, offer: Offer) -> None:
    """Every member answered the box's double: all-but-one, drops, new captain, extras."""
    settings = state.settings
    answers = offer.answers
    takers = [m for m in offer.cubes if answers[m] != "drop"]
    droppers = [m for m in offer.cubes if answers[m] == "drop"]
    lone = len(takers) == 1 and droppers and offer.all_live
    if (lone and settings.all_but_one != "off" and not settings.extras
            and len(state.seats.seated) >= settings.all_but_one_min_players):
        taker = takers[0]
        if settings.all_but_one == "forced_drop" or answers[taker] != "beaver":
            answers[taker] = "drop"
            takers, droppers = [], droppers + [taker]
    beaver_all = False
    if settings.cube_mode == "single":
        # The captain's beaver decides for every member who took (RULES 2.4).
        first_taker = next((m for m in _best_placed(state, game) if m in takers), None)
        beaver_all = first_taker is not None and answers[first_taker] == "beaver"
    game.offer = None
    for member in offer.cubes:
        cube, pre = game.cubes[member], offer.pre[member]
        if answers[member] == "drop":
            game.cubes[member] = cube.dropped_by(MEMBER, pre)
            continue
        beaver = beaver_all if settings.cube_mode == "single" else answers[member] == "beaver"
        game.cubes[member] = cube.taken(pre * (4 if beaver else 2), MEMBER)
        if beaver:
            game.raccoon_open[member] = BOX
    if game.seat_captain in droppers and not game.captain_won_early:
        _next_acting_captain(state, game, move_old_to_end=True)
    elif game.acting_captain in droppers:
        _next_acting_captain(state, game, move_old_to_end=False)
    if settings.extras and offer.initial and lone and takers:
        game.extras_open = (takers[0], tuple(droppers))
    _end_if_no_cube(state, game)


def _best_placed(state: TableState, game: Game) -> list[str]:
    """Members of this game in seat order: the captain, then the line."""
    order = [game.seat_captain] + state.seats.line
    return [m for m in order if m in game.cubes]


def _next_acting_captain(state: TableState, game: Game, *, move_old_to_end: bool) -> None:
    """The best-placed live member takes over; a dropping seat captain goes to the end."""
    live = [m for m in _best_placed(state, game) if game.cubes[m].status == LIVE]
    if not live:
        return  # nobody left: the game ends
    new = live[0]
    if move_old_to_end:
        seats = state.seats
        old = game.seat_captain
        seats.line.remove(new)
        seats.line.append(old)
        seats.captain = new
        game.seat_captain = new
    game.acting_captain = new


def on_raccoon(state: TableState, event: dict[str, Any]) -> None:
    """The original doubler redoubles a beavered cube at once; it stays with the taker."""
    game = state.game
    if not state.settings.raccoons:
        raise TableError("raccoons are not played at this table")
    if game is None or not game.raccoon_open:
        raise TableError("there is no beaver to raccoon")
    target = event.get("cube")
    if target == "team" and state.settings.cube_mode == "single":
        members = list(game.raccoon_open)
    else:
        member = _player(state, target, "cube")
        if member not in game.raccoon_open:
            raise TableError(f"{member}'s cube was not beavered just now")
        members = [member]
    for member in members:
        cube = game.cubes[member]
        game.cubes[member] = cube.taken(cube.value * 2, cube.owner or MEMBER)
        del game.raccoon_open[member]


def on_extra(state: TableState, event: dict[str, Any]) -> None:
    """A teammate gives the lone taker an extra 2-cube and pays him one point (RULES 2.7)."""
    game = state.game
    if not state.settings.extras:
        raise TableError("extras are not played at this table")
    if game is None or game.extras_open is None:
        raise TableError("an extra is given only right after a lone take of the box's first double")
    giver = _player(state, event.get("from"), "giver")
    taker = _player(state, event.get("to"), "taker")
    lone, givers = game.extras_open
    if taker != lone:
        raise TableError(f"the extra goes to the lone taker, {lone}")
    if giver not in givers:
        raise TableError(f"{giver} cannot give an extra: only a member who dropped that double can")
    if any(e.giver == giver for e in game.extras):
        raise TableError(f"{giver} has already given an extra")
    game.extras.append(Extra(giver, taker))


# --- the board ---------------------------------------------------------------------------


def _die(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise TableError(f"a die is a number from 1 to 6, not {value!r}")
    return value


def on_opening_roll(state: TableState, event: dict[str, Any]) -> None:
    """Each side rolls one die; a tie turns the cubes (automatic doubles) and rolls again."""
    game = _game(state)
    box_die, team_die = _die(event.get("box")), _die(event.get("team"))
    if game.is_board:
        raise TableError("the opening roll has been played already")
    if box_die == team_die:
        if game.any_double:
            raise TableError("the opening roll comes before any cube action")
        if game.automatic < state.settings.automatic_doubles:
            game.automatic += 1
            for member, cube in list(game.cubes.items()):
                game.cubes[member] = type(cube)(member, value=cube.value * 2)
        return
    if game.mode == SCORESHEET:
        raise TableError("this game is scored on the sheet; it cannot move to the board now")
    game.mode = BOARD
    game.on_roll = BOX if box_die > team_die else MEMBER
    game.position = Position.initial()
    game.dice = (box_die, team_die)


def on_roll(state: TableState, event: dict[str, Any]) -> None:
    """The side on roll rolls; with no legal play the turn passes by itself."""
    game = _game(state)
    dice = event.get("dice")
    if not isinstance(dice, list | tuple) or len(dice) != 2:
        raise TableError("a roll is two dice, e.g. [6, 5]")
    d1, d2 = _die(dice[0]), _die(dice[1])
    if not game.is_board:
        raise TableError("roll the opening first (one die each)" if game.mode is None
                         else "this game is scored on the sheet: enter its result")
    _no_offer(game)
    if game.dice is not None:
        raise TableError(f"the dice are rolled ({game.dice[0]}-{game.dice[1]}): move first")
    _close_windows(game)
    game.dice = (d1, d2)
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
    _no_offer(game)
    try:
        move = match_move(game.position, game.dice, text)
    except RulesError as exc:
        raise TableError(str(exc)) from exc
    game.position = apply_move(game.position, move)
    game.last_move = str(move)
    result = outcome(game.position)
    if result is not None:
        winner = "box" if game.on_roll == BOX else "team"
        _finish(state, game, winner, result.kind.name.lower())
        return
    _pass_turn(game)


def _pass_turn(game: Game) -> None:
    game.position = game.position.swap()
    game.on_roll = MEMBER if game.on_roll == BOX else BOX
    game.dice = None
    game.turns += 1


# --- the end of a game -------------------------------------------------------------------


def on_result(state: TableState, event: dict[str, Any]) -> None:
    """A declared result (score sheet): winner and kind, or a finished position."""
    game = _game(state)
    if game.is_board:
        raise TableError("this game is played on the board: its last move ends it")
    _no_offer(game)
    if "position_id" in event:
        winner, kind = _classify(event.get("position_id"), event.get("on_roll"))
    else:
        winner, kind = event.get("winner"), event.get("kind")
        if winner not in ("box", "team"):
            raise TableError('the winner is "box" or "team"')
        if kind not in KINDS:
            raise TableError('the result is "single", "gammon" or "backgammon"')
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
        raise TableError(str(exc)) from exc
    result = outcome(position)
    if result is None:
        raise TableError(f"the game in position {position_id} is not finished")
    other = "team" if on_roll == "box" else "box"
    winner = on_roll if result.on_roll_won else other
    return str(winner), result.kind.name.lower()


def _end_if_no_cube(state: TableState, game: Game) -> None:
    if state.game is game and not game.live:
        _finish(state, game, None, None)


def _finish(state: TableState, game: Game, winner: str | None, kind: str | None) -> None:
    """Settle the game, record it, rotate the seats (RULES 2.3, 2.10)."""
    settings = state.settings
    pairs, extras = settle(game, winner, kind, jacoby=settings.jacoby)
    seat_cube = game.cubes[game.seat_captain]
    if seat_cube.status == WON:
        captain_won = True
    elif seat_cube.status == DROPPED:
        captain_won = False
    else:
        captain_won = winner == "team"
    record = GameRecord(
        game.number, state.seats.box or "", state.seats.partner, game.seat_captain,
        captain_won, winner, kind, game.mode or SCORESHEET,
        tuple(game.cubes[m] for m in game.members), pairs, extras,
    )
    net = record.box_side_points
    keeps = {"beat_captain": True, "net_non_negative": net >= 0, "net_positive": net > 0}
    if seating.rotate(state.seats, captain_won=captain_won,
                      box_keeps=keeps[settings.box_retention]):
        state.partner_offers = []
    state.seats.line.extend(state.pending_joiners)
    state.pending_joiners = []
    state.seats.fill()
    state.games.append(record)
    state.game = None


HANDLERS: dict[str, Callable[[TableState, dict[str, Any]], None]] = {
    "join": on_join,
    "leave": on_leave,
    "order_roll": on_order_roll,
    "order": on_order,
    "partner": on_partner,
    "partner_draw": on_partner_draw,
    "double": on_double,
    "take": on_answer,
    "drop": on_answer,
    "beaver": on_answer,
    "raccoon": on_raccoon,
    "extra": on_extra,
    "opening_roll": on_opening_roll,
    "roll": on_roll,
    "move": on_move,
    "result": on_result,
}
