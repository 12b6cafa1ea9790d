"""The chouette rules, one handler per event type (RULES 2; log format in DESIGN.md).

Each handler checks the event against the state, raises TableError with a reason the
players understand, and otherwise changes the (already copied) state in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from chouette.engine import (
    Cube,
    CubeError,
    Position,
    RulesError,
    apply_move,
    legal_moves,
    match_move,
    outcome,
)
from chouette.engine.cube import SIDE_WORDS
from chouette.engine.errors import Phrase
from chouette.table import seats as seating
from chouette.table.cubes import (
    BOX_SIDE,
    DROPPED,
    LIVE,
    MEMBER_SIDE,
    WON,
    BoxDouble,
    Extra,
    MemberCube,
)
from chouette.table.errors import TableError
from chouette.table.game import BOARD, KINDS, SCORESHEET, Game, GameRecord, settle

if TYPE_CHECKING:
    from chouette.table.state import TableState

BOX = "box"  # the side on roll in board mode
MEMBER = "member"


def apply(state: TableState, event: dict[str, Any]) -> None:
    """Apply one event to ``state`` in place.

    Raises:
        TableError: the event is malformed or not allowed now.
    """
    kind = event.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise TableError("unknown event type {event_type!r}", event_type=kind)
    handler(state, event)


# --- players and seats -------------------------------------------------------------------


def _player(state: TableState, value: object, what: str = "player") -> str:
    """A seated player named in an event."""
    from chouette.table.state import check_name

    name = check_name(value, what)
    if not state.is_seated(name):
        raise TableError("{name} is not at this table", name=name)
    return name


def on_join(state: TableState, event: dict[str, Any]) -> None:
    """A player sits down: at the end of the line (or behind the next rotation)."""
    from chouette.table.state import check_name

    name = check_name(event.get("player"))
    if state.is_seated(name):
        raise TableError("{name} is already at the table", name=name)
    stake = event.get("stake_cents")
    if stake is not None:
        if not state.settings.per_player_stakes:
            raise TableError("this table plays one stake for everyone; per-player stakes are off")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise TableError("{name}'s stake must be a whole number of cents, not {stake!r}",
                             name=name, stake=stake)
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
            raise TableError("{name} plays for the box side in this game; leave after it", name=name)
        if name == game.seat_captain and game.captain_won_early:
            raise TableError("{name} has beaten the box in this game; leave after it", name=name)
        if name in game.live or any(
                name in (e.giver, e.taker) and e.status == LIVE for e in game.extras):
            raise TableError("{name} has a live cube in this game; leave after it", name=name)
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
            missing = ", ".join(sorted(expected - set(checked))) or Phrase("none")
            raise TableError("every player rolls for the order; missing: {missing}", missing=missing)
        state.order_groups = seating.order_groups(checked)
        state.waiting = []
    else:
        tied = [g for g in state.order_groups if len(g) > 1]
        rolled = set(checked)
        chosen = [g for g in tied if set(g) <= rolled]
        if {p for g in chosen for p in g} != rolled or not chosen:
            groups = "; ".join(", ".join(g) for g in tied)
            raise TableError("only tied players roll again, a whole tie at a time: {groups}", groups=groups)
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
        raise TableError("the partnership must be offered to {expected} now, not {name}",
                         expected=expected, name=name)
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
        raise TableError("the partnership must first be offered to {name}", name=state.next_partner_offer())
    if name not in state.seats.line:
        raise TableError("the partner is drawn among the team other than the captain, not {name}", name=name)
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


def _close_windows(game: Game) -> None:
    """Extras are given at once: any other action closes the window."""
    game.extras_open = None


# --- the cube ----------------------------------------------------------------------------


def _no_offer(game: Game) -> None:
    """Nothing else happens while a cube waits for an answer."""
    waiting = _waiting_words(game)
    if waiting:
        raise TableError("answer the open double first (waiting: {waiting})", waiting=_listed(waiting))


def _waiting_words(game: Game) -> list[str | Phrase]:
    givers = [e.giver if e.cube.to_answer == BOX_SIDE else e.taker
              for e in game.pending_extras]
    words: list[str | Phrase] = [Phrase("{name} on the extra cube", name=who) for who in givers]
    for member in game.pending:
        if game.box_double and member in game.box_double.answers:
            continue
        side = game.cubes[member].to_answer
        words.append(member if side == "member" else Phrase("the box on {name}'s cube", name=member))
    return words


def _listed(words: list[str | Phrase]) -> str | Phrase:
    """``words`` joined by commas, each still translatable."""
    if len(words) == 1:
        return words[0]
    return Phrase("{first}, {rest}", first=words[0], rest=_listed(words[1:]))


def on_double(state: TableState, event: dict[str, Any]) -> None:
    """The box doubles some members' cubes, or a member (the captain, single-cube) the box."""
    game = _game(state)
    by = event.get("by")
    single = state.settings.cube_mode == "single"
    if by == "box":
        _no_offer(game)
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
            if _cube(game, member).cube.double_refusal(BOX_SIDE) is not None:
                raise TableError("the box cannot double {name}: {name} owns that cube", name=member)
        _close_windows(game)
        for member in targets:
            cube = game.cubes[member]
            game.cubes[member] = cube.with_cube(cube.cube.double(BOX_SIDE))
        game.box_double = BoxDouble(targets, {m: game.cubes[m].value for m in targets},
                                    all_live=sorted(targets) == sorted(game.live),
                                    initial=not game.box_doubled)
        game.box_doubled = True
        game.doubles += 1
        game.mode = game.mode or SCORESHEET
        return
    member = _player(state, by, "doubler")
    if "extra" in event:
        _double_extra(state, game, member, event.get("extra"))
        return
    if game.pending_extras:
        _no_offer(game)
    if game.pending:
        # Several members may double at the same moment, before the box answers any.
        same_moment = (not single and not game.box_answers
                       and set(game.pending) <= set(game.member_doubles))
        if member in game.member_doubles:
            raise TableError("{name} has already doubled", name=member)
        if not same_moment:
            _no_offer(game)
    else:
        game.member_doubles, game.box_answers = [], {}
    _board_turn(game, MEMBER, "double")
    if single:
        if member != game.acting_captain:
            raise TableError("with a single cube only the captain ({name}) doubles for the team",
                             name=game.acting_captain)
        targets = game.live
    else:
        targets = [member]
    for name in targets:
        if _cube(game, name).cube.double_refusal(MEMBER_SIDE) is not None:
            raise TableError("{name} cannot double: the box owns that cube", name=name)
    _close_windows(game)
    for name in targets:
        cube = game.cubes[name]
        game.cubes[name] = cube.with_cube(cube.cube.double(MEMBER_SIDE))
    game.member_doubles += targets
    game.doubles += 1
    game.mode = game.mode or SCORESHEET


