"""GNU Backgammon as the oracle: its own ``analyse match`` of a ``.mat`` file, and
``cfevaluate`` called by hand, each in a gnubg process of its own."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess

from chouette.analysis import runner

FLOAT = r"([-+]?\d+\.\d+)"


def _gnubg(args: list[str], home: pathlib.Path, **kwargs: object) -> str:
    program = runner.gnubg_path()
    assert program, "gnubg is not installed"
    done = subprocess.run([program, "-t", "-q", *args], env={**os.environ, "HOME": str(home)},
                          capture_output=True, text=True, timeout=600, check=False, **kwargs)
    return done.stdout + done.stderr


def analyse_match(mat: str, folder: pathlib.Path, *, jacoby: bool = False) -> tuple[float, float]:
    """gnubg's checker error totals (EMG, positive) of the left and right player of the file."""
    path = folder / "oracle.mat"
    path.write_text(mat)
    commands = (f"set threads 1\nset jacoby {'on' if jacoby else 'off'}\nset confirm default no\n"
                f"import mat {path}\nanalyse match\nshow statistics match\n")
    output = _gnubg([], folder, input=commands)
    chequer = output[output.index("Chequerplay statistics"):output.index("Luck statistics")]
    line = next(li for li in chequer.splitlines() if li.startswith("Error total EMG"))
    left, _, right, _ = (float(x) for x in re.findall(FLOAT, line))
    return -left, -right


def cfevaluate(positions: list[tuple[str, int, int]], folder: pathlib.Path) -> list[tuple[float, float, float]]:
    """(no double, double/take, double/pass) at 2-ply for each (Position ID, cube value, owner:
    -1 in the middle, 0 the player on roll, 1 the opponent), no Jacoby rule."""
    out = folder / "cf.json"
    script = folder / "cf.py"
    script.write_text(
        "import gnubg, json\n"
        "gnubg.command('set threads 1')\n"
        "gnubg.command('set jacoby off')\n"
        "ec = {'cubeful': 1, 'plies': 2, 'deterministic': 1, 'prune': 1, 'noise': 0.0}\n"
        f"rows = [gnubg.cfevaluate(gnubg.positionfromid(p), gnubg.cubeinfo(v, o, 0), ec)[1:4] "
        f"for p, v, o in {positions!r}]\n"
        f"json.dump(rows, open({str(out)!r}, 'w'))\n")
    output = _gnubg(["-p", str(script)], folder)
    assert out.exists(), output
    return [tuple(row) for row in json.loads(out.read_text())]
