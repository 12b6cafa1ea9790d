"""The shared backgammon rules engine: pure Python, standard library only.

Positions, moves, Position ID / Match ID / XGID, the cube (money and match play) and the
opening roll. See RULES.md section 1.
"""

from chouette.engine.errors import (
    CubeError,
    DiceError,
    FormatError,
    IllegalMoveError,
    MatchError,
    NotationError,
    RulesError,
)

# --- positions and moves (owned by the moves work) ---

# --- cube, match play, dice (owned by the cube work) ---
