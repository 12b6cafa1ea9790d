"""One model per game for every sheet that shows games: the printable score sheet, its CSV,
the table's history (issue 14 item 4). The player pages count the same records' captains
(``GameRecord.captains``, through ``chouette.services.facts``).

A ``SheetGame`` is built from a finished game's record (or the game in progress), its money
(``chouette.standings``) and the house rules it was played by: who was box and partner, who
started as captain and each acting captain, every cube with its final value and owner, the
extra cubes, the lines of what happened in order (``chouette.table.lines``: doubles, takes,
drops, forced drops, beavers, raccoons, extras, acting captains; other kinds slot in as they
are noted), the deals and proxies, the result, and each player's points and money (the partner's share among them).
``line_words`` says a line in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from chouette.standings import GameMoney, Points, games_money
from chouette.table import GameRecord, TableState
from chouette.table.cubes import BOX_SIDE, LIVE, Deal, Extra, MemberCube
from chouette.table.game import Game, settled_so_far
from chouette.table.lines import SheetLine


@dataclass(frozen=True)
class SheetCube:
    """A member's cube as it ended: value, owner (``box``, the member, or None in the middle),
    status (``live``, ``dropped`` by the member, ``won``: dropped by the box), their points."""

    member: str
    value: int
    owner: str | None
    status: str
    points: int | None  # None while the game is on and the cube still live


@dataclass(frozen=True)
class SheetExtra:
    """An extra cube as it ended: its giver and taker, value, owner, status, the taker's
    points against the giver (the fee of one point included)."""

    giver: str
    taker: str
    value: int
    owner: str
    status: str
    points: int | None


@dataclass(frozen=True)
class SheetGame:
    """One game on every sheet: seats, captains, cubes, extras, what happened, result, money."""

    number: int
    box: str
    partner: str | None
    captains: tuple[str, ...]  # who started it, then each acting captain
    cubes: tuple[SheetCube, ...]
    extras: tuple[SheetExtra, ...]
    lines: tuple[SheetLine, ...]
    winner: str | None
    kind: str | None
    mode: str | None
    points: dict[str, Points]  # a deal's points count: a fraction then (docs/rules.md 2.12)
    cents: dict[str, int]
    voided: bool = False
    correction: str | None = None
    final: bool = True
    #: The house rules that changed from this game on: key -> (before, after).
    rules_changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    deals: tuple[Deal, ...] = ()  # cubes settled for an agreed amount (docs/rules.md 2.12)
    proxies: tuple[tuple[str, str], ...] = ()  # (absent member, who decided for them)

    @property
    def captain(self) -> str:
        """The captain who started the game."""
        return self.captains[0]

    @property
    def acting_captains(self) -> tuple[str, ...]:
        """Each member who took over as captain during the game, in turn."""
        return self.captains[1:]

    @property
    def members(self) -> tuple[str, ...]:
        """The team, captain first."""
        return tuple(cube.member for cube in self.cubes)

    @property
    def partner_points(self) -> Points | None:
        """The partner's share of the box's result, in points (None without a partner)."""
        return self.points.get(self.partner, 0) if self.partner else None



def _cube(cube: MemberCube, points: int | None) -> SheetCube:
    owner = {"box": "box", "member": cube.member}.get(cube.owner or "")
    return SheetCube(cube.member, cube.value, owner, cube.status, points)


def _extra(extra: Extra, points: int | None) -> SheetExtra:
    owner = extra.giver if extra.cube.owner == BOX_SIDE else extra.taker
    return SheetExtra(extra.giver, extra.taker, extra.value, owner, extra.status, points)


def _captains(first: str, lines: tuple[SheetLine, ...]) -> tuple[str, ...]:
    found = [first]
    for line in lines:
        if line.kind == "acting_captain" and line.who not in found:
            found.append(line.who)
    return tuple(found)


def _from_record(record: GameRecord, money: GameMoney | None,
                 changed: Mapping[str, tuple[Any, Any]]) -> SheetGame:
    pairs = dict(record.pairs)
    extra_points = {giver: points for giver, _taker, points in record.extras}
    return SheetGame(
        record.number, record.box, record.partner, record.captains,
        tuple(_cube(c, None if record.voided else pairs.get(c.member)) for c in record.cubes),
        tuple(_extra(e, None if record.voided else extra_points.get(e.giver))
              for e in record.extra_cubes),
        record.lines, record.winner, record.kind, record.mode,
        dict(money.points) if money and not record.voided else {},
        dict(money.cents) if money and not record.voided else {},
        record.voided, record.correction, True, dict(changed), record.deals, record.proxies,
    )


def _in_progress(state: TableState, game: Game, money: GameMoney | None,
                 changed: Mapping[str, tuple[Any, Any]]) -> SheetGame:
    pairs, extras = settled_so_far(game)
    settled = dict(pairs)
    extra_points = {giver: points for giver, _taker, points in extras}
    return SheetGame(
        game.number, state.box or "", state.partner,
        _captains(game.members[0], state.game_lines),
        tuple(_cube(game.cubes[m], settled.get(m)) for m in game.members),
        tuple(_extra(e, extra_points.get(e.giver) if e.status != LIVE else None)
              for e in game.extras),
        state.game_lines, None, None, game.mode,
        dict(money.points) if money else {}, dict(money.cents) if money else {},
        final=False, rules_changed=dict(changed), deals=tuple(game.deals.values()),
        proxies=tuple(game.proxies.items()),
    )


def table_games(state: TableState, numbers: set[int] | None = None) -> list[SheetGame]:
    """Every game of a table (only those numbered in ``numbers``, when given), the game in
    progress last."""
    paid = {g.number: g for g in games_money(state, numbers)}
    changes = {first: changed for first, _settings, changed in state.settings_changes()}
    games = [_from_record(r, paid.get(r.number), changes.get(r.number, {}))
             for r in state.games if numbers is None or r.number in numbers]
    game = state.game
    if game is not None and (numbers is None or game.number in numbers):
        games.append(_in_progress(state, game, paid.get(game.number),
                                  changes.get(game.number, {})))
    return games


# --------------------------------------------------------------------------- in words


def _cubes(cubes: tuple[str, ...]) -> str:
    return ", ".join(cubes)


def line_words(line: SheetLine) -> str:
    """A line of a game in a sentence of the reader's language (a kind this module does not
    know is said by its name)."""
    who, value, cubes = line.who, line.value, _cubes(line.cubes)
    box = who == "box"
    if line.extra:
        words = {
            "double": _("%(who)s redoubles %(giver)s's extra cube to %(value)d"),
            "take": _("%(who)s takes %(giver)s's extra cube at %(value)d"),
            "beaver": _("%(who)s beavers %(giver)s's extra cube to %(value)d"),
            "raccoon": _("%(who)s raccoons %(giver)s's extra cube to %(value)d"),
            "drop": _("%(who)s drops %(giver)s's extra cube and loses %(value)d"),
        }
        if line.kind in words:
            return words[line.kind] % {"who": who, "giver": line.extra, "value": value}
    if line.kind == "double":
        if box:
            return _("The box doubles %(cubes)s to %(value)d", cubes=cubes, value=value)
        if line.cubes != (who,):
            return _("%(who)s doubles the box for the team to %(value)d", who=who, value=value)
        return _("%(who)s doubles the box to %(value)d", who=who, value=value)
    if line.kind in ("take", "beaver", "raccoon", "drop") and box:
        words = {
            "take": _("The box takes %(cubes)s at %(value)d"),
            "beaver": _("The box beavers %(cubes)s to %(value)d"),
            "raccoon": _("The box raccoons %(cubes)s to %(value)d"),
            "drop": _("The box drops %(cubes)s and loses %(value)d to each"),
        }
        return words[line.kind] % {"cubes": cubes, "value": value}
    member_words = {
        "take": _("%(who)s takes at %(value)d"),
        "beaver": _("%(who)s beavers to %(value)d"),
        "raccoon": _("%(who)s raccoons to %(value)d"),
        "drop": _("%(who)s drops and loses %(value)d"),
        "forced_drop": _("%(who)s must drop too (all but one declined) and loses %(value)d"),
    }
    if line.kind in member_words:
        return member_words[line.kind] % {"who": who, "value": value}
    if line.kind == "extra":
        return _("%(who)s gives %(to)s an extra cube and pays %(to)s 1 point", who=who, to=line.to)
    if line.kind == "automatic":
        return _("Tied opening roll: every cube turns to %(value)d", value=value)
    if line.kind == "acting_captain":
        return _("%(who)s plays on as captain instead of %(to)s", who=who, to=line.to)
    return " ".join(str(part) for part in (line.kind, who, cubes, value, line.to) if part)


def stake_periods(state: TableState) -> list[tuple[int, int | None, int]]:
    """The stakes a table played at, in order: ``(first game, last game or None, stake in
    cents)``, the last period open (the stake in force now, for the next games too). One
    period when the stake never changed between games."""
    periods: list[tuple[int, int | None, int]] = []
    first, stake = 1, state.initial_settings.stake_cents
    for number, settings, changed in state.settings_changes():
        if "stake_cents" in changed and settings.stake_cents != stake:
            periods.append((first, number - 1, stake))
            first, stake = number, settings.stake_cents
    periods.append((first, None, stake))
    return periods



def answer_fixes(lines: tuple[SheetLine, ...] | list[SheetLine]) -> list[tuple[str, str]]:
    """The cube answers of a game a correction may turn around (a take into a drop, a drop
    into a take: rules 3.2), as the correction form's options: ``(value, words)``. The value
    is ``answer:<cube's value before the double>:<right answer>:<cube>``."""
    options = []
    for line in lines:
        if line.kind not in ("take", "drop"):
            continue
        now = "drop" if line.kind == "take" else "take"
        before = line.value // 2 if line.kind == "take" else line.value
        for cube in line.cubes:
            who = _("the box") if line.who == "box" else line.who
            words = (_("%(who)s took %(name)s's cube at %(value)d: a drop instead", who=who,
                       name=cube, value=before * 2) if now == "drop" else
                     _("%(who)s dropped %(name)s's cube at %(value)d: a take instead", who=who,
                       name=cube, value=before * 2))
            options.append((f"answer:{before}:{now}:{cube}", words))
    return options


__all__ = ["SheetCube", "SheetExtra", "SheetGame", "answer_fixes", "line_words", "stake_periods",
           "table_games"]
