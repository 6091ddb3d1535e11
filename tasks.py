#!/usr/bin/env python3
"""Project tasks for bus_lab (standard library only).

Usage:
    python3 tasks.py lab  [jupyter lab options, e.g. --no-browser --port 8899]
    python3 tasks.py test [pytest options, e.g. -x tests/test_cards.py]
                                 # lint, format and type checks (ruff, mypy), then
                                 # the whole suite: unit tests, notebooks (nbval), every
                                 # notebook in JupyterLab in headless Chromium, Voila, and a
                                 # rebuild of the Binder environment
    python3 tasks.py bench [--quick]  # print the benchmark table
    python3 tasks.py bench --only board  # the board in JupyterLab: click → repaint, bytes per step
    python3 tasks.py pins        # regenerate the pinned requirement files
    python3 tasks.py table [--host H --port P --game G --players N --pace S]
                                 # host a class table from this terminal (python -m
                                 # bus_lab.table): prints the join page and code, the
                                 # projector link and the host's secret link; --host 0.0.0.0
                                 # lets phones on the same network join; Ctrl+C stops it

`lab` and `test` create a virtual environment in .venv (if missing), install the
exact pins from requirements/ and then bus_lab itself in editable mode. A stamp
file inside .venv records what was installed, so later runs skip the install
until a pin file or pyproject.toml changes.

`test` runs pytest on as many workers as there are cores (at most 4; pytest-xdist,
one notebook or test module per worker at a time, so a notebook's cells share one
kernel and the browser tests share one JupyterLab server). Pass -n 0 (or -p no:xdist)
to run in one process, e.g. with --pdb. The browser tests need Chromium from the
system packages (Debian/Ubuntu: apt-get install -y chromium); without it they fail.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
REQ_DIR = ROOT / "requirements"
LAB_PINS = REQ_DIR / "lab.txt"
TEST_PINS = REQ_DIR / "test.txt"
BINDER_PINS = ROOT / "binder" / "requirements.txt"
OVERRIDES = ROOT / "binder" / "overrides.json"
#: Folder holding the Jupyter server settings shared with Binder and the browser tests
#: (binder/jupyter_server_config.py: formulas in the Voilà app view render with no internet).
SERVER_CONFIG_DIR = ROOT / "binder"
START_NOTEBOOK = Path("notebooks") / "00_start_here.ipynb"
MIN_PYTHON = (3, 11)  # the pinned versions (numpy, ipython, ...) need 3.11+
STAMP_FORMAT = "1"

IS_WINDOWS = os.name == "nt"
BIN = VENV / ("Scripts" if IS_WINDOWS else "bin")
VENV_PYTHON = BIN / ("python.exe" if IS_WINDOWS else "python")


class TaskError(Exception):
    """A problem the user can fix; printed without a traceback."""


def say(message: str) -> None:
    print(f"[tasks] {message}", flush=True)


def run(cmd: list[str | os.PathLike], **kwargs) -> None:
    cmd = [str(c) for c in cmd]
    try:
        subprocess.run(cmd, check=True, **kwargs)
    except FileNotFoundError as exc:
        raise TaskError(f"cannot run {cmd[0]}: {exc}") from None
    except subprocess.CalledProcessError as exc:
        raise TaskError(f"command failed (exit {exc.returncode}): {' '.join(cmd)}") from None


def pip_quiet_flags() -> list[str]:
    return [] if os.environ.get("TASKS_VERBOSE") else ["--quiet"]


# --------------------------------------------------------------------------- checks


def check_python() -> None:
    if sys.version_info < MIN_PYTHON:
        need = ".".join(map(str, MIN_PYTHON))
        have = ".".join(map(str, sys.version_info[:3]))
        raise TaskError(
            f"Python {need} or newer is needed for the pinned environment "
            f"(this is Python {have}). Run this script with a newer python3."
        )


def check_venv_support() -> None:
    try:
        import ensurepip  # noqa: F401
        import venv  # noqa: F401
    except ImportError:
        raise TaskError(
            "this Python cannot create virtual environments (the venv/ensurepip "
            "modules are missing).\n"
            "  On Debian/Ubuntu:  apt-get install python3-venv\n"
            "  (or python3.X-venv matching your python3 --version), then run again."
        ) from None


# ------------------------------------------------------------------ virtual env


def venv_works() -> bool:
    if not VENV_PYTHON.exists():
        return False
    try:
        result = subprocess.run(
            [str(VENV_PYTHON), "-c", "import sys, pip; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def create_venv() -> None:
    if venv_works():
        return
    if VENV.exists():
        say(f"{VENV.name} is broken or incomplete; recreating it")
        shutil.rmtree(VENV)
    check_venv_support()
    say(f"creating virtual environment {VENV.name} with Python {sys.version.split()[0]}")
    try:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    except subprocess.CalledProcessError:
        shutil.rmtree(VENV, ignore_errors=True)
        raise TaskError(
            "python3 -m venv failed. On Debian/Ubuntu install the venv package:\n"
            "  apt-get install python3-venv\n"
            "then run this command again."
        ) from None
    if not venv_works():
        shutil.rmtree(VENV, ignore_errors=True)
        raise TaskError(
            "the new virtual environment has no working pip. On Debian/Ubuntu:\n"
            "  apt-get install python3-venv"
        )


def requirement_closure(pin_file: Path) -> list[Path]:
    """The pin file plus every file it pulls in with -r, in order."""
    seen: list[Path] = []

    def visit(path: Path) -> None:
        path = path.resolve()
        if path in seen:
            return
        if not path.is_file():
            raise TaskError(f"missing requirements file: {path.relative_to(ROOT)}")
        seen.append(path)
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            for prefix in ("-r ", "--requirement "):
                if line.startswith(prefix):
                    visit(path.parent / line[len(prefix) :].strip())

    visit(pin_file)
    return seen


def stamp_path(pin_file: Path) -> Path:
    return VENV / f".bus_lab-installed-{pin_file.stem}.stamp"


def install_digest(pin_file: Path) -> str:
    digest = hashlib.sha256(STAMP_FORMAT.encode())
    for path in requirement_closure(pin_file) + [ROOT / "pyproject.toml"]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def ensure_env(pin_file: Path) -> None:
    """Create .venv and install pins + editable package unless already current."""
    check_python()
    create_venv()
    digest = install_digest(pin_file)
    stamp = stamp_path(pin_file)
    if stamp.exists() and stamp.read_text().strip() == digest:
        say(f"environment up to date ({pin_file.relative_to(ROOT)})")
        return
    if stamp.exists():
        stamp.unlink()
    say(f"installing pinned packages from {pin_file.relative_to(ROOT)} (first run takes a minute)")
    run(
        [
            VENV_PYTHON,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            *pip_quiet_flags(),
            "-r",
            pin_file,
        ],
        cwd=ROOT,
    )
    say("installing bus_lab in editable mode")
    run(
        [
            VENV_PYTHON,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            *pip_quiet_flags(),
            "--no-deps",
            "-e",
            ".",
        ],
        cwd=ROOT,
    )
    stamp.write_text(digest + "\n")
    # A pin file that includes another (test.txt has "-r lab.txt") installed that one too.
    for included in requirement_closure(pin_file)[1:]:
        stamp_path(included).write_text(install_digest(included) + "\n")
    say("environment ready")


# ------------------------------------------------------------------------ tasks


def install_lab_settings() -> None:
    """Merge binder/overrides.json into the venv's JupyterLab settings overrides."""
    if not OVERRIDES.is_file():
        return
    wanted = json.loads(OVERRIDES.read_text(encoding="utf-8"))
    target = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    current: dict = {}
    if target.is_file():
        try:
            current = json.loads(target.read_text(encoding="utf-8"))
        except ValueError:
            current = {}
    merged = dict(current)
    for plugin, settings in wanted.items():
        merged[plugin] = {**current.get(plugin, {}), **settings}
    if merged != current:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
        say("installed JupyterLab settings (no news fetch, no update check)")


