"""The analysis worker runs on Linux's idle scheduling policy, and so do the gnubg processes it
starts (a child inherits it): the tables' commands never wait for the analysis."""

from __future__ import annotations

import os
import subprocess
import sys

CHILD_POLICY = "import os; print(os.sched_getscheduler(0))"


def test_the_worker_and_its_children_run_on_the_idle_policy():
    script = (
        "import os, subprocess, sys\n"
        "from chouette.analysis.worker import idle_priority\n"
        "print(idle_priority(), os.sched_getscheduler(0))\n"
        f"print(subprocess.run([sys.executable, '-c', {CHILD_POLICY!r}], capture_output=True,"
        " text=True).stdout.strip())\n"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    own, child = found.stdout.strip().splitlines()
    assert own == f"True {os.SCHED_IDLE}"
    assert child == str(os.SCHED_IDLE)
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the test's own process is untouched