def _extra(state: TableState, game: Game, giver: object) -> int:
    """The index of the extra cube given by ``giver`` in this game."""
    name = _player(state, giver, "extra cube's giver")
    for index, extra in enumerate(game.extras):
        if extra.giver == name:
            return index
    raise TableError("{name} has given no extra cube in this game", name=name)


def _double_extra(state: TableState, game: Game, doubler: str, giver: object) -> None:
    """The owner of an extra cube redoubles it: the taker on the team's turn, the giver
    (on the box's side of that cube) on the box's."""
    _no_offer(game)
    index = _extra(state, game, giver)
    extra = game.extras[index]
    if doubler not in (extra.giver, extra.taker):
        raise TableError("{name} does not hold the extra cube {giver} gave {taker}",
                         name=doubler, giver=extra.giver, taker=extra.taker)
    if extra.status != LIVE:
        raise TableError("that extra cube is out of play")
    side = MEMBER_SIDE if doubler == extra.taker else BOX_SIDE
    _board_turn(game, MEMBER if side == MEMBER_SIDE else BOX, "double")
    if extra.cube.double_refusal(side) is not None:
        raise TableError("{name} cannot double the extra cube: the other side owns it", name=doubler)
    _close_windows(game)
    game.extras[index] = extra.with_cube(extra.cube.double(side))
    game.doubles += 1


