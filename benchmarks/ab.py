"""A/B of one mechanism: a benchmark run alternately on the code as it is (A) and without it (B).

Run from the repository with the project's interpreter, the benchmark's command after ``--``:

    .venv/bin/python benchmarks/ab.py --patch benchmarks/without/quiet_screens.patch -- \\
        benchmarks/web.py
    .venv/bin/python benchmarks/ab.py --env-b RENDER_CONCURRENCY=0 -- benchmarks/push.py --seconds 60
    .venv/bin/python benchmarks/ab.py --patch benchmarks/without/ping_when_idle.patch -- \\
        bash .ci/with-postgres python benchmarks/push.py --postgres --seconds 60 --idle-seconds 0

A and B: two throwaway git worktrees of one revision (``--rev``, default HEAD) under /tmp, B
with the patch applied and/or ``--env-b`` in its environment, or B another revision
(``--rev-b``: earlier code as a baseline on the same machine, each side running its own copy of
the benchmark); removed at the end. Each builds
the app once first. The runs alternate A, B, A, B ... (``--runs`` each way, default 3), each
from its checkout with this interpreter (it runs a first word ending in ``.py``, and replaces
the word ``python``). Figures: the last line's ("push p95 213 ms, commands p95 59 ms, errors
0") and the lines of ``EXTRA``. Printed: each figure's runs, each side's median, B/A, and
whether the sides' ranges are apart; ``--log`` keeps every run's whole output. Standard library
only; Linux.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Figures printed before the last line, by the benchmark's file name: (label, pattern whose
#: first group is the number). The last line of ``LAST_LINE_TOO`` benchmarks is read as well.
EXTRA: dict[str, list[tuple[str, str]]] = {
    "push": [("commands p50 ms", r"command: POST sent -> answer read\s+\d+\s+([\d.]+)"),
             ("phones' table shown p95 ms", r"its table shown \(pushed, or fetched\)\s+\d+\s+[\d.]+\s+([\d.]+)"),
             ("festival commands", r"festival: (\d+) commands"),
             ("workers' CPU %", r"\): gunicorn workers (\d+)%"),
             ("idle screens' CPU %", r"idle: gunicorn workers' CPU ([\d.]+)%")],
    "online": [("workers' CPU %", r"\): gunicorn workers (\d+)%"),
               ("commands", r"online: (\d+) commands")],
    "web": [("/health requests/s", r"/health \(baseline\)\s+([\d.]+) requests/s"),
            ("304 requests/s", r"unchanged \(304\)\s+([\d.]+) requests/s"),
            ("304 server CPU ms", r"unchanged \(304\).*?server CPU ([\d.]+) ms"),
            ("100 screens' CPU %", r"nothing changing: .*? cost ([\d.]+)% of one core"),
            ("htmx command p50 ms", r"htmx button.*\n\s*p50 ([\d.]+) ms"),
            ("htmx command p95 ms", r"htmx button.*\n.*? p95 ([\d.]+) ms"),
            ("htmx command CPU ms", r"htmx button.*\n.*?server CPU ([\d.]+) ms"),
            ("no-JS command p95 ms", r"no JavaScript.*\n.*? p95 ([\d.]+) ms"),
            ("commands.play p95 ms", r"commands\.play.*\n.*? p95 ([\d.]+) ms")],
    "load": [("command p50 ms", r"^command\s+\d+\s+[\d.]+\s+([\d.]+)"),
             ("command p95 ms", r"^command\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)"),
             ("live fragment p95 ms", r"^phone: live fragment\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)"),
             ("errors", r"^errors: (\d+)")],
    "import": [("idle command p95 ms", r"^idle .*\n.*\n\s*command .*? p95\s+([\d.]+) ms")],
}
LAST_LINE_TOO = {"push", "online", "import"}
PART = re.compile(r"^(?P<label>\S.*?)\s+(?P<value>-?\d[\d,]*(?:\.\d+)?|nan)(?:\s?(?P<unit>ms|s|%))?$")


def last_line_figures(line: str) -> dict[str, float]:
    """"push p95 213 ms, commands p95 59 ms, errors 0" -> {"push p95 ms": 213, ...}; {} when the
    line is not made of such parts."""
    found: dict[str, float] = {}
    for part in line.strip().split(", "):
        match = PART.match(part.strip())
        if not match:
            return {}
        label = match["label"] + (f" {match['unit']}" if match["unit"] else "")
        found[label] = float(match["value"].replace(",", ""))
    return found


def figures(benchmark: str, output: str) -> dict[str, float]:
    """The figures of one run's output (``benchmark``: the script's name without ``.py``)."""
    found: dict[str, float] = {}
    for label, pattern in EXTRA.get(benchmark, []):
        match = re.search(pattern, output, re.MULTILINE)
        if match:
            found[label] = float(match[1].replace(",", ""))
    lines = [line for line in output.splitlines() if line.strip()]
    if lines and (benchmark in LAST_LINE_TOO or benchmark not in EXTRA):
        found.update(last_line_figures(lines[-1]))
    return found


def command_for(words: list[str], python: str) -> list[str]:
    """The benchmark's command with the interpreter put in."""
    command = [python if word == "python" else word for word in words]
    return [python, *command] if command[0].endswith(".py") else command


def git(*args: str) -> str:
    """Run git; its output."""
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout.strip()




BUILD = ("import tempfile, sys; from app import create_app; d = tempfile.mkdtemp(); "
         "create_app({'SQLALCHEMY_DATABASE_URI': f'sqlite:///{d}/check.sqlite', 'SECRET_KEY': 'ab'}); "
         "import chouette.web.quiet_screens")


