"""The shared backgammon rules engine: pure Python, standard library only.

Positions, moves, Position ID / Match ID / XGID, the cube (money and match play) and the
opening roll. See docs/rules.md part 1.
"""

# --- cube, match play, dice (owned by the cube work) ---
from chouette.engine.cube import Cube, CubeResult, CubeSettings, Offer
from chouette.engine.dice import (
    DiceSource,
    FixedDice,
    OpeningRoll,
    SecretsDice,
    check_die,
    check_roll,
    opening_from_rolls,
    opening_roll,
    roll,
)
from chouette.engine.errors import (
    CubeError,
    DiceError,
    FormatError,
    IllegalMoveError,
    MatchError,
    NotationError,
    RulesError,
)
from chouette.engine.match import Match, effective_settings
from chouette.engine.matchid import GameState, MatchState, Resignation

# --- positions and moves (owned by the moves work) ---
from chouette.engine.movegen import apply_move, legal_moves
from chouette.engine.moves import Move
from chouette.engine.outcome import Outcome, WinKind, outcome
from chouette.engine.position import Position, Side
from chouette.engine.resolve import match_move
from chouette.engine.xgid import XgidFields, format_xgid, parse_xgid

__all__ = [
    "Cube",
    "CubeError",
    "CubeResult",
    "CubeSettings",
    "DiceError",
    "DiceSource",
    "FixedDice",
    "FormatError",
    "GameState",
    "IllegalMoveError",
    "Match",
    "MatchError",
    "MatchState",
    "Move",
    "NotationError",
    "Offer",
    "OpeningRoll",
    "Outcome",
    "Position",
    "Resignation",
    "RulesError",
    "SecretsDice",
    "Side",
    "WinKind",
    "XgidFields",
    "apply_move",
    "check_die",
    "check_roll",
    "effective_settings",
    "format_xgid",
    "legal_moves",
    "match_move",
    "opening_from_rolls",
    "opening_roll",
    "outcome",
    "parse_xgid",
    "roll",
]
