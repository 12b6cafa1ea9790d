"""The shape of every event of a table log, checked before the rules read it.

A log comes from the club's own pages, but also from an import, ``replay`` or a hand-edited
file: any JSON value may stand where the rules expect a name or a die. Each field an event
type carries is checked here for its type and range, so that the rules only ever judge
values of the right shape (a die of 7, a player who is not seated...). A wrong shape is the
rules' own refusal, a TableError naming the event type and the field; never a TypeError or
a KeyError from deep inside. Fields an event type does not know are left alone (nothing
reads them). The format itself is in docs/log-format.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from chouette.engine.errors import Phrase
from chouette.table.errors import TableError

#: The longest text of a move, a Position ID or a reason that the log keeps.
MAX_TEXT = 200
#: Numbers past this are no table's (the cube stops at 4096): a deal's points, a setting.
MAX_INT = 2**53

Check = Callable[[object], Phrase | None]  # None when the value fits, else what it should be


def _text(value: object) -> Phrase | None:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return Phrase("a text of at most {count} characters", count=MAX_TEXT)
    return None


def _name(value: object) -> Phrase | None:
    # Emptiness, control characters and length are the name's own rules (check_name).
    return None if isinstance(value, str) and len(value) <= 4 * MAX_TEXT else Phrase("a name")


def _whole_number(value: object) -> Phrase | None:
    # Any size: the rules say how much is too much (a stake, a deal's cents).
    return None if isinstance(value, int) and not isinstance(value, bool) else Phrase(
        "a whole number")


def _flag(value: object) -> Phrase | None:
    return None if isinstance(value, bool) else Phrase("true or false")


def _names(value: object) -> Phrase | None:
    if not isinstance(value, list) or not all(_name(v) is None for v in value):
        return Phrase("a list of names")
    return None


def _dice(value: object) -> Phrase | None:
    if not isinstance(value, list | tuple) or not all(_whole_number(d) is None for d in value):
        return Phrase("two dice, like [6, 5]")
    return None


def _rolls(value: object) -> Phrase | None:
    if not isinstance(value, Mapping) or not all(
            _name(k) is None and _whole_number(v) is None for k, v in value.items()):
        return Phrase("a die for each player")
    return None


def _settings(value: object) -> Phrase | None:
    if isinstance(value, Mapping) and not all(
            isinstance(k, str) and (v is None or isinstance(v, bool | int | str))
            and not (isinstance(v, int) and abs(v) > MAX_INT) for k, v in value.items()):
        return Phrase("an object of settings, each a number, a text or true/false")
    return None


def _answer(value: object) -> Phrase | None:
    if not isinstance(value, Mapping) or not isinstance(value.get("cube"), str) \
            or _whole_number(value.get("value")) is not None \
            or value.get("now") not in ("take", "drop"):
        return Phrase("a cube, its value before the double, and the right answer (take or drop)")
    return None


def _result(value: object) -> Phrase | None:
    if not isinstance(value, Mapping) or value.get("winner") not in ("box", "team") \
            or value.get("kind") not in ("single", "gammon", "backgammon"):
        return Phrase("a winner (box or team) and a kind (single, gammon or backgammon)")
    return None


_CUBE: dict[str, Check] = {"cube": _name, "extra": _name}
_DIE = _whole_number  # the rules say a die is 1 to 6

#: Per event type, the fields the rules cannot read safely in any shape, and their checks.
#: A field missing, or None, is left to the rules (they say what is missing), as are the
#: fields their handlers check themselves (names through ``check_name``, a deal's points and
#: cents, the order and the starting dice); a field here must have its shape.
FIELDS: dict[str, dict[str, Check]] = {
    "join": {"stake_cents": _whole_number, "member_id": _whole_number},
    "leave": {},
    "order_roll": {"rolls": _rolls},
    "order": {"players": _names},
    "settings": {"settings": _settings},
    "partner": {"accept": _flag},
    "partner_draw": {},
    "double": {"cubes": _names, "extra": _name},
    "take": _CUBE, "drop": _CUBE, "beaver": _CUBE, "raccoon": _CUBE,
    "extra": {},
    "opening_roll": {"box": _DIE, "team": _DIE},
    "roll": {"dice": _dice},
    "move": {"move": _text},
    "result": {"winner": _text, "kind": _text, "position_id": _text, "on_roll": _text,
               "cube": _whole_number},
    "correct": {"game": _whole_number, "reason": _text, "void": _flag, "result": _result,
                "answer": _answer},
    "deal": {"cube": _name, "winner": _text, "seat": _text},
    "proxy": {},
    "undo": {},
}


def check_shape(event: object) -> dict[str, Any]:
    """``event`` as a plain dict, once its type and every field it carries have their shape.

    >>> check_shape({"type": "roll", "dice": [6, 5]})
    {'type': 'roll', 'dice': [6, 5]}
    >>> check_shape({"type": "result", "winner": "team", "kind": []})
    Traceback (most recent call last):
    ...
    chouette.table.errors.TableError: result: "kind" must be a text of at most 200 characters, not []

    Raises:
        TableError: not an object, an unknown type, or a field of the wrong shape.
    """
    if not isinstance(event, Mapping):
        raise TableError("an event must be an object with a type, not {event!r}", event=_Quoted(event))
    kind = event.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise TableError("unknown event type {event_type!r}", event_type=_Quoted(kind))
    for field, check in fields.items():
        value = event.get(field)
        if value is None:
            continue
        expected = check(value)
        if expected is not None:
            raise TableError('{event_type}: "{field}" must be {expected}, not {value!r}',
                             event_type=kind, field=field, expected=expected,
                             value=_Quoted(value))
    return dict(event)


class _Quoted:
    """A value as a refusal quotes it (``{value!r}``): its repr, cut short."""

    __slots__ = ("text",)

    def __init__(self, value: object) -> None:
        text = repr(value)
        self.text = text if len(text) <= 60 else text[:57] + "..."

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__
