"""XGID (eXtreme Gammon's position and match text) both ways: ``parse_xgid``, ``format_xgid``.

They live in :mod:`chouette.engine.position` (``Position.from_xgid`` and ``Position.xgid`` use
them, so one module holds both and neither imports the other back); this module names them
where they were first written.
"""

from __future__ import annotations

from chouette.engine.position import XgidFields, format_xgid, parse_xgid

__all__ = ["XgidFields", "format_xgid", "parse_xgid"]
