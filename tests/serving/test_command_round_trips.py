"""What one command at an online table asks of the database (docs/performance.md 7): on
PostgreSQL every statement is a round trip, and the commands' p95 of a night online is the
sum of them under load.

- The signed-in member is read once per request: beginning the write does not make the
  command's actor be read again (``extensions._end_reader``).
- The table, its night (locked against a close) and the log's count come in one statement
  (``night_rows.lock_for_append``).
- The cube window's row is written once by the answer that rolls (``cube_window._synced``);
  without a time limit neither the clock's start nor, before a move, the row is read.
- A game line is written only when the event changes it (``game_lines.changed_lines``): a
  roll and a plain move change none, a take changes its game's (the cube's value and owner).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

from tests.serving.test_pushed_drawings import noting_statements
from tests.web.test_cube_window_rules import ONLINE, board_game
from tests.web.test_phone_decisions import Phones


def sent(app: Flask, command: Callable[[], Any]) -> list[str]:
    """The statements ``command`` sends, each on one line; it must answer 200."""
    statements: list[str] = []
    with noting_statements(app, lambda _connection, statement: statements.append(" ".join(statement.split()))):
        response = command()
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return statements


def count(statements: list[str], start: str) -> int:
    return sum(1 for statement in statements if statement.startswith(start))


def reading_night(statements: list[str]) -> list[str]:
    """The statements that read the night's row (the table's load reads none of it)."""
    return [s for s in statements if s.startswith("SELECT night.")]


def read_with_the_table_and_the_count(statements: list[str]) -> bool:
    """The night read once, with its table and the log's count, and the table's closing not
    read on its own."""
    night = reading_night(statements)
    return (len(night) == 1 and "FROM chouette_table JOIN night" in night[0]
            and "count(table_event.id)" in night[0]
            and count(statements, "SELECT chouette_table.closed_at") == 0
            and count(statements, "SELECT count(table_event.id)") == 0)


def test_a_window_roll_and_a_move_read_their_actor_once_and_their_night_with_the_table(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)  # the team on roll: the window asks the captain, B
    phones.phone("B")  # signed in
    seq = phones.table.seq()
    rolled = sent(app, lambda: phones.post("B", "roll", {"how": "server"}, htmx=True))
    assert phones.table.seq() == seq + 1 and phones.table.log()[-1]["type"] == "roll"
    # B's member row: read by the sign-in's loader, not again once the write begins.
    assert count(rolled, "SELECT member.id") == 1, rolled
    # The table with its night and the log's count, in one statement; the window's row
    # written once (its new decision, its opening time and B's answer together).
    assert read_with_the_table_and_the_count(rolled), rolled
    assert count(rolled, "UPDATE turn_window") == 1, rolled
    # No time limit (the default): the clock's start, the last event's time, is not read.
    assert count(rolled, "SELECT table_event.at") == 0, rolled
    # A roll changes no game line: the stored ones stand, only their mark moves.
    assert count(rolled, "DELETE FROM game_line") == count(rolled, "INSERT INTO game_line") == 0, rolled
    assert count(rolled, "UPDATE game_line_mark") == 1, rolled

    move = _a_legal_move(phones)
    moved = sent(app, lambda: phones.post("B", "move", {"move": move}, htmx=True))
    assert phones.table.seq() == seq + 2 and phones.table.log()[-1] == {"type": "move", "move": move}
    assert count(moved, "SELECT member.id") == 1, moved
    assert read_with_the_table_and_the_count(moved), moved
    # No time limit: nothing can be overdue, and the window's row is not read before a move.
    assert count(moved, "SELECT turn_window") == 0, moved
    assert count(moved, "DELETE FROM game_line") == count(moved, "INSERT INTO game_line") == 0, moved


def test_a_take_writes_its_games_line(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones, box_first=False)  # the box on roll: the box may double
    phones.phone("B")  # signed in
    assert phones.post("A", "double", {"by": "box", "cubes": ["B"]}).status_code == 303
    taken = sent(app, lambda: phones.post("B", "answer", {"answer": "take", "cube": "B"}, htmx=True))
    assert phones.table.log()[-1] == {"type": "take", "cube": "B"}
    # B's cube now at 2, owned by B: the game's line changes, its row is written again.
    assert count(taken, "DELETE FROM game_line") == count(taken, "INSERT INTO game_line") == 1, taken


def _a_legal_move(phones: Phones) -> str:
    """One legal play of the side on roll, as the log writes it."""
    from chouette.engine import legal_moves

    game = phones.table.state().game
    assert game is not None and game.position is not None and game.dice is not None
    return str(legal_moves(game.position, game.dice)[0])
