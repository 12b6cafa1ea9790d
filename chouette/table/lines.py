"""The lines of a game's score sheet: what happened in it, one line per thing a careful
scorer writes down (docs/rules.md 2.4 to 2.10), noted while the log is folded (``chouette.table.sheet``).

A line is data, said in words by the interface: its ``kind``, who acted, which cubes it
concerns and at what value. Kinds:

- ``double``: ``who`` ("box" or a member) doubles ``cubes`` to ``value``;
- ``take``, ``beaver``, ``raccoon``: ``who`` ("box" or a member) answers on ``cubes``; the
  cube is then at ``value``;
- ``drop``: ``who`` drops ``cubes`` at ``value``, the points that drop settled (a member's
  drop loses them, the box's drop of a member's cube pays them);
- ``forced_drop``: the all-but-one rule (docs/rules.md 2.6) turns the take of ``who`` into a drop at
  ``value``;
- ``extra``: ``who`` gives ``to`` an extra cube at ``value`` 2 (docs/rules.md 2.7); a double or an
  answer on an extra cube names it by its giver in ``extra``;
- ``automatic``: a tied opening roll turns every cube to ``value`` (docs/rules.md 1.2);
- ``acting_captain``: ``who`` plays on as (acting) captain instead of ``to`` (docs/rules.md 2.4, 2.5).

New kinds may be added (a reader shows a kind it does not know by its name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SheetLine:
    """One thing that happened in a game, for its score sheet.

    >>> SheetLine.from_list(SheetLine("drop", "Cy", ("Cy",), 1).to_list())
    SheetLine(kind='drop', who='Cy', cubes=('Cy',), value=1, to='', extra='')
    """

    kind: str
    who: str
    cubes: tuple[str, ...] = ()
    value: int = 0
    to: str = ""
    extra: str = ""

    def to_list(self) -> list[Any]:
        """JSON-ready form (a list: a night has thousands of lines)."""
        return [self.kind, self.who, list(self.cubes), self.value, self.to, self.extra]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> SheetLine:
        """Inverse of :meth:`to_list`.

        Raises:
            ValueError: not the six fields.
        """
        if len(data) != 6:
            raise ValueError(f"a score sheet line has six fields, not {len(data)}")
        kind, who, cubes, value, to, extra = data
        return cls(str(kind), str(who), tuple(str(c) for c in cubes), int(value), str(to),
                   str(extra))
