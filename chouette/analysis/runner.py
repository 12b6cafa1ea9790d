"""Run GNU Backgammon as a separate program on the project's own script (never imported).

``gnubg -t -q -p chouette/analysis/gnubg_script.py`` reads its request from a JSON file and
writes its answer to another; gnubg's own chatter on stdout is ignored. The program is found
as ``GNUBG`` in the environment, else ``gnubg`` on the PATH, else Debian's ``/usr/games/gnubg``.
Without it, ``available()`` is False and the app says the analysis is not available.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
from typing import Any

SCRIPT = pathlib.Path(__file__).resolve().parent / "gnubg_script.py"
DEBIAN = "/usr/games/gnubg"
#: Seconds one request may take before it is abandoned (a game takes a few).
TIMEOUT = 600


class AnalysisUnavailable(RuntimeError):
    """GNU Backgammon is not installed (or not found): the analysis is not available."""


class AnalysisFailed(RuntimeError):
    """GNU Backgammon ran but gave no usable answer: the message says what it printed."""


def gnubg_path() -> str | None:
    """The gnubg program to run, or None when there is none."""
    named = os.environ.get("GNUBG")
    if named:
        return named if os.access(named, os.X_OK) else None
    found = shutil.which("gnubg")
    if found:
        return found
    return DEBIAN if os.access(DEBIAN, os.X_OK) else None


def available() -> bool:
    """Whether GNU Backgammon can be run here."""
    return gnubg_path() is not None


def run(request: dict[str, Any], *, timeout: float = TIMEOUT) -> dict[str, Any]:
    """Send ``request`` (see ``gnubg_script``) to a fresh gnubg process; its answer.

    Raises:
        AnalysisUnavailable: no gnubg here.
        AnalysisFailed: gnubg failed, timed out or answered with an error.
    """
    program = gnubg_path()
    if program is None:
        raise AnalysisUnavailable("GNU Backgammon (gnubg) is not installed: the analysis is not available")
    with tempfile.TemporaryDirectory(prefix="chouette-gnubg-") as folder:
        inbox, outbox = pathlib.Path(folder, "in.json"), pathlib.Path(folder, "out.json")
        inbox.write_text(json.dumps(request), encoding="utf-8")
        env = {**os.environ, "HOME": folder, "CHOUETTE_ANALYSIS_IN": str(inbox),
               "CHOUETTE_ANALYSIS_OUT": str(outbox)}
        try:
            done = subprocess.run([program, "-t", "-q", "-p", str(SCRIPT)], env=env, cwd=folder,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise AnalysisFailed(f"gnubg took more than {timeout:g} s") from exc
        except OSError as exc:
            raise AnalysisFailed(f"gnubg could not start: {exc}") from exc
        if not outbox.exists():
            tail = (done.stdout + done.stderr)[-2000:]
            raise AnalysisFailed(f"gnubg wrote no answer (exit {done.returncode}): {tail}")
        answer: dict[str, Any] = json.loads(outbox.read_text(encoding="utf-8"))
    if answer.get("error"):
        raise AnalysisFailed(f"gnubg failed: {answer['error']}")
    return answer
