"""Racing threads against the real database: what each attempt came to; a second app node."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from flask import Flask

from app import create_app
from chouette.extensions import db


def at_once(app: Flask, attempts: int, attempt: Callable[[int], object],
            refused: tuple[type[BaseException], ...], *, nodes: Sequence[Flask] = ()) -> list[str]:
    """Run ``attempt(0)`` .. ``attempt(attempts - 1)`` in as many threads, released together,
    each in an application context of its own (its own session and connection). Each comes to
    ``"ok"``, ``"refused"`` (one of ``refused`` was raised) or, for anything else, the
    exception's type and message: the test's assert then shows it.

    With ``nodes``, attempt ``n`` runs in ``nodes[n % len(nodes)]`` (several app nodes on one
    database) instead of ``app``."""
    results: list[str] = []
    start = threading.Barrier(attempts)
    apps = list(nodes) or [app]

    def run(number: int) -> None:
        with apps[number % len(apps)].app_context():
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


@contextmanager
def second_node(app: Flask) -> Iterator[Flask]:
    """Another app on ``app``'s database, with an engine, a pool and per-process caches of its
    own (they key on the database URL, spelled differently here): a second node of the club.
    Its tables are not created or dropped; its connections are closed at the end."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if uri.startswith("sqlite:///"):
        path = uri.removeprefix("sqlite:///")
        uri = "sqlite:///" + os.path.join(os.path.dirname(path), ".", os.path.basename(path))
    else:
        uri += f"{'&' if '?' in uri else '?'}connect_timeout=11"
    node = create_app({**app.config, "SQLALCHEMY_DATABASE_URI": uri})
    try:
        yield node
    finally:
        with node.app_context():
            db.session.remove()
            for engine in db.engines.values():
                engine.dispose()
