"""Setting up on a bare Debian 12: .ci/run installs what it calls, a half-made venv is rebuilt.

The scripts run for real in a temporary copy of the repository's Makefile and .ci/. Only
apt-get is replaced (by a script on PATH that records its arguments): a test must not install
Debian packages on the machine running it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Debian's python3 where there is one (the machine this is about), else the running one.
PYTHON3 = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else os.path.realpath(sys.executable)


def _copy_setup(tmp_path: Path) -> Path:
    """The Makefile and .ci/ in a fresh folder, with no requirements to install."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(ROOT / "Makefile", repo / "Makefile")
    shutil.copytree(ROOT / ".ci", repo / ".ci")
    # No packages: pip runs for real, but reads nothing from the network.
    (repo / "requirements.txt").write_text("# none\n")
    (repo / "requirements-dev.txt").write_text("-r requirements.txt\n")
    return repo


def _bare_path(tmp_path: Path, tools: list[str]) -> Path:
    """A PATH folder with only the named tools, plus an apt-get that records its calls.

    The recorded apt-get "installs" make by putting a make there that records its arguments,
    so a script that calls make after installing it can be followed.
    """
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in tools:
        found = PYTHON3 if tool == "python3" else shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(os.path.realpath(found))
    log = tmp_path / "calls.log"
    apt = bin_dir / "apt-get"
    apt.write_text(
        "#!/bin/bash\n"
        f'echo "apt-get $*" >> {log}\n'
        'if [ "$1" = install ]; then\n'
        '  for p in "$@"; do\n'
        '    if [ "$p" = make ]; then\n'
        f"      printf '#!/bin/bash\\necho \"make $*\" >> {log}\\n' > {bin_dir}/make\n"
        f"      /bin/chmod +x {bin_dir}/make\n"
        "    fi\n"
        "  done\n"
        "fi\n"
    )
    apt.chmod(0o755)
    return bin_dir


def _run(args: list[str], cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_half_made_venv_is_detected_and_rebuilt(tmp_path: Path) -> None:
    """A .venv with bin/python but no pip (venv stopped half-way) is made anew by make venv."""
    repo = _copy_setup(tmp_path)
    made = _run([PYTHON3, "-m", "venv", "--without-pip", ".venv"], repo)
    assert made.returncode == 0, made.stderr
    broken = _run([str(repo / ".venv/bin/python"), "-m", "pip", "--version"], repo)
    assert broken.returncode != 0, "the half-made venv should have no pip"

    result = _run(["make", "venv", f"PYTHON={PYTHON3}"], repo)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "is broken" in result.stdout
    pip = _run([str(repo / ".venv/bin/python"), "-m", "pip", "--version"], repo)
    assert pip.returncode == 0, pip.stderr
    assert (repo / ".venv/.runtime").exists()


def test_working_venv_is_kept(tmp_path: Path) -> None:
    """A venv whose pip runs is not touched (nothing reinstalled, nothing removed)."""
    repo = _copy_setup(tmp_path)
    made = _run([PYTHON3, "-m", "venv", ".venv"], repo)
    assert made.returncode == 0, made.stderr
    keep = repo / ".venv" / "kept"
    keep.write_text("still here")

    result = _run(["bash", ".ci/venv", PYTHON3, ".venv"], repo)

    assert result.returncode == 0, result.stderr
    assert "is broken" not in result.stdout
    assert keep.read_text() == "still here"


def test_ci_run_installs_make_before_calling_it(tmp_path: Path) -> None:
    """.ci/run on a machine without make: apt-get installs make, then make test runs."""
    repo = _copy_setup(tmp_path)
    bin_dir = _bare_path(tmp_path, ["bash", "python3", "id", "ls", "dirname"])

    result = _run(["/bin/bash", ".ci/run"], repo, path=str(bin_dir))

    assert result.returncode == 0, result.stdout + result.stderr
    calls = (tmp_path / "calls.log").read_text().splitlines()
    installs = [line for line in calls if line.startswith("apt-get install")]
    assert installs and "make" in installs[0].split(), calls
    assert calls[-1] == "make test", calls
    assert calls.index(installs[0]) < calls.index("make test")


@pytest.mark.parametrize("target", ["run", "test"])
def test_ci_make_installs_make_then_runs_the_target(tmp_path: Path, target: str) -> None:
    """The README's two commands (bash .ci/make run / test) work where make is missing."""
    repo = _copy_setup(tmp_path)
    bin_dir = _bare_path(tmp_path, ["bash", "python3", "id", "dirname"])

    result = _run(["/bin/bash", ".ci/make", target], repo, path=str(bin_dir))

    assert result.returncode == 0, result.stdout + result.stderr
    calls = (tmp_path / "calls.log").read_text().splitlines()
    assert calls[0] == "apt-get update -qq", calls
    assert "make" in calls[1].split(), calls
    assert calls[-1] == f"make {target}", calls
