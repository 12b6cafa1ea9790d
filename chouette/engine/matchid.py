"""GNU Backgammon Match ID, both ways: 12 base64 characters of a 72-bit match key.

The key, least significant bit first (GNU Backgammon manual, "A technical description of the
Match ID"): bits 1-4 log2 of the cube value, 5-6 cube owner (0, 1, or 3 = centered), 7 the
player on roll (or who rolled), 8 the Crawford flag, 9-11 the game state, 12 the player who
must act, 13 double offered, 14-15 resignation offered, 16-18 and 19-21 the dice (0 = not
rolled), 22-36 the match length (0 = money), 37-51 and 52-66 the scores, 67 set when the
Jacoby rule is NOT in use (GNU Backgammon since 2011). Bits 68-72 are padding: ignored on
reading, written as 0.

IDs are written byte for byte as GNU Backgammon 1.07 writes them: the larger die first and bit
67 from the Jacoby setting (tests/engine/data/matchids_gnubg.json holds the facts). Both dice
orders are read, so IDs written by older versions of this module (smaller die first when rolled
so, bit 67 always 0) still decode; bit 67 at 0 reads as Jacoby in use, as GNU Backgammon reads it.

>>> state = MatchState.from_id("QYkqASAAIAAA")
>>> state.cube_value, state.cube_owner, state.on_roll, state.dice, state.length, state.scores
(2, 0, 1, (5, 2), 9, (2, 4))
>>> state.jacoby
True
>>> state.id
'QYkqASAAIAAA'
>>> MatchState(dice=(1, 3)).dice, MatchState().id
((3, 1), 'MAAAAAAAAAAE')
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from chouette.engine.cube import Cube, Offer
from chouette.engine.errors import CubeError, FormatError, MatchError
from chouette.engine.match import Match

_ID = re.compile(r"[A-Za-z0-9+/]{12}")
_MAX_15_BITS = 2**15 - 1
_CENTERED = 3
# (name, first bit counted from 1, width)
_FIELDS = (
    ("cube_log", 1, 4),
    ("owner", 5, 2),
    ("on_roll", 7, 1),
    ("crawford", 8, 1),
    ("game_state", 9, 3),
    ("turn", 12, 1),
    ("double_offered", 13, 1),
    ("resignation", 14, 2),
    ("die_1", 16, 3),
    ("die_2", 19, 3),
    ("length", 22, 15),
    ("score_0", 37, 15),
    ("score_1", 52, 15),
    ("no_jacoby", 67, 1),
)


class GameState(IntEnum):
    """The game state of a Match ID (bits 9-11)."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class Resignation(IntEnum):
    """The resignation offered in a Match ID (bits 14-15), or accepted in a resigned game."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


@dataclass(frozen=True)
class MatchState:
    """Everything a GNU Backgammon Match ID holds; ``length`` 0 is a money game.

    ``on_roll`` is the player on roll (or who rolled); ``turn`` the player who must act now
    (the doubled player while a double is offered; the doubler when the doubled player resigned
    instead of answering). ``resignation`` is kept in a resigned game, as GNU Backgammon does.
    ``dice`` are kept larger first, as GNU Backgammon writes them (``(1, 3)`` is stored as
    ``(3, 1)``). ``jacoby``: the Jacoby rule is in use; GNU Backgammon writes it off for the
    matches it starts, and so does ``from_game``.

    Raises:
        FormatError: a field out of range, or fields no game could show together.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.NO_GAME
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    length: int = 0
    scores: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "game_state", GameState(self.game_state))
        object.__setattr__(self, "resignation", Resignation(self.resignation))
        reason = self._impossibility()
        if reason is not None:
            raise FormatError("impossible match state {state!r}: {reason}", state=self, reason=reason)
        if self.dice is not None:
            object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))

    def _impossibility(self) -> str | None:
        value, length, scores = self.cube_value, self.length, self.scores
        if type(value) is not int or value < 1 or value & (value - 1) or value > 2**15:
            return "the cube value must be a power of two from 1 to 32768"
        if self.cube_owner not in (None, 0, 1) or self.on_roll not in (0, 1) or self.turn not in (0, 1):
            return "the cube owner, the player on roll and the player to act are 0 or 1"
        if self.dice is not None and (
            len(self.dice) != 2 or any(type(d) is not int or not 1 <= d <= 6 for d in self.dice)
        ):
            return "the dice are None or two ints from 1 to 6"
        if type(length) is not int or not 0 <= length <= _MAX_15_BITS:
            return "the match length is an int from 0 (money) to 32767"
        if len(scores) != 2 or any(type(s) is not int or not 0 <= s <= _MAX_15_BITS for s in scores):
            return "the scores are two ints from 0 to 32767"
        if type(self.jacoby) is not bool:
            return "the Jacoby flag is a bool"
        if length and (max(scores) > length or scores == (length, length)):
            return f"scores {scores} are impossible in a match to {length}"
        if length and length in scores and self.game_state == GameState.PLAYING:
            return "a game is being played in a match already won"
        if self.crawford and (not length or [s == length - 1 for s in scores].count(True) != 1):
            return "the Crawford game needs a match with exactly one side at match point"
        if self.crawford and (value != 1 or self.cube_owner is not None or self.double_offered):
            return "nobody doubles in the Crawford game"
        if self.double_offered and self.game_state != GameState.PLAYING:
            return "a double is offered only while a game is being played"
        if self.resignation and self.game_state not in (GameState.PLAYING, GameState.RESIGNED):
            return "a resignation is offered only while a game is being played (and kept once accepted)"
        if self.double_offered and self.dice is not None:
            return "a double is offered before rolling"
        if self.double_offered and length and self.cube_owner == 1 - self.on_roll:
            return "the doubler is the player on roll, owning the cube or with it in the middle"
        if self.double_offered and length and (self.turn == self.on_roll) != bool(self.resignation):
            return (
                "while a double is offered the other player must act, or the doubler if the other resigned"
            )
        return None

    # --- the ID ---

    @classmethod
    def from_id(cls, match_id: str) -> MatchState:
        """Decode a 12-character Match ID; the dice may come in either order.

        Raises:
            FormatError: wrong length or characters, or impossible values; the message names
                the input.
        """
        if not isinstance(match_id, str) or not _ID.fullmatch(match_id):
            raise FormatError("Match ID {match_id!r} is not 12 characters of A-Z a-z 0-9 + /", match_id=match_id)
        try:
            key = int.from_bytes(base64.b64decode(match_id, validate=True), "little")
        except (binascii.Error, ValueError) as error:  # pragma: no cover - the pattern checks first
            raise FormatError(f"Match ID {match_id!r} is not base64: {error}") from None
        bits = {name: (key >> (first - 1)) & ((1 << width) - 1) for name, first, width in _FIELDS}
        if bits["owner"] == 2:
            raise FormatError("Match ID {match_id!r}: cube owner bits 10 mean nothing (00, 01 or 11)",
                              match_id=match_id)
        if bits["game_state"] > max(GameState):
            raise FormatError("Match ID {match_id!r}: game state {state} does not exist (0 to 4)",
                              match_id=match_id, state=bits["game_state"])
        dice = (bits["die_1"], bits["die_2"])
        if dice != (0, 0) and not all(1 <= d <= 6 for d in dice):
            raise FormatError("Match ID {match_id!r}: impossible dice {dice}", match_id=match_id, dice=dice)
        try:
            return cls(
                cube_value=1 << bits["cube_log"],
                cube_owner=None if bits["owner"] == _CENTERED else bits["owner"],
                on_roll=bits["on_roll"],
                crawford=bool(bits["crawford"]),
                game_state=GameState(bits["game_state"]),
                turn=bits["turn"],
                double_offered=bool(bits["double_offered"]),
                resignation=Resignation(bits["resignation"]),
                dice=None if dice == (0, 0) else dice,
                length=bits["length"],
                scores=(bits["score_0"], bits["score_1"]),
                jacoby=not bits["no_jacoby"],
            )
        except FormatError as error:
            raise FormatError("Match ID {match_id!r}: {reason}", match_id=match_id, reason=error.phrase) from None

    @property
    def id(self) -> str:
        """The 12-character Match ID, byte for byte as GNU Backgammon writes it."""
        fields = {
            "cube_log": self.cube_value.bit_length() - 1,
            "owner": _CENTERED if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": int(self.resignation),
            "die_1": self.dice[0] if self.dice else 0,
            "die_2": self.dice[1] if self.dice else 0,
            "length": self.length,
            "score_0": self.scores[0],
            "score_1": self.scores[1],
            "no_jacoby": int(not self.jacoby),
        }
        key = 0
        for name, first, _width in _FIELDS:
            key |= fields[name] << (first - 1)
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    # --- conversions ---

    @classmethod
    def from_game(
        cls,
        cube: Cube,
        *,
        on_roll: int,
        match: Match | None = None,
        dice: tuple[int, int] | None = None,
        game_state: GameState = GameState.PLAYING,
        jacoby: bool = False,
    ) -> MatchState:
        """The state of a game at ``cube`` with ``on_roll`` to play, in ``match`` (None: money).

        ``jacoby`` is the table's Jacoby setting; it is written only for money play, since the
        rule never applies in a match (docs/rules.md 1.8; GNU Backgammon writes it off there too).

        Raises:
            FormatError: the cube has a beaver or raccoon pending or a value above 32768, or
                the fields are impossible together.
        """
        offer = cube.offer
        if offer is not None and offer.kind != "double":
            raise FormatError(f"a Match ID cannot hold a pending {offer.kind} ({cube!r})")
        if offer is not None and offer.side != on_roll:
            raise FormatError(f"side {offer.side} doubled, so side {offer.side} is on roll, not {on_roll}")
        return cls(
            cube_value=cube.value,
            cube_owner=cube.owner,
            on_roll=on_roll,
            crawford=match.crawford_game if match else False,
            game_state=game_state,
            turn=offer.answerer if offer else on_roll,
            double_offered=offer is not None,
            dice=dice,
            length=match.length if match else 0,
            scores=match.scores if match else (0, 0),
            jacoby=bool(jacoby) and match is None,
        )

    def cube(self) -> Cube:
        """The cube shown: an owned cube counts as turned, a centered one above 1 as automatic
        doubles (the ID does not say which).

        Raises:
            FormatError: the cube cannot be built (e.g. an offer while the other side owns it).
        """
        offer = Offer(self.on_roll, 2 * self.cube_value) if self.double_offered else None
        try:
            return Cube(self.cube_value, self.cube_owner, offer, self.cube_owner is not None)
        except CubeError as error:
            raise FormatError(f"Match ID {self.id!r}: {error}") from None

    def match(self, *, holland_rule: bool = False) -> Match:
        """The match score: post-Crawford when a side is at N-1 outside the Crawford game.

        Raises:
            FormatError: a money game (length 0) or scores no match can reach.
        """
        if not self.length:
            raise FormatError(f"Match ID {self.id!r} is a money game: no match")
        at_match_point = self.length - 1 in self.scores and self.length > 1
        try:
            return Match(
                self.length,
                self.scores,
                crawford_rule=True,
                holland_rule=holland_rule,
                crawford_game=self.crawford,
                post_crawford=at_match_point and not self.crawford and self.length not in self.scores,
            )
        except MatchError as error:
            raise FormatError(f"Match ID {self.id!r}: {error}") from None
