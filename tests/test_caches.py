"""The app's one cache facility (chouette/caches.py): LRU order, single flight, one app's own."""

from __future__ import annotations

import threading
import time

import pytest

from chouette import caches
from chouette.caches import Lru


def test_the_least_recently_used_entry_goes_first():
    lru = Lru(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recently used
    lru.put("c", 3)
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3
    assert len(lru) == 2


def test_many_threads_asking_for_one_missing_key_make_it_once():
    lru = Lru(4)
    made: list[int] = []
    start = threading.Barrier(10)

    def make() -> str:
        made.append(1)
        time.sleep(0.05)  # long enough that the others ask while it is being made
        return "drawing"

    answers: list[str] = []

    def ask() -> None:
        start.wait()
        answers.append(lru.get_or_make("page", make))

    threads = [threading.Thread(target=ask) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == ["drawing"] * 10
    assert len(made) == 1


def test_a_failed_make_stores_nothing_and_the_next_ask_makes_again():
    lru = Lru(4)

    def fail() -> str:
        raise RuntimeError("no drawing")

    with pytest.raises(RuntimeError, match="no drawing"):
        lru.get_or_make("page", fail)
    assert lru.get("page") is None
    assert lru.get_or_make("page", lambda: "drawn") == "drawn"


def test_a_cache_is_declared_once_with_its_size():
    name = caches.declare("test_caches.example", 3, "nothing: a test's own")
    assert caches.declare("test_caches.example", 3, "nothing: a test's own") == name
    with pytest.raises(ValueError, match="declared twice"):
        caches.declare("test_caches.example", 4, "nothing: a test's own")


def test_each_app_holds_its_own_caches_and_clear_all_empties_them(app):
    from app import create_app

    name = caches.declare("test_caches.apps", 8, "nothing: a test's own")
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    caches.cache(name, app).put("key", "first app's")
    assert caches.cache(name, other).get("key") is None
    assert caches.cache(name, app).size == 8
    caches.clear_all(app)
    assert caches.cache(name, app).get("key") is None


def test_update_changes_a_value_in_one_step_however_many_threads_change_it():
    lru = Lru(4)
    start = threading.Barrier(8)

    def plus_one(held: int | None) -> int:
        time.sleep(0)  # another thread runs between the read and the write, if it can
        return (held or 0) + 1

    def add() -> None:
        start.wait()
        for _ in range(200):
            lru.update("count", plus_one)

    threads = [threading.Thread(target=add) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert lru.get("count") == 8 * 200