def task_lab(args: list[str]) -> int:
    ensure_env(LAB_PINS)
    install_lab_settings()
    jupyter = BIN / ("jupyter.exe" if IS_WINDOWS else "jupyter")
    cmd = [str(jupyter), "lab"]
    if (ROOT / START_NOTEBOOK).is_file():
        cmd.append(START_NOTEBOOK.as_posix())
    else:
        say(f"{START_NOTEBOOK.as_posix()} not found; opening the file browser instead")
    # Kernels nobody is connected to (e.g. a closed Voilà app page, whose shutdown request the
    # server refuses) are stopped after 15 idle minutes; an open notebook's kernel is never culled.
    cmd += [
        "--MappingKernelManager.cull_idle_timeout=900",
        "--MappingKernelManager.cull_interval=120",
        "--MappingKernelManager.cull_connected=False",
    ]
    cmd += args
    if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in args:
        cmd.append("--allow-root")
    # The server reads binder/jupyter_server_config.py (Voilà's maths without a CDN) before the
    # user's own settings folders.
    config_path = os.environ.get("JUPYTER_CONFIG_PATH", "")
    os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in (str(SERVER_CONFIG_DIR), config_path) if p)
    say("starting: " + " ".join(cmd[1:]))
    os.chdir(ROOT)
    if IS_WINDOWS:
        return subprocess.call(cmd)
    os.execv(cmd[0], cmd)
    return 0  # not reached