def _answer_extra(state: TableState, game: Game, giver: object, answer: str) -> None:
    """The holder doubled on an extra cube answers: take, drop, beaver or raccoon."""
    index = _extra(state, game, giver)
    extra = game.extras[index]
    side = extra.cube.to_answer
    if side is None:
        raise TableError("there is no double to {answer} on {name}'s extra cube",
                         answer=answer, name=extra.giver)
    _check_allowed(state, answer)
    game.extras[index] = _act(extra, side, answer, extra.giver, extra.taker)


Holder = TypeVar("Holder", MemberCube, Extra)


def _act(holder: Holder, side: int, answer: str, box_side: str | Phrase,
         member_side: str) -> Holder:
    """``side`` answers the offer waiting on a member's cube or an extra cube.

    Raises:
        TableError: the engine's cube refuses it (its reason, with the sides named).
    """
    try:
        if answer == "drop":
            return holder.dropped(side)
        action = {"take": holder.cube.take, "beaver": holder.cube.beaver,
                  "raccoon": holder.cube.raccoon}[answer]
        return holder.with_cube(action(side))
    except CubeError as exc:
        raise TableError(_cube_words(exc, box_side, member_side)) from exc


def _check_allowed(state: TableState, answer: str) -> None:
    if answer == "beaver" and not state.settings.beavers:
        raise TableError("beavers are not played at this table")
    if answer == "raccoon" and not state.settings.raccoons:
        raise TableError("raccoons are not played at this table")


def _cube_words(exc: CubeError, box_side: str | Phrase, member_side: str | Phrase) -> Phrase:
    """The engine's message with the sides named as players."""
    names = {BOX_SIDE: box_side, MEMBER_SIDE: member_side}

    def named(value: object) -> object:
        if not isinstance(value, Phrase):
            return value
        if value.template == SIDE_WORDS:
            return names.get(value.params["side"], value)
        return Phrase(value.template, **{key: named(v) for key, v in value.params.items()})

    phrase = named(exc.phrase)
    assert isinstance(phrase, Phrase)
    return phrase


def _names(state: TableState, cubes: object) -> list[str]:
    if not isinstance(cubes, list):
        raise TableError("the cubes are a list of member names")
    names = [_player(state, c, "cube") for c in cubes]
    if len(set(names)) != len(names):
        raise TableError("a cube is named twice")
    return names


def _cube(game: Game, member: str) -> MemberCube:
    if member not in game.cubes:
        raise TableError("{name} does not play this game", name=member)
    cube = game.cubes[member]
    if not cube.is_live:
        raise TableError("{name}'s cube is out of play in this game", name=member)
    return cube


def _board_turn(game: Game, side: str, action: str) -> None:
    """In board mode a double comes at the start of the doubler's own turn, before rolling."""
    if not game.is_board:
        return
    if game.on_roll != side:
        if game.on_roll == BOX:
            raise TableError("it is the box's turn: only the box may {action} now", action=action)
        raise TableError("it is the team's turn: only the team may {action} now", action=action)
    if game.dice is not None:
        raise TableError("a double comes before the roll; the dice are already rolled")


