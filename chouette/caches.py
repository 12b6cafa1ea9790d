"""The app's caches: one kind (a small LRU), one registry, one call that clears them all.

Every cache the app keeps in memory is named in ``CACHES`` with its size and what it holds
under which key, and lives in the app (``app.extensions["chouette.caches"]``): two apps in
one process (the tests) never share an entry, so no key needs the database's address. A
cache is found by name (``cache("table_states")``) in the current app; ``clear_all``
forgets everything (after a restore, a rename, in tests).

``Lru.get_or_make`` makes a missing value once however many threads ask for it at the same
moment (single flight): after a push, ten screens fetching the same version wait for the
first one's drawing instead of drawing it ten times.

What is cached must be a pure function of its key: a key names the version it was made from
(a table's seq, a rename generation), so an entry is never stale, only unused, and an
unused one falls off the end.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app


@dataclass(frozen=True)
class CacheSpec:
    """A cache's size (entries) and what it holds, for its readers."""

    size: int
    holds: str


#: Every cache of the app: name -> size and what it holds under which key.
CACHES: dict[str, CacheSpec] = {}


def declare(name: str, size: int, holds: str) -> str:
    """Name a cache (at import time, by the module that uses it); returns the name."""
    spec = CacheSpec(size, holds)
    if CACHES.setdefault(name, spec) != spec:
        raise ValueError(f"cache {name!r} declared twice, differently")
    return name


class Lru:
    """A least-recently-used map of at most ``size`` entries, safe for threaded servers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value under ``key`` (now the most recently used), or ``default``."""
        with self._lock:
            if key not in self._entries:
                return default
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value``; the least recently used entries beyond the size go."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value under ``key``, made by ``make()`` and stored when missing: one thread
        makes it, the others asking for the same key meanwhile wait and share it. An
        exception in ``make`` reaches its caller and stores nothing."""
        missing = object()
        found = self.get(key, missing)
        if found is not missing:
            return found
        with self._lock:
            maker = self._making.setdefault(key, threading.Lock())
        with maker:
            found = self.get(key, missing)
            if found is missing:
                found = make()
                self.put(key, found)
        with self._lock:
            if self._making.get(key) is maker and not maker.locked():
                del self._making[key]
        return found

    def update(self, key: Hashable, change: Callable[[Any], Any]) -> Any:
        """Store ``change(value under key, or None)`` in one step (no other thread's change
        between its read and its write) and return it; ``change`` must be quick."""
        with self._lock:
            value = change(self._entries.get(key))
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
            return value

    def items(self) -> Iterator[tuple[Hashable, Any]]:
        """A snapshot of the entries, least recently used first."""
        with self._lock:
            return iter(list(self._entries.items()))

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


_EXTENSION = "chouette.caches"


def init_app(app: Flask) -> None:
    """Give ``app`` its caches (empty; each made when first asked for)."""
    app.extensions[_EXTENSION] = {}


def cache(name: str, app: Flask | None = None) -> Lru:
    """The cache ``name`` (declared in ``CACHES``) of ``app`` or the current app."""
    held: dict[str, Lru] = (app or current_app).extensions[_EXTENSION]
    found = held.get(name)
    if found is None:
        found = held.setdefault(name, Lru(CACHES[name].size))
    return found


def clear_all(app: Flask | None = None) -> None:
    """Forget every cached entry of ``app`` or the current app."""
    for held in (app or current_app).extensions[_EXTENSION].values():
        held.clear()
