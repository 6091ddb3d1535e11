"""Checks on the packaging, pin files, Binder configuration and CI entry point."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAB_PINS = ROOT / "requirements" / "lab.txt"
TEST_PINS = ROOT / "requirements" / "test.txt"
BINDER = ROOT / "binder"

PIN_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?==[A-Za-z0-9][A-Za-z0-9.+!_-]*$")


def pin_lines(path: Path) -> list[str]:
    """Requirement lines of a pin file, without comments, blank lines and -r lines."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("-r "):
            continue
        lines.append(line)
    return lines


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_versions(*paths: Path) -> dict[str, str]:
    pins = {}
    for path in paths:
        for line in pin_lines(path):
            name, _, version = line.partition("==")
            pins[canonical(name)] = version
    return pins


def test_binder_requirements_match_lab_pins():
    assert pin_lines(BINDER / "requirements.txt") == pin_lines(LAB_PINS)
    header = (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("#") and "requirements/lab.txt" in header


def test_binder_requirements_have_no_local_paths_or_includes():
    for raw in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        assert PIN_RE.match(line), f"binder/requirements.txt: not an exact pin: {line!r}"


@pytest.mark.parametrize("path", [LAB_PINS, TEST_PINS], ids=["lab.txt", "test.txt"])
def test_pin_files_are_exact(path: Path):
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    assert any(PIN_RE.match(line) for line in lines), f"{path.name} has no pins"
    for line in lines:
        if not line or line.startswith("#"):
            continue
        if line.startswith("-r "):
            assert (path.parent / line[3:].strip()).is_file(), f"{path.name}: {line!r} not found"
            continue
        assert PIN_RE.match(line), f"{path.name}: not an exact name==version pin: {line!r}"


def test_test_pins_include_lab_pins_without_duplicates():
    lines = TEST_PINS.read_text(encoding="utf-8").splitlines()
    assert "-r lab.txt" in [line.strip() for line in lines]
    lab = {canonical(line.partition("==")[0]) for line in pin_lines(LAB_PINS)}
    test = [canonical(line.partition("==")[0]) for line in pin_lines(TEST_PINS)]
    assert len(test) == len(set(test))
    assert not lab & set(test), "packages pinned in both lab.txt and test.txt"


def test_pins_satisfy_pyproject_dependencies():
    tomllib = pytest.importorskip("tomllib")
    requirements = pytest.importorskip("packaging.requirements")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    lab = pinned_versions(LAB_PINS)
    everything = pinned_versions(LAB_PINS, TEST_PINS)
    for spec, pins in [(s, lab) for s in project["dependencies"] + extras["lab"]] + [
        (s, everything) for s in extras["test"]
    ]:
        req = requirements.Requirement(spec)
        name = canonical(req.name)
        assert name in pins, f"{req.name} is not pinned"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"pinned {req.name}=={pins[name]} does not satisfy {spec!r}"
        )


def test_binder_post_build_is_an_executable_strict_bash_script():
    post_build = BINDER / "postBuild"
    text = post_build.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/bash\n")
    assert "set -euo pipefail" in text
    assert "pip install --no-deps ." in text
    if os.name != "nt":
        assert post_build.stat().st_mode & stat.S_IXUSR, "binder/postBuild is not executable"


def test_binder_runtime_is_python_311():
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.11"


def test_lab_settings_override_turns_off_news():
    overrides = json.loads((BINDER / "overrides.json").read_text(encoding="utf-8"))
    notification = overrides["@jupyterlab/apputils-extension:notification"]
    assert notification["fetchNews"] == "false"
    assert notification["checkForUpdates"] is False


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", readme, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_quick_start_has_the_two_commands():
    commands = readme_commands()
    assert "python3 tasks.py lab" in commands
    assert "python3 tasks.py test" in commands


def test_ci_runs_the_readme_test_command():
    ci = ROOT / ".ci" / "run"
    ci_lines = [line.strip() for line in ci.read_text(encoding="utf-8").splitlines()]
    test_commands = [c for c in readme_commands() if c.startswith("python3 tasks.py test")]
    assert test_commands, "README has no test command"
    for command in test_commands:
        assert command in ci_lines, f".ci/run does not run {command!r}"
    assert ci_lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in ci_lines
    if os.name != "nt":
        assert ci.stat().st_mode & stat.S_IXUSR, ".ci/run is not executable"


def test_notebooks_store_no_widget_state():
    """Saved widget state only bloats a notebook (the widgets are rebuilt when it runs) and can
    show stale widgets on Binder; lessons are kept without it."""
    import json

    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        assert "widgets" not in json.loads(path.read_text(encoding="utf-8")).get("metadata", {}), path


def test_lab_command_opens_the_start_notebook_and_culls_only_abandoned_kernels(monkeypatch):
    """`python3 tasks.py lab` starts JupyterLab on the start notebook; kernels nobody is connected
    to any more (a closed Voilà app page) are stopped after 15 idle minutes, open notebooks never."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bus_lab_tasks", ROOT / "tasks.py")
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    started = []
    monkeypatch.setattr(tasks, "ensure_env", lambda pins: None)
    monkeypatch.setattr(tasks, "install_lab_settings", lambda: None)
    monkeypatch.setattr(tasks.os, "execv", lambda path, cmd: started.append(cmd))
    monkeypatch.setattr(tasks.os, "chdir", lambda path: None)
    monkeypatch.setattr(tasks.subprocess, "call", lambda cmd: started.append(cmd) or 0)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/users/own/config")  # restored after the test
    tasks.task_lab(["--no-browser"])
    [cmd] = started
    assert cmd[1:3] == ["lab", "notebooks/00_start_here.ipynb"]
    assert "--MappingKernelManager.cull_idle_timeout=900" in cmd
    assert "--MappingKernelManager.cull_connected=False" in cmd
    assert cmd.index("--no-browser") > cmd.index("--MappingKernelManager.cull_idle_timeout=900")
    # the server settings shipped in binder/ come first on the config path
    assert os.environ["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(BINDER), "/users/own/config"]


def _server_config():
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("jupyter_server_config.py", path=str(BINDER)).load_config()
    assert isinstance(config, Config)
    return config


def test_server_config_makes_voila_use_its_bundled_mathjax():
    """With both page-config entries empty, Voilà's front end typesets with its own MathJax instead of
    fetching it from a CDN (formulas render offline)."""
    hook = _server_config().VoilaConfiguration.page_config_hook
    page_config = {
        "fullMathjaxUrl": "https://cdn.example/mathjax.js",
        "mathjaxConfig": "TeX-AMS",
        "baseUrl": "/",
    }
    result = hook(
        page_config, base_url="/", settings={}, log=None, voila_configuration=None, notebook_path="x"
    )
    assert result == {"fullMathjaxUrl": None, "mathjaxConfig": None, "baseUrl": "/"}


def test_binder_installs_the_server_config():
    text = (BINDER / "postBuild").read_text(encoding="utf-8")
    assert "cat binder/jupyter_server_config.py >>" in text
    assert "/etc/jupyter" in text
