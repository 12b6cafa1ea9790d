"""The engine's errors: every one is a ValueError whose message names the input and the position."""

from __future__ import annotations


class RulesError(ValueError):
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