#: pytest options that choose the process layout themselves; with any of them no -n is added.
XDIST_CHOICES = ("-n", "--numprocesses", "--dist", "--pdb", "--trace", "--co", "--collect-only")


def parallel_args(args: list[str]) -> list[str]:
    """pytest-xdist options for `test`: one worker per core (at most 4), grouped by file.

    `--dist loadscope` keeps each notebook's cells (one kernel) and each test module (the
    browser tests' one JupyterLab server) on one worker; `--no-loadscope-reorder` starts the
    longest modules (browser, Binder rebuild) first, as they come first in collection order.
    """
    for arg in args:
        if (
            arg in XDIST_CHOICES
            or arg.startswith(("--numprocesses=", "--dist="))
            or re.fullmatch(r"-n(\d+|auto|logical)", arg)
        ):
            return []
    if re.search(r"-p\s*no:xdist", " ".join(args)):
        return []
    workers = min(os.cpu_count() or 1, 4)
    if workers < 2:
        return []
    return ["-n", str(workers), "--dist", "loadscope", "--no-loadscope-reorder"]


#: The static checks `test` runs before pytest (settings in pyproject.toml): lint, formatting
#: and type checking. Any finding fails the run.
CHECKS = (
    ("ruff check (lint)", ["-m", "ruff", "check", "."]),
    ("ruff format --check (formatting)", ["-m", "ruff", "format", "--check", "."]),
    ("mypy (types)", ["-m", "mypy"]),
)


def run_checks() -> bool:
    """Run every static check; True when all pass. Each prints its own findings."""
    passed = True
    for title, check_args in CHECKS:
        say(f"checking: {title}")
        if subprocess.call([str(VENV_PYTHON), *check_args], cwd=ROOT) != 0:
            say(f"FAILED: {title} (see the findings above)")
            passed = False
    return passed


def task_test(args: list[str]) -> int:
    ensure_env(TEST_PINS)
    checks_passed = run_checks()
    args = parallel_args(args) + list(args)
    cmd = [str(VENV_PYTHON), "-m", "pytest", *args]
    say("running: python -m pytest " + " ".join(args))
    try:
        code = subprocess.call(cmd, cwd=ROOT)
    except KeyboardInterrupt:
        return 130
    if not checks_passed:
        say("the static checks failed (lint, formatting or types): see the findings above")
        return code or 1
    return code


