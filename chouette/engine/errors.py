"""The engine's errors: every one is a ValueError whose message names the input and the position.

The refusals a player can provoke are raised as a message *template* with named parameters
(``RulesError("Position ID {position_id!r}: expected 14 characters, got {length}", ...)``):
``str()`` is the English sentence (logs, the replay command, tests), and ``template`` and
``params`` let the interface say it in the reader's language. A parameter may itself be a
:class:`Phrase` (a reason inside a reason), translated the same way.
"""

from __future__ import annotations

from typing import Any


class Phrase:
    """Words for the players: an English template and its named parameters.

    >>> str(Phrase("point {point} is blocked", point=5))
    'point 5 is blocked'
    >>> Phrase("{who} cannot take", who=Phrase("side {side}", side=1))
    Phrase('{who} cannot take', who=Phrase('side {side}', side=1))
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        # A template without parameters is the sentence itself (braces and all).
        return self.template.format(**self.params) if self.params else self.template

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        params = "".join(f", {key}={value!r}" for key, value in self.params.items())
        return f"Phrase({self.template!r}{params})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phrase):
            return NotImplemented
        return (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)


class Refusal(ValueError):
    """A refusal the players read: ``str()`` is the English sentence, ``template`` and
    ``params`` (or ``phrase``) say it again in another language.

    >>> error = Refusal("{name} is not at this table", name="Anna")
    >>> str(error), error.template, error.params
    ('Anna is not at this table', '{name} is not at this table', {'name': 'Anna'})
    """

    def __init__(self, template: str | Phrase, /, **params: Any) -> None:
        if isinstance(template, Phrase):
            phrase = template
            template, params = phrase.template, {**phrase.params, **params}
        self.template = template
        self.params = params
        # The rules raise and catch refusals while probing for the legal actions: stay cheap.
        super().__init__(template.format(**params) if params else template)

    @property
    def phrase(self) -> Phrase:
        """The template and its parameters as one value (a reason to nest in another refusal)."""
        return Phrase(self.template, **self.params)


class RulesError(Refusal):
    """Base class: an input the rules of backgammon refuse."""


class NotationError(RulesError):
    """A move written in a notation that cannot be read (e.g. ``24/x``)."""


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal for this position and roll."""


class FormatError(RulesError):
    """A malformed Position ID, Match ID or XGID (bad length, characters, checker counts)."""


class CubeError(RulesError):
    """A cube action the rules do not allow now (double when not allowed, take with no offer...)."""


class MatchError(RulesError):
    """An impossible match state or action (score beyond the length, game after the end...)."""


class DiceError(RulesError):
    """Dice out of range or an impossible roll."""
