"""The Binder launch paths, rebuilt without Docker.

* ``repo2docker --no-build --debug .`` prints the build file Binder would use: it must read
  ``binder/`` (Python from ``runtime.txt``, the pins from ``binder/requirements.txt``, then
  ``binder/postBuild``).
* The Binder environment rebuilt as Binder builds it: a fresh virtual environment, ``pip install -r
  binder/requirements.txt``, then ``binder/postBuild`` run from a copy of the repository. Then it
  must hold what a lesson needs (bus_lab installed from the copy, the widget front end and Voilà
  enabled, the JupyterLab settings override in place, consistent dependencies), and every notebook
  must pass nbval in a kernel of that environment (the test tools stay outside it).
* The README's Binder badges open notebooks that exist, in JupyterLab and in Voilà.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
NOTEBOOKS = ROOT / "notebooks"
START = "notebooks/00_start_here.ipynb"
FLAGSHIP = "notebooks/ride_the_bus/02_guess_odds.ipynb"
IS_WINDOWS = os.name == "nt"
KERNEL_NAME = "bus-lab-binder"

pytestmark = pytest.mark.binder
#: Not copied into the rebuilt repository (local environments and build leftovers).
COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    ".tox",
    "test-artifacts",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
    ".ipynb_checkpoints",
    ".hypothesis",
    ".pytest_cache",
    "*.pyc",
)


def runtime_version() -> tuple[int, int]:
    text = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(\d+)\.(\d+)", text)
    assert match, f"binder/runtime.txt should read like python-3.11, not {text!r}"
    return int(match.group(1)), int(match.group(2))


def binder_python() -> str:
    """An interpreter of the Python version Binder uses (runtime.txt), else this one (with a warning)."""
    major, minor = runtime_version()
    if sys.version_info[:2] == (major, minor):
        return sys.executable
    found = shutil.which(f"python{major}.{minor}")
    if found:
        return found
    warnings.warn(
        f"Binder uses Python {major}.{minor}, not found here: rebuilding with Python "
        f"{sys.version_info[0]}.{sys.version_info[1]} instead",
        stacklevel=2,
    )
    return sys.executable


def run(cmd: list[str | Path], **kwargs) -> subprocess.CompletedProcess:
    """Run a command; on failure, fail the test with its output."""
    cmd = [str(c) for c in cmd]
    result = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, **kwargs)
    if result.returncode != 0:
        pytest.fail(
            f"command failed (exit {result.returncode}): {' '.join(cmd)}\n"
            f"--- stdout ---\n{result.stdout[-6000:]}\n--- stderr ---\n{result.stderr[-6000:]}",
            pytrace=False,
        )
    return result


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def plain(result: subprocess.CompletedProcess) -> str:
    """stdout and stderr without colour codes."""
    return ANSI.sub("", result.stdout + result.stderr)


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "PYTHONPATH",
            "PYTHONHOME",
            "VIRTUAL_ENV",
            "JUPYTER_PATH",
            "JUPYTER_CONFIG_DIR",
            "JUPYTER_DATA_DIR",
            "JUPYTER_CONFIG_PATH",
            "PIP_REQUIRE_VIRTUALENV",
        )
    }
    env.update(extra)
    return env


# -- repo2docker ----------------------------------------------------------------------------------


def test_repo2docker_reads_the_binder_folder():
    exe = Path(sys.executable).parent / ("repo2docker.exe" if IS_WINDOWS else "repo2docker")
    assert exe.is_file(), (
        "repo2docker is missing from the test environment: install the test pins "
        "(python3 tasks.py test does) — it comes from the jupyter-repo2docker package"
    )
    result = run([exe, "--no-build", "--debug", ROOT], cwd=ROOT, env=clean_env(), timeout=300)
    out = plain(result)
    major, minor = runtime_version()
    assert f"python={major}.{minor}" in out, "repo2docker did not pick up binder/runtime.txt"
    assert re.search(r'pip install [^\n]*-r "?binder/requirements\.txt', out), (
        "repo2docker does not install binder/requirements.txt"
    )
    assert re.search(r"^RUN \./binder/postBuild$", out, flags=re.M), (
        "repo2docker does not run binder/postBuild"
    )
    assert "requirements/lab.txt" not in out and "pyproject.toml" not in out, (
        "repo2docker reads files outside binder/"
    )


# -- the README badges ----------------------------------------------------------------------------


def binder_links() -> dict[str, str]:
    """urlpath of every mybinder.org launch link in the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = {}
    for url in re.findall(r"\((https://mybinder\.org/v2/[^)\s]+)\)", readme):
        urlpath = parse_qs(urlparse(url).query).get("urlpath", [""])[0]
        links[urlpath] = url
    return links


