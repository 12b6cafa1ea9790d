"""A list that many table states share, each seeing its own prefix (what keeps a fold linear).

A table's state keeps its effective log, its finished games and the snapshots of its games'
ends. ``apply_event`` returns a new state and leaves the old one untouched: copying those
lists for every event made a fold of n events cost n * n / 2 item copies (issue 12, finding
6). A ``History`` is a view of the first ``len(view)`` items of a list it may share with
other views: appending where the shared list ends appends in place (no copy), so a state and
the one after it share one list; appending to a view that is no longer the end (an undo, a
try on a cached state, then another event) copies that view's items first.

Views are safe across threads: two views appending to the same shared list at once both
append, and the one whose item did not land at its own end copies (``list.append`` is
atomic).

``WORK`` counts the events the rules applied and the items copied: a real counter read by
the tests (a fold's copying grows with its length, not its square) and by the web tests (a
page that must not fold applies no event).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

T = TypeVar("T")
V = TypeVar("V")


class Work:
    """What the table package has done since the process started (never reset)."""

    def __init__(self) -> None:
        self.events = 0  # events applied by the rules (folds, resumes, commands, tries)
        self.copied = 0  # items copied out of a shared list

    def __repr__(self) -> str:
        return f"Work(events={self.events}, copied={self.copied})"


#: The process's counters (approximate under threads: they only ever grow).
WORK = Work()


class History(Sequence[T]):
    """The first ``len(self)`` items of a list that other views may share.

    A view may also sit on a base (``overlay``): its first items are the base's, read
    through, and only the items after them are its own.

    >>> first = History([1, 2])
    >>> second = first.copy()
    >>> second.append(3)
    >>> list(first), list(second), second[-1], second[1:]
    ([1, 2], [1, 2, 3], 3, [2, 3])
    """

    __slots__ = ("_base", "_items", "_length", "_offset")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._base: History[T] | None = None
        self._offset = 0
        self._items: list[T] = list(items)
        self._length = len(self._items)

    def _view(self, length: int) -> History[T]:
        view: History[T] = History.__new__(History)
        view._base = self._base
        view._offset = self._offset
        view._items = self._items
        view._length = length
        return view

    def copy(self) -> History[T]:
        """Another view of the same items (nothing is copied until one of them diverges)."""
        return self._view(self._length)

    def overlay(self) -> History[T]:
        """A view of the same items whose appends go to a list of its own, never to the
        shared one: for a look ahead (``try_event``), so that trying an event on a state
        leaves its list free for the next real event to append in place."""
        view: History[T] = History.__new__(History)
        view._base = self.copy()
        view._offset = len(self)
        view._items = []
        view._length = 0
        return view

    def prefix(self, length: int) -> History[T]:
        """A view of the first ``length`` items (0 <= length <= len(self)).

        Raises:
            ValueError: ``length`` out of range.
        """
        if not 0 <= length <= len(self):
            raise ValueError(f"a prefix of {length} items of a history of {len(self)}")
        if length < self._offset and self._base is not None:
            return self._base.prefix(length)
        return self._view(length - self._offset)

    def append(self, item: T) -> None:
        """Add ``item`` to this view only (other views of the shared list do not see it)."""
        items, length = self._items, self._length
        if len(items) == length:
            items.append(item)
            if len(items) > length and items[length] is item:
                self._length = length + 1
                return
        # Another view appended past this one's end first: this view takes its own copy.
        WORK.copied += self._offset + length
        self._items = [*self, item]
        self._base = None
        self._offset = 0
        self._length = len(self._items)

    def replace_last(self, item: T) -> None:
        """Put ``item`` in place of the last item: only for an item this view has just
        appended, before any other view of it was taken (the score sheet's lines, added to
        the record of the game that an event has just ended). Any other view of the shared
        list is shorter, so it never sees the change.

        Raises:
            IndexError: the view is empty.
        """
        if not len(self):
            raise IndexError("replace_last on an empty history")
        if self._length and self._length == len(self._items):
            self._items[self._length - 1] = item
            return
        WORK.copied += len(self)
        self._items = [*self[:-1], item]
        self._base = None
        self._offset = 0
        self._length = len(self._items)

    def shared_prefix(self, other: History[T]) -> int | None:
        """How many first items this view and ``other`` are known to share (the shorter
        one's length when they share a list), or None when they do not share one."""
        if self._items is other._items:
            return min(len(self), len(other))
        return None

    def __len__(self) -> int:
        return self._offset + self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if self._base is None and step > 0:  # only the items asked for (the last few games)
                return self._items[start:stop:step]
            return [self[position] for position in range(start, stop, step)]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("history index out of range")
        if index < self._offset and self._base is not None:
            return self._base[index]
        return self._items[index - self._offset]

    def __iter__(self) -> Iterator[T]:
        if self._base is not None:
            yield from self._base
        items = self._items
        for index in range(self._length):
            yield items[index]

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        for index in range(self._length - 1, -1, -1):
            yield items[index]
        if self._base is not None:
            yield from reversed(self._base)

    def __add__(self, other: Iterable[T]) -> list[T]:
        return [*self, *other]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


class Snapshots(Mapping[int, V]):
    """States by the length of the effective log they were taken at, in increasing order:
    a ``History`` of pairs seen as a mapping (shared between states like the log).

    >>> marks = Snapshots[str]()
    >>> marks.add(3, "c"); marks.add(7, "g")
    >>> dict(marks), marks.upto(5)
    ({3: 'c', 7: 'g'}, 3)
    """

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Iterable[tuple[int, V]] = ()) -> None:
        self._pairs: History[tuple[int, V]] = History(sorted(pairs, key=lambda pair: pair[0]))

    def copy(self) -> Snapshots[V]:
        """Another view of the same snapshots."""
        view: Snapshots[V] = Snapshots.__new__(Snapshots)
        view._pairs = self._pairs.copy()
        return view

    def overlay(self) -> Snapshots[V]:
        """A view whose additions never go to the shared list (see ``History.overlay``)."""
        view: Snapshots[V] = Snapshots.__new__(Snapshots)
        view._pairs = self._pairs.overlay()
        return view

    def add(self, at: int, state: V) -> None:
        """Keep ``state`` as the one after ``at`` effective events (after every other key).

        Raises:
            ValueError: ``at`` is not after the latest key.
        """
        if self._pairs and self._pairs[-1][0] >= at:
            raise ValueError(f"a snapshot at {at} after one at {self._pairs[-1][0]}")
        self._pairs.append((at, state))

    def upto(self, at: int) -> int | None:
        """The latest key at or before ``at``, or None."""
        index = bisect.bisect_right(_Keys(self._pairs), at)
        return self._pairs[index - 1][0] if index else None

    def before(self, at: int) -> Snapshots[V]:
        """The snapshots at keys up to ``at`` (a view: nothing is copied)."""
        index = bisect.bisect_right(_Keys(self._pairs), at)
        view: Snapshots[V] = Snapshots.__new__(Snapshots)
        view._pairs = self._pairs.prefix(index)
        return view

    def __getitem__(self, at: int) -> V:
        index = bisect.bisect_left(_Keys(self._pairs), at)
        if index < len(self._pairs) and self._pairs[index][0] == at:
            return self._pairs[index][1]
        raise KeyError(at)

    def __iter__(self) -> Iterator[int]:
        return (at for at, _state in self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __repr__(self) -> str:
        return f"Snapshots(keys={list(self)!r})"


class _Keys(Sequence[int]):
    """The keys of a history of pairs, for ``bisect`` (no list of them is built)."""

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Sequence[tuple[int, object]]) -> None:
        self._pairs = pairs

    def __len__(self) -> int:
        return len(self._pairs)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [at for at, _state in self._pairs[index]]
        return self._pairs[index][0]