def task_bench(args: list[str]) -> int:
    """Print the benchmark table (benchmarks/run.py; options such as --quick pass through)."""
    ensure_env(TEST_PINS)
    cmd = [str(VENV_PYTHON), str(ROOT / "benchmarks" / "run.py"), *args]
    say("running: benchmarks/run.py " + " ".join(args))
    try:
        return subprocess.call(cmd, cwd=ROOT)
    except KeyboardInterrupt:
        return 130


def task_table(args: list[str]) -> int:
    """Host a class table (``python -m bus_lab.table``; options such as --port pass through)."""
    ensure_env(LAB_PINS)
    cmd = [str(VENV_PYTHON), "-m", "bus_lab.table", *args]
    say("starting: python -m bus_lab.table " + " ".join(args))
    try:
        return subprocess.call(cmd, cwd=ROOT)
    except KeyboardInterrupt:
        return 130


def _pyproject_requirements() -> tuple[list[str], list[str]]:
    try:
        import tomllib
    except ImportError:
        raise TaskError("`pins` needs Python 3.11+ (tomllib)") from None
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    return project["dependencies"] + extras.get("lab", []), extras.get("test", [])


def _freeze(python: Path) -> list[str]:
    out = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [line for line in out.splitlines() if line.strip() and not line.startswith("#")]


def task_pins(args: list[str]) -> int:
    """Resolve the newest versions in a throw-away venv and rewrite the pin files."""
    if args:
        raise TaskError("`pins` takes no arguments")
    check_python()
    check_venv_support()
    lab_reqs, test_reqs = _pyproject_requirements()
    version = ".".join(map(str, sys.version_info[:2]))
    with tempfile.TemporaryDirectory(prefix="bus_lab-pins-") as tmp:
        env = Path(tmp) / "venv"
        python = env / ("Scripts/python.exe" if IS_WINDOWS else "bin/python")
        say(f"resolving in a fresh Python {version} environment")
        run([sys.executable, "-m", "venv", env])
        pip = [python, "-m", "pip", "install", "--disable-pip-version-check", *pip_quiet_flags()]
        run([*pip, *lab_reqs])
        lab = _freeze(python)
        run([*pip, *test_reqs])
        lab_names = set(lab)
        test_only = [line for line in _freeze(python) if line not in lab_names]

    generated = f"pip freeze of a fresh Python {version} venv; regenerate with `python3 tasks.py pins`"
    LAB_PINS.write_text(
        "# Exact pins for running the lab: bus_lab's runtime dependencies, JupyterLab\n"
        "# and everything they pull in. Top-level: " + ", ".join(lab_reqs) + "\n"
        f"# Generated: {generated}.\n"
        "# binder/requirements.txt carries the same pin lines.\n" + "\n".join(lab) + "\n",
        encoding="utf-8",
    )
    TEST_PINS.write_text(
        "# Exact pins for the test suite: everything in lab.txt plus the test tools.\n"
        "# Top-level: " + ", ".join(test_reqs) + "\n"
        f"# Generated: {generated}.\n"
        "-r lab.txt\n" + "\n".join(test_only) + "\n",
        encoding="utf-8",
    )
    BINDER_PINS.write_text(
        "# Generated from requirements/lab.txt (same pin lines); do not edit by hand.\n"
        "# Regenerate with `python3 tasks.py pins`.\n" + "\n".join(lab) + "\n",
        encoding="utf-8",
    )
    say(f"wrote {len(lab)} lab pins and {len(test_only)} extra test pins")
    return 0


TASKS = {"lab": task_lab, "test": task_test, "bench": task_bench, "pins": task_pins, "table": task_table}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help") or argv[0] not in TASKS:
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help", "help") else 2
    try:
        return TASKS[argv[0]](argv[1:])
    except TaskError as exc:
        print(f"[tasks] error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