def on_answer(state: TableState, event: dict[str, Any]) -> None:
    """Take, drop, beaver or raccoon: the side that must answer a cube acts."""
    game = state.game
    answer = event["type"]
    if game is not None and "extra" in event:
        _answer_extra(state, game, event.get("extra"), answer)
        return
    if game is None or not game.pending:
        if answer == "raccoon":
            raise TableError("there is no beaver to raccoon")
        raise TableError("there is no double to {answer}", answer=answer)
    target = event.get("cube")
    box_double = game.box_double
    if box_double is not None:
        member = _player(state, target, "cube")
        if member not in box_double.waiting:
            raise TableError(_not_waiting(member, box_double.answers))
        if answer == "raccoon":
            raise TableError("there is no beaver to raccoon: answer the box's double")
        _check_allowed(state, answer)
        box_double.answers[member] = answer
        if not box_double.waiting:
            _resolve_box_double(state, game, box_double)
        return
    if state.settings.cube_mode == "single":
        if target != "team":
            raise TableError('with a single cube the team\'s cube is answered as one: cube "team"')
        members = list(game.pending)
    else:
        member = _player(state, target, "cube")
        if member not in game.pending:
            raise TableError(_not_waiting(member, dict(game.box_answers)))
        members = [member]
    _check_allowed(state, answer)
    sides = {m: game.cubes[m].cube.to_answer for m in members}
    for member in members:
        _answer(state, game, member, answer)
    if answer == "drop":
        won = [m for m in members if sides[m] == BOX_SIDE]
        lost = [m for m in members if sides[m] == MEMBER_SIDE]
        _after_drops(state, game, won, lost)
    if not game.pending:
        game.member_doubles, game.box_answers = [], {}
    _end_if_no_cube(state, game)


def _not_waiting(member: str, answers: dict[str, Any]) -> Phrase:
    if member in answers:
        return Phrase("{name}'s cube has already been answered", name=member)
    return Phrase("{name}'s cube was not doubled", name=member)


def _answer(state: TableState, game: Game, member: str, answer: str) -> None:
    """One cube's answer, applied at once (a member's double, a beaver, a raccoon)."""
    cube = game.cubes[member]
    side = cube.cube.to_answer
    assert side is not None
    offer = cube.cube.offer
    if side == BOX_SIDE and member in game.member_doubles and offer and offer.kind == "double":
        _same_value_same_action(state, game, member, answer)
        game.box_answers[member] = (answer, cube.value)
    game.cubes[member] = _act(cube, side, answer, Phrase("the box"), member)


def _after_drops(state: TableState, game: Game, won: list[str], lost: list[str]) -> None:
    """Seats after cubes were dropped: by the box (``won``) or by members (``lost``).

    Whole answers first, then one change of captain: a single-cube team answering as one
    moves its captain once.
    """
    if game.seat_captain in won:
        game.captain_won_early = True
    if game.seat_captain in lost and not game.captain_won_early:
        _next_acting_captain(state, game, move_old_to_end=True)
    elif game.acting_captain in won + lost:
        _next_acting_captain(state, game, move_old_to_end=False)


def _same_value_same_action(state: TableState, game: Game, member: str, answer: str) -> None:
    """House rule: cubes of one value doubled at one moment are all taken or all dropped."""
    if not state.settings.same_value_same_action:
        return
    value = game.cubes[member].value
    for other, (given, other_value) in game.box_answers.items():
        if other_value == value and (given == "drop") != (answer == "drop"):
            raise TableError("same value, same action: the box answered {other}'s cube with "
                             "{answer}, so {name}'s must be answered the same way",
                             other=other, answer=given, name=member)


