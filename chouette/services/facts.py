"""One table's facts for the player pages, folded once from its log (pure: no database).

The facts of a table are each finished game's seats and result, and each cube decision and
how it ended. They are cached per process and stored in the ``table_facts`` rows by
``chouette.services.stored_facts``; the player page (``chouette.services.players``) adds them
up per player.
"""

from __future__ import annotations

import math
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from chouette.ledger.money import pair_stake_cents, points_to_cents
from chouette.table import (
    GameRecord,
    Settings,
    TableError,
    TableState,
    apply_event,
)
from chouette.table.cubes import BOX_SIDE
from chouette.table.state import corrections_of, effective_after, effective_events

ANSWERS = ("take", "beaver", "raccoon", "drop")


def display_name(value: object) -> str:
    """A name as the tables spell it: NFC, single spaces (``check_name``'s spelling)."""
    if not isinstance(value, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", value).split())


# --------------------------------------------------------------------------- one table's facts


@dataclass(frozen=True)
class Decision:
    """One answer to a double: who answered, as what, and how that cube ended for them.

    ``points`` is the answerer's result on the cubes they answered for (negative: what a drop
    cost); ``cents`` the same in money at those cubes' stakes; ``outcome`` is ``won``,
    ``lost``, ``even``, ``open`` (the game is still on) or ``void`` (a correction voided it).
    """

    player: str
    answer: str  # take, beaver, raccoon, drop
    role: str  # box, member, giver (of an extra cube), taker (of an extra cube)
    game: int
    value: int  # the value offered
    points: int
    cents: int
    outcome: str

    def to_list(self) -> list[Any]:
        """JSON-ready form (a list: a night has hundreds of decisions)."""
        return [self.player, self.answer, self.role, self.game, self.value, self.points,
                self.cents, self.outcome]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Decision:
        """Inverse of :meth:`to_list` (JSON gives back the same strings and ints).

        Raises:
            TypeError: not the eight fields.
        """
        return cls(*data)


@dataclass(frozen=True)
class TableFacts:
    """What the player page needs from one table's log: the seats of its finished games and
    its cube decisions (not the game records themselves: those were nine tenths of a stored
    row and two thirds of the time to read one back, for nothing the page shows)."""

    decisions: tuple[Decision, ...]
    stake_cents: int
    #: player -> game number -> (seat, their result in it, voided): counted once per fold.
    seats: dict[str, dict[int, tuple[str, int, bool]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what a ``table_facts`` row stores); ``from_dict`` reads it back."""
        return {
            "decisions": [decision.to_list() for decision in self.decisions],
            "stake_cents": self.stake_cents,
            "seats": {player: {str(number): [seat, result, voided]
                               for number, (seat, result, voided) in games.items()}
                      for player, games in self.seats.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableFacts:
        """Inverse of :meth:`to_dict`. Raises KeyError, TypeError or ValueError when malformed."""
        return cls(
            tuple(Decision.from_list(decision) for decision in data["decisions"]),
            int(data["stake_cents"]),
            {player: {int(number): (seat, result, voided)
                      for number, (seat, result, voided) in games.items()}
             for player, games in data["seats"].items()},
        )


@dataclass
class _Pending:
    """A decision seen in the log, waiting for its game's end to know its outcome."""

    player: str
    answer: str
    role: str
    game: int
    value: int
    members: tuple[str, ...] = ()  # the member cubes it answered for
    extra: str | None = None  # the giver of the extra cube it answered for


def _answerer(before: TableState, event: Mapping[str, Any]) -> _Pending | None:
    """Who answers this take/drop/beaver/raccoon, for which cubes (``before`` the event)."""
    game = before.game
    if game is None:
        return None
    answer = str(event["type"])
    if "extra" in event:
        giver = display_name(event.get("extra"))
        for extra in game.extras:
            if extra.giver == giver and extra.cube.to_answer is not None:
                offer = extra.cube.offer
                side = extra.cube.to_answer
                who, role = (extra.giver, "giver") if side == BOX_SIDE else (extra.taker, "taker")
                return _Pending(who, answer, role, game.number, offer.value if offer else 0,
                                extra=extra.giver)
        return None
    target = display_name(event.get("cube"))
    if game.box_double is not None and target in game.box_double.waiting:
        cube = game.cubes.get(target)
        offer = cube.cube.offer if cube else None
        return _Pending(target, answer, "member", game.number, offer.value if offer else 0, (target,))
    members = tuple(game.pending) if target == "team" else (target,)
    if not members or members[0] not in game.cubes:
        return None
    cube = game.cubes[members[0]]
    offer = cube.cube.offer
    value = offer.value if offer else 0
    if cube.cube.to_answer == BOX_SIDE:
        return _Pending(before.box or "", answer, "box", game.number, value, members)
    return _Pending(members[0], answer, "member", game.number, value, members)


def _stake(settings: Settings, record: GameRecord, player: str, other: str) -> int:
    """The stake of the cube between ``player`` and ``other`` in this game."""
    if not settings.per_player_stakes:
        return settings.stake_cents
    stakes = dict(record.stakes)
    return pair_stake_cents(stakes.get(player, settings.stake_cents),
                            stakes.get(other, settings.stake_cents))


def _close(pending: _Pending, record: GameRecord | None, settings: Settings) -> Decision:
    """The decision with its outcome, from the record of its game (None: still playing)."""
    if record is None:
        return Decision(pending.player, pending.answer, pending.role, pending.game,
                        pending.value, 0, 0, "open")
    if record.voided:
        return Decision(pending.player, pending.answer, pending.role, pending.game,
                        pending.value, 0, 0, "void")
    points = cents = 0
    if pending.extra is not None:
        for giver, taker, taker_points in record.extras:
            if giver == pending.extra:
                sign = 1 if pending.role == "taker" else -1
                points += sign * taker_points
                cents += points_to_cents(sign * taker_points, _stake(settings, record, giver, taker))
    else:
        pairs = dict(record.pairs)
        sign = -1 if pending.role == "box" else 1
        for member in pending.members:
            member_points = pairs.get(member, 0)
            points += sign * member_points
            cents += points_to_cents(sign * member_points, _stake(settings, record, record.box, member))
    outcome = "won" if points > 0 else "lost" if points < 0 else "even"
    return Decision(pending.player, pending.answer, pending.role, pending.game, pending.value,
                    points, cents, outcome)


def table_facts(settings: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> TableFacts:
    """Fold a table's log once, noting every cube decision (pure: no database).

    Undone events are left out first; corrections are known in advance, as the rules' own
    refold does, so every game ends as it does in the table's state.

    Raises:
        TableError: the log is refused by the rules (it never is for a stored log).
    """
    kept = [events[i] for i in effective_events(events)]
    state = TableState(Settings.from_dict(settings), corrections=corrections_of(kept))
    return _fold_facts(state, kept, TableFacts((), state.settings.stake_cents), 0)


def facts_since(earlier: TableFacts, snapshot: Mapping[str, Any], at: int,
                events: Sequence[Mapping[str, Any]]) -> TableFacts:
    """The facts of the whole log ``events``, folding only the events after ``at``:
    ``snapshot`` is the state after the first ``at`` events, ``earlier`` the facts of the
    log as it was at a seq from ``at`` on, which must also have led from ``at``
    (``can_resume`` of that shorter log): the games finished by ``at`` are final in them.

    Raises:
        TableError: the log after ``at`` invalidates the snapshot (see ``can_resume``), it
            is malformed, or an event is refused.
    """
    after = effective_after(events, at)
    if after is None:
        raise TableError(f"the log after event {at} reaches back before it")
    state = TableState.from_snapshot(snapshot)
    finished = len(state.games)
    kept_earlier = TableFacts(
        tuple(d for d in earlier.decisions if d.game <= finished), earlier.stake_cents,
        {player: {n: seat for n, seat in games.items() if n <= finished}
         for player, games in earlier.seats.items()})
    return _fold_facts(state, [events[i] for i in after], kept_earlier, finished)


def _fold_facts(state: TableState, kept: Sequence[Mapping[str, Any]], earlier: TableFacts,
                finished: int) -> TableFacts:
    """Fold the effective events ``kept`` from ``state`` noting each decision; the facts are
    ``earlier``'s (of the first ``finished`` games) and those of the games after them."""
    pending: list[_Pending] = []
    for event in kept:
        if event.get("type") == "correct":
            continue  # only checked by the rules; its effect is already known to the fold
        if event.get("type") in ANSWERS:
            found = _answerer(state, event)
            if found is not None:
                pending.append(found)
        state = apply_event(state, event)
    records = {record.number: record for record in state.games}
    decisions = earlier.decisions + tuple(_close(p, records.get(p.game), state.settings_for(p.game))
                                          for p in pending)
    seats: dict[str, dict[int, tuple[str, int, bool]]] = defaultdict(dict)
    for player, games in earlier.seats.items():
        seats[player].update(games)
    for record in state.games[finished:]:
        dealt = _deals_points(state.settings_for(record.number), record)
        for name in {record.box, record.partner, *(c.member for c in record.cubes)}:
            role = _role(record, name, dealt) if name else None
            if name and role is not None:
                seats[name][record.number] = (*role, record.voided)
    return TableFacts(decisions, state.settings.stake_cents, {p: g for p, g in seats.items() if g})


def _deals_points(settings: Settings, record: GameRecord) -> dict[str, Fraction]:
    """The points of each member's deal in a game (docs/rules.md 2.12): agreed points, or cents at
    the pair's stake (a stake of nothing: the sign of the cents)."""
    found = {}
    for deal in record.deals:
        if deal.half_points is not None:
            found[deal.member] = Fraction(deal.half_points, 2)
        else:
            stake = _stake(settings, record, record.box, deal.member) or 1
            found[deal.member] = Fraction(deal.cents or 0, stake)
    return found


def _away_from_zero(points: Fraction) -> int:
    """Whole points with the sign of ``points``: a won or lost deal's fraction stays a win
    or a loss (the seats' tallies count only the sign)."""
    return math.ceil(points) if points > 0 else math.floor(points)


def _role(record: GameRecord, name: str,
          dealt: Mapping[str, Fraction] | None = None) -> tuple[str, int] | None:
    """The player's role in a finished game and their result in it (points), if they played;
    a deal's points count (``dealt``: each member's, issue 25 item 6), a fraction rounded
    away from zero (only the result's sign is counted).

    A captain is whoever captained the team in it: who started it and each acting captain
    (docs/rules.md 2.4, 2.5; ``GameRecord.captains``); their result is that of their own cube.
    """
    dealt = dealt or {}
    pairs = dict(record.pairs)
    if record.box == name or record.partner == name:
        box_side = record.box_side_points - sum(dealt.values(), Fraction(0))
        return ("box" if record.box == name else "partner"), _away_from_zero(box_side)
    if name in record.captains:
        return "captain", _away_from_zero(pairs.get(name, 0) + dealt.get(name, Fraction(0)))
    if name in pairs:
        return "member", _away_from_zero(pairs[name] + dealt.get(name, Fraction(0)))
    if any(cube.member == name for cube in record.cubes):
        return "member", 0  # a voided game: no points
    return None
