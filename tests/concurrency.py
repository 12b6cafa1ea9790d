"""Racing threads against the real database: what each attempt came to."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Flask

from chouette.extensions import db


def at_once(app: Flask, attempts: int, attempt: Callable[[int], object],
            refused: tuple[type[BaseException], ...]) -> list[str]:
    """Run ``attempt(0)`` .. ``attempt(attempts - 1)`` in as many threads, released together,
    each in an application context of its own (its own session and connection). Each comes to
    ``"ok"``, ``"refused"`` (one of ``refused`` was raised) or, for anything else, the
    exception's type and message: the test's assert then shows it."""
    results: list[str] = []
    start = threading.Barrier(attempts)

    def run(number: int) -> None:
        with app.app_context():
            try:
                start.wait()
                attempt(number)
                results.append("ok")
            except refused:
                results.append("refused")
            except Exception as error:  # noqa: BLE001 - reported, and the test's assert fails on it
                results.append(f"{type(error).__name__}: {error}")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