def run(command: list[str], where: Path, env: dict[str, str], timeout: float) -> tuple[int, str, float]:
    """One run: (exit status, its output, seconds); its whole process group ended if it outlives
    ``timeout`` or this script is interrupted."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=where, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        output = stop(process) + f"\n(ab.py: stopped after {time.monotonic() - started:.0f} s)"
    except BaseException:
        stop(process)
        raise
    return process.returncode, output, time.monotonic() - started


def stop(process: subprocess.Popen[str]) -> str:
    """Interrupt a run as Ctrl-C would (its servers stopped by its own clean-up), else kill it."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        return process.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.communicate()[0]


def table(results: dict[str, list[dict[str, float]]]) -> str:
    """Each figure's runs on each side, the medians, B/A, and whether the ranges are apart."""
    labels: list[str] = []
    for side in ("A", "B"):
        for found in results[side]:
            labels += [label for label in found if label not in labels]
    rows = [f"{'figure':30} {'A runs':24} {'B runs':24} {'A median':>9} {'B median':>9} {'B/A':>6}  ranges"]
    for label in labels:
        values = {side: [found[label] for found in results[side] if label in found] for side in ("A", "B")}
        if not values["A"] or not values["B"]:
            continue
        a, b = statistics.median(values["A"]), statistics.median(values["B"])
        ratio = f"{b / a:6.2f}" if a else "     -"
        apart = min(values["B"]) > max(values["A"]) or max(values["B"]) < min(values["A"])
        runs = {side: " / ".join(f"{v:g}" for v in values[side]) for side in ("A", "B")}
        rows.append(f"{label:30} {runs['A']:24} {runs['B']:24} {a:9g} {b:9g} {ratio}  {'apart' if apart else 'overlap'}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patch", type=Path, help="B: the code with this patch applied (benchmarks/without/*.patch)")
    parser.add_argument("--env-b", action="append", default=[], metavar="NAME=VALUE",
                        help="B: this setting in its runs' environment (repeatable)")
    parser.add_argument("--runs", type=int, default=3, help="runs each way (default 3)")
    parser.add_argument("--rev", default="HEAD", help="the revision of both sides (default HEAD)")
    parser.add_argument("--rev-b", help="B: another revision (a baseline: earlier code on today's machine)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds a run may take (default 1800)")
    parser.add_argument("--log", type=Path, help="write every run's whole output and the table here")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the benchmark and its arguments")
    args = parser.parse_args()
    words = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not words:
        parser.error("the benchmark's command goes after --")
    if args.patch is None and not args.env_b and not args.rev_b:
        parser.error("B needs --patch, --env-b or --rev-b")
    env_b = dict(setting.split("=", 1) for setting in args.env_b if "=" in setting)
    if len(env_b) != len(args.env_b):
        parser.error("--env-b takes NAME=VALUE")
    patch = args.patch.resolve() if args.patch else None
    repo = git("-C", str(Path(__file__).resolve().parent), "rev-parse", "--show-toplevel")
    rev = git("-C", repo, "rev-parse", args.rev)
    revs = {"A": rev, "B": git("-C", repo, "rev-parse", args.rev_b) if args.rev_b else rev}
    script = next((Path(word).stem for word in words if word.endswith(".py")), "")
    command = command_for(words, args.python)
    log = args.log.open("w") if args.log else None

    def say(text: str, *, to_screen: bool = True) -> None:
        if to_screen:
            print(text, flush=True)
        if log:
            log.write(text + "\n")
            log.flush()

    base = Path(tempfile.mkdtemp(prefix="chouette-ab-"))
    sides: dict[str, Path] = {}
    try:
        for side in ("A", "B"):
            git("-C", repo, "worktree", "add", "--detach", str(base / side), revs[side])
            sides[side] = base / side
        if patch is not None:
            git("-C", str(sides["B"]), "apply", str(patch))
        b_code = f"rev {revs['B'][:12]}" if revs["B"] != rev else "the same code"
        say(f"A/B of {' '.join(words)}: rev {rev[:12]}, B = {patch.name if patch else b_code}"
            f"{' with ' + ' '.join(args.env_b) if env_b else ''}; {args.runs} runs each way, alternating; "
            f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
        clean = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
        envs = {"A": {**clean, "PYTHONPATH": str(sides["A"])}, "B": {**clean, "PYTHONPATH": str(sides["B"]), **env_b}}
        for side, where in sides.items():  # the catalogs compiled, every module imported: no run pays for it
            status, output, _ = run([args.python, "-c", BUILD], where, envs[side], 300)
            if status != 0:
                say(f"{side}: the app does not build:\n{output}")
                sys.exit(1)
        results: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
        for number in range(1, args.runs + 1):
            for side in ("A", "B"):
                load = os.getloadavg()[0]
                status, output, seconds = run(command, sides[side], envs[side], args.timeout)
                found = figures(script, output)
                results[side].append(found)
                say(f"\n===== {side}{number}: exit {status}, {seconds:.0f} s, load average {load:.1f} at the start",
                    to_screen=False)
                say(output, to_screen=False)
                shown = ", ".join(f"{label} {value:g}" for label, value in found.items())
                say(f"{side}{number}: exit {status}, {seconds:.0f} s, load {load:.1f}: {shown or 'no figures'}")
        say("\n" + table(results))
    finally:
        for where in sides.values():
            subprocess.run(["git", "-C", repo, "worktree", "remove", "--force", str(where)], check=False)
        shutil.rmtree(base, ignore_errors=True)
        subprocess.run(["git", "-C", repo, "worktree", "prune"], check=False)
        if log:
            log.close()


if __name__ == "__main__":
    main()
