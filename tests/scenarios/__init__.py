"""The worked scenario logs: each ``*.json`` holds a table's settings, its events and the
summary its replay must give (``expected``). Read by the table, records, engine and browser
tests; `flask --app app replay tests/scenarios/01-multi-cube-basics.json` replays one."""

from __future__ import annotations

import pathlib

SCENARIOS = pathlib.Path(__file__).resolve().parent