def _resolve_box_double(state: TableState, game: Game, box_double: BoxDouble) -> None:
    """Every member answered the box's double: all-but-one, drops, new captain, extras."""
    settings = state.settings
    answers = box_double.answers
    takers = [m for m in box_double.cubes if answers[m] != "drop"]
    droppers = [m for m in box_double.cubes if answers[m] == "drop"]
    lone = len(takers) == 1 and bool(droppers) and box_double.all_live
    # The players of this game: the box side and the members who started it.
    players = 1 + (state.seats.partner is not None) + len(game.members)
    # Extras replace the forced drop for the box's initial double (RULES 2.7).
    extras_instead = settings.extras and box_double.initial
    if (lone and settings.all_but_one != "off" and not extras_instead
            and players >= settings.all_but_one_min_players):
        taker = takers[0]
        if settings.all_but_one == "forced_drop" or answers[taker] != "beaver":
            answers[taker] = "drop"
            takers, droppers = [], droppers + [taker]
    beaver_all = False
    if settings.cube_mode == "single":
        # The captain's beaver decides for every member who took (RULES 2.4).
        first_taker = next((m for m in _best_placed(state, game) if m in takers), None)
        beaver_all = first_taker is not None and answers[first_taker] == "beaver"
    game.box_double = None
    for member in box_double.cubes:
        cube = game.cubes[member]
        if answers[member] == "drop":
            game.cubes[member] = cube.dropped(MEMBER_SIDE)
            continue
        single = settings.cube_mode == "single"
        beaver = beaver_all if single else answers[member] == "beaver"
        action = cube.cube.beaver if beaver else cube.cube.take
        game.cubes[member] = cube.with_cube(action(MEMBER_SIDE))
    _after_drops(state, game, [], droppers)
    if settings.extras and box_double.initial and lone and takers:
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
        raise TableError("the extra goes to the lone taker, {name}", name=lone)
    if giver not in givers:
        raise TableError("{name} cannot give an extra: only a member who dropped that double can", name=giver)
    if any(e.giver == giver for e in game.extras):
        raise TableError("{name} has already given an extra", name=giver)
    game.extras.append(Extra(giver, taker))


# --- the board ---------------------------------------------------------------------------


def _die(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise TableError("a die is a number from 1 to 6, not {value!r}", value=value)
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
    game = _game(state)
    dice = event.get("dice")
    if not isinstance(dice, list | tuple) or len(dice) != 2:
        raise TableError("a roll is two dice, e.g. [6, 5]")
    d1, d2 = _die(dice[0]), _die(dice[1])
    if not game.is_board:
        if game.mode is None:
            raise TableError("roll the opening first (one die each)")
        raise TableError("this game is scored on the sheet: enter its result")
    _no_offer(game)
    if game.dice is not None:
        raise TableError("the dice are rolled ({die1}-{die2}): move first", die1=game.dice[0], die2=game.dice[1])
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
        raise TableError(exc.phrase) from exc
    result = outcome(position)
    if result is None:
        raise TableError("the game in position {position_id} is not finished", position_id=position_id)
    other = "team" if on_roll == "box" else "box"
    winner = on_roll if result.on_roll_won else other
    return str(winner), result.kind.name.lower()


def _end_if_no_cube(state: TableState, game: Game) -> None:
    if state.game is game and not game.live:
        _finish(state, game, None, None)


def _finish(state: TableState, game: Game, winner: str | None, kind: str | None) -> None:
    """Settle the game, record it, rotate the seats (RULES 2.3, 2.10), corrections applied."""
    settings = state.settings
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
    else:
        captain_won = winner == "team"
    record = GameRecord(
        game.number, state.seats.box or "", state.seats.partner, game.seat_captain,
        captain_won, winner, kind, game.mode or SCORESHEET,
        tuple(game.cubes[m] for m in game.members), pairs, extras,
        _stakes(state, game) if settings.per_player_stakes else (), False, reason,
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


def _void(state: TableState, game: Game, winner: str | None, kind: str | None,
          reason: str | None) -> None:
    """A voided game counts for nothing: no money, and the seats are as when it began
    (who joined meanwhile waits at the end of the line; who left stays gone)."""
    start = game.start_seats
    seated = set(state.seats.seated) | set(state.pending_joiners)
    before = [start["box"], start["partner"], start["captain"], *start["line"]]
    seats = seating.Seats(*(p if p in seated else None for p in before[:3]),
                          [p for p in start["line"] if p in seated])
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
    result = event.get("result")
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


def _stakes(state: TableState, game: Game) -> tuple[tuple[str, int], ...]:
    """The stakes of everyone in this game, as at its start, kept with its record."""
    return tuple(game.stakes.items())


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
    "raccoon": on_answer,
    "extra": on_extra,
    "opening_roll": on_opening_roll,
    "roll": on_roll,
    "move": on_move,
    "result": on_result,
    "correct": on_correct,
}