def test_readme_badges_open_the_start_notebook_and_the_voila_app():
    links = binder_links()
    assert f"lab/tree/{START}" in links, f"no JupyterLab-on-Binder badge at {START}: {sorted(links)}"
    assert f"voila/render/{FLAGSHIP}" in links, f"no Voilà-on-Binder badge at {FLAGSHIP}: {sorted(links)}"
    for urlpath in links:
        notebook = urlpath.split("/", 2)[-1] if urlpath.startswith(("lab/tree/", "voila/render/")) else None
        assert notebook and (ROOT / notebook).is_file(), (
            f"README Binder link to a missing notebook: {urlpath}"
        )


# -- the rebuilt Binder environment ------------------------------------------------------------------


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A copy of the repository with a virtual env built from binder/ as Binder builds it."""
    base = tmp_path_factory.mktemp("binder")
    repo = base / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    venv = base / "env"
    run([binder_python(), "-m", "venv", venv], timeout=300)
    bindir = venv / ("Scripts" if IS_WINDOWS else "bin")
    python = bindir / ("python.exe" if IS_WINDOWS else "python")
    env = clean_env(PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", VIRTUAL_ENV=str(venv))
    # pip's cache is used on purpose: the wheels are the pinned ones, downloaded once.
    run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
            "--quiet",
            "-r",
            repo / "binder" / "requirements.txt",
        ],
        cwd=repo,
        env=env,
        timeout=900,
    )
    if IS_WINDOWS:
        pytest.fail(
            "binder/postBuild is a bash script: rebuild the Binder environment on Linux or macOS",
            pytrace=False,
        )
    run([repo / "binder" / "postBuild"], cwd=repo, env=env, timeout=600)
    return {"repo": repo, "venv": venv, "bin": bindir, "python": python, "env": env, "base": base}


def test_binder_environment_holds_what_the_lessons_need(binder_env):
    python, env, bindir = binder_env["python"], binder_env["env"], binder_env["bin"]
    elsewhere = binder_env["base"]  # not the repository, so `import bus_lab` finds the installed one
    code = (
        "import bus_lab, ipywidgets, sys, json; from bus_lab.widgets import GameWidget; "
        "print(json.dumps([bus_lab.__file__, sys.prefix, bus_lab.registered_games(), "
        "ipywidgets.__version__]))"
    )
    where, prefix, games, ipywidgets_version = json.loads(
        run([python, "-c", code], cwd=elsewhere, env=env, timeout=120).stdout
    )
    assert Path(where).resolve().is_relative_to(Path(prefix).resolve()), (
        f"bus_lab is not installed into the Binder environment: {where}"
    )
    assert games == json.loads(
        run(
            [sys.executable, "-c", "import bus_lab, json; print(json.dumps(bus_lab.registered_games()))"],
            timeout=120,
        ).stdout
    ), "the installed bus_lab is missing games"
    pinned = dict(
        line.split("==")
        for line in (BINDER / "requirements.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    assert ipywidgets_version == pinned["ipywidgets"]

    run([python, "-m", "pip", "check"], cwd=elsewhere, env=env, timeout=120)

    overrides = Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert overrides.is_file(), "postBuild did not install the JupyterLab settings override"
    assert json.loads(overrides.read_text()) == json.loads((BINDER / "overrides.json").read_text())
    server_config = Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.py"
    assert server_config.is_file(), "postBuild did not install the Jupyter server settings"
    assert "_voila_offline_mathjax" in server_config.read_text(), (
        "the server settings lack Voilà's offline maths"
    )

    jupyter = bindir / "jupyter"
    listing = plain(run([jupyter, "labextension", "list"], cwd=elsewhere, env=env, timeout=120))
    assert re.search(r"@jupyter-widgets/jupyterlab-manager v\S+ enabled\s+OK", listing), listing
    listing = plain(run([jupyter, "server", "extension", "list"], cwd=elsewhere, env=env, timeout=120))
    assert re.search(r"voila\S*\s+enabled", listing), f"Voilà is not enabled on the server:\n{listing}"
    assert not (binder_env["repo"] / "bus_lab.egg-info").exists(), "postBuild left build files in the repo"


def test_every_notebook_passes_nbval_in_the_binder_environment(binder_env):
    """One nbval run over all notebooks, each in a kernel of the rebuilt Binder environment."""
    repo, python = binder_env["repo"], binder_env["python"]
    kernels = binder_env["base"] / "jupyter-path"
    spec = kernels / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Binder environment",
                "language": "python",
            }
        ),
        encoding="utf-8",
    )
    notebooks = sorted(p.relative_to(repo).as_posix() for p in (repo / "notebooks").rglob("*.ipynb"))
    assert notebooks, "no notebooks to run"
    env = clean_env(JUPYTER_PATH=str(kernels), JUPYTER_DATA_DIR=str(binder_env["base"] / "jupyter-data"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-o",
            "addopts=",
            "--nbval-lax",
            f"--nbval-kernel-name={KERNEL_NAME}",
            "--nbval-cell-timeout=120",
            *notebooks,
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=1200,
    )
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, (
        f"nbval in the Binder environment failed ({summary}):\n"
        f"{result.stdout[-8000:]}\n{result.stderr[-3000:]}"
    )
    assert re.search(r"\d+ passed", summary) and "failed" not in summary, summary
