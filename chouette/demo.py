"""A seeded demo night for ``flask --app app demo``: a club can try the app, and the README's
screenshots are taken of it (``docs/screenshots.py``).

Everything goes through the services and the table commands, as the pages do, so the demo is a
night the app could have recorded: fourteen members, three tables with games played (multi-cube and
single-cube, a game on the board) and, at the first table, a board game in progress where the
box's double of every cube waits for the members' answers on their phones. The seed fixes every
die; the same seed builds the same night.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from chouette.engine import apply_move, legal_moves
from chouette.extensions import db
from chouette.models import Member
from chouette.services import base, chance, commands, nights, table_states
from chouette.services import members as members_service
from chouette.services import tables as tables_service

#: Every demo member signs in with this password (the command prints it).
DEMO_PASSWORD = "demo-night"
DEMO_SEED = 2026

#: (name, username, role): the names are the seats' names, so each player's phone finds their seat.
MEMBERS = [
    ("Ada Admin", "ada", "admin"),
    ("Olga", "olga", "organizer"),
    ("Ann", "ann", "player"),
    ("Bob", "bob", "player"),
    ("Cy", "cy", "player"),
    ("Dee", "dee", "player"),
    ("Eve", "eve", "player"),
    ("Fay", "fay", "player"),
    ("Gus", "gus", "player"),
    ("Hal", "hal", "player"),
    ("Ivo", "ivo", "player"),
    ("Lia", "lia", "player"),
    ("Max", "max", "player"),
    ("Noa", "noa", "player"),
]


class DemoRefused(base.ServiceError):
    """The database already holds a club: the demo is built only into an empty one."""


@dataclass
class DemoNight:
    """What was built: the night, its tables by name, and who must answer at the live table."""

    night_id: int
    tables: dict[str, int] = field(default_factory=dict)
    live_table: int = 0
    waiting: list[str] = field(default_factory=list)


class _Table:
    """One table played by the organizer through the commands (the seq as a page would send)."""

    def __init__(self, table_id: int, actor: Member, rng: random.Random) -> None:
        self.table_id = table_id
        self.actor = actor
        self.rng = rng

    def state(self) -> Any:
        """The table's current state."""
        return table_states.load_play(self.table_id).state

    def play(self, event: Mapping[str, Any]) -> None:
        """One command, made at the current seq."""
        current = table_states.load_play(self.table_id)
        commands.play(self.table_id, current.seq, event, self.actor)

    def die(self) -> int:
        """A die from the demo's seed."""
        return self.rng.randint(1, 6)

    def seat(self, names: list[str]) -> None:
        """Seat the players and roll the starting order until it is settled."""
        for name in names:
            self.play({"type": "join", "player": name})
        while not self.state().ordered:
            self.play(chance.order_roll_event(self.state(), self.die))

    def sheet_game(self, choose: Callable[[list[str]], dict[str, Any]]) -> None:
        """A game on the score sheet: the box doubles every cube, ``choose`` says the answers
        and the result given the members (events after the double)."""
        members = [self.state().captain, *self.state().line]
        self.play({"type": "double", "by": "box", "cubes": members})
        for event in choose(members)["answers"]:
            self.play(event)
        if self.state().game is not None:
            self.play(choose(members)["result"])

    def board_turns(self, turns: int) -> None:
        """Roll and move ``turns`` times on the board (the opening roll first)."""
        while self.state().game is None or self.state().game.position is None:
            self.play(chance.dice_event(self.state(), self.die))
        played = 0
        while played < turns:
            game = self.state().game
            if game.dice is None:
                self.play(chance.dice_event(self.state(), self.die))
                continue
            plays = legal_moves(game.position, game.dice)
            if plays:
                # The play that races home soonest, as a cautious club player would.
                move = min(plays, key=lambda m: (apply_move(game.position, m).pips()[0], str(m)))
                self.play({"type": "move", "move": str(move)})
            else:
                self.play({"type": "move", "move": ""})
            played += 1


def is_empty() -> bool:
    """Whether the database holds no member yet (a fresh club)."""
    return not db.session.scalar(select(func.count(Member.id)))


def build_demo(seed: int = DEMO_SEED, today: dt.date | None = None) -> DemoNight:
    """Build the demo night into an empty database. Raises DemoRefused when it is not empty."""
    if not is_empty():
        raise DemoRefused("The database already holds members: the demo is built only into an "
                          "empty database (set DATABASE_URL to a new one).")
    rng = random.Random(seed)
    members = {username: members_service.create_member(name=name, username=username, password=DEMO_PASSWORD,
                                                 role=role)
               for name, username, role in MEMBERS}
    olga = members["olga"]
    night = nights.open_night(name="Friday chouette", on=today or dt.date.today(), actor=olga)
    demo = DemoNight(night_id=night.id)

    def table(name: str, settings: Mapping[str, Any]) -> _Table:
        created = tables_service.create_table(night.id, name=name, settings=settings, actor=olga)
        demo.tables[name] = created.id
        return _Table(created.id, olga, rng)

    # Upstairs: single cube, four players, three games on the sheet.
    upstairs = table("Upstairs", tables_service.PRESETS["single-cube-jacoby"])
    upstairs.seat(["Fay", "Gus", "Hal", "Ivo"])
    for winner, kind in (("team", "single"), ("box", "gammon"), ("team", "single")):
        upstairs.play({"type": "result", "winner": winner, "kind": kind})

    # The corner: money-night rules (stake 2.00), three players, one game on the sheet (a
    # member sits at one open table at a time: each table has its own players).
    corner = table("The corner", {**tables_service.PRESETS["money-night"], "stake_cents": 200})
    corner.seat(["Lia", "Max", "Noa"])
    corner.play({"type": "result", "winner": "box", "kind": "single"})

    # By the window: multi-cube, five players; two games on the sheet, then the board.
    window = table("By the window", tables_service.TABLE_DEFAULTS)
    window.seat(["Ann", "Bob", "Cy", "Dee", "Eve"])
    window.sheet_game(lambda members: {
        "answers": [{"type": "take", "cube": m} if i % 2 == 0 else {"type": "drop", "cube": m}
                    for i, m in enumerate(members)],
        "result": {"type": "result", "winner": "team", "kind": "single"},
    })
    window.sheet_game(lambda members: {
        "answers": [{"type": "take", "cube": m} for m in members],
        "result": {"type": "result", "winner": "box", "kind": "gammon"},
    })
    window.board_turns(6)
    # The box's turn comes round: the box doubles every cube before rolling; the captain takes at
    # once, the others' answers wait (each on their phone).
    while True:
        game = window.state().game
        if game.on_roll == "box" and game.dice is None:
            break
        window.board_turns(1)
    answering = list(game.members)
    window.play({"type": "double", "by": "box", "cubes": answering})
    window.play({"type": "take", "cube": answering[0]})
    demo.live_table = window.table_id
    demo.waiting = answering[1:]
    db.session.commit()
    return demo
