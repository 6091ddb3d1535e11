"""Fixtures for the real-browser tests: a JupyterLab server, headless Chromium and a page.

The server runs on 127.0.0.1 on a free port with a random token, serves a temporary copy of
``notebooks/`` and keeps every Jupyter directory (config, data, runtime, settings, workspaces) in a
temporary folder, so nothing on the machine changes and nothing from the user's own Jupyter set-up
leaks in. It is started once per test session and stopped in all cases.

The browser is the system's Chromium (Debian package ``chromium``), driven by Python Playwright;
Playwright's own browser download is never used. Without Chromium the tests fail and say how to
install it: they never skip silently.

On a failing test the page is saved as a screenshot (and the browser console as a text file) under
``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
OVERRIDES = ROOT / "binder" / "overrides.json"
#: The folder of binder/jupyter_server_config.py, the server settings `tasks.py lab` and Binder use.
SERVER_CONFIG_DIR = ROOT / "binder"

#: Where the Chromium binary may be; ``BUS_LAB_CHROMIUM`` (a path) comes first when set.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_HINT = (
    "the browser tests need Chromium, and none was found (looked for BUS_LAB_CHROMIUM, "
    + ", ".join(CHROMIUM_CANDIDATES)
    + " and `chromium` on PATH).\n"
    "Install it from the Debian/Ubuntu packages (as root):\n"
    "    apt-get update && apt-get install -y chromium\n"
    "or set BUS_LAB_CHROMIUM to the path of a Chromium binary. "
    "(Do not use `playwright install`: these tests drive the system's Chromium.)"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
#: Test-only JupyterLab settings: render every cell (no virtual scrolling), so every output is in
#: the page and can be checked.
TEST_SETTINGS = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}
SERVER_START_TIMEOUT = 120  # seconds


def find_chromium() -> str | None:
    """The path of a Chromium binary, or ``None``."""
    wanted = os.environ.get("BUS_LAB_CHROMIUM")
    if wanted:
        return wanted if Path(wanted).is_file() else None
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_user_settings(settings_dir: Path) -> None:
    """JupyterLab user settings: binder/overrides.json (no news toast) plus TEST_SETTINGS."""
    wanted: dict[str, dict] = json.loads(OVERRIDES.read_text(encoding="utf-8")) if OVERRIDES.is_file() else {}
    for plugin, values in TEST_SETTINGS.items():
        wanted[plugin] = {**wanted.get(plugin, {}), **values}
    for plugin, values in wanted.items():
        package, _, name = plugin.partition(":")
        path = settings_dir.joinpath(*package.split("/"), f"{name}.jupyterlab-settings")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2), encoding="utf-8")


def isolated_jupyter_env(base: Path) -> dict[str, str]:
    """Environment variables giving Jupyter its own config, data, runtime and settings folders."""
    dirs = {name: base / name for name in ("config", "data", "runtime", "settings", "workspaces")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    write_user_settings(dirs["settings"])
    env = dict(os.environ)
    for key in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "JUPYTER_TOKEN"):
        env.pop(key, None)
    env.update(
        {
            # the kernels import bus_lab from this checkout (the one under test)
            "PYTHONPATH": str(ROOT),
            "JUPYTER_CONFIG_DIR": str(dirs["config"]),
            # the lab command's and Binder's server settings (Voilà's maths without a CDN)
            "JUPYTER_CONFIG_PATH": str(SERVER_CONFIG_DIR),
            "JUPYTER_DATA_DIR": str(dirs["data"]),
            "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
            "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
            "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
            "JUPYTER_PREFER_ENV_PATH": "1",  # this environment's kernel before any user-wide one
        }
    )
    return env


@dataclass
class LabServer:
    """A running JupyterLab server (see the ``lab_server`` fixture)."""

    url: str  # e.g. "http://127.0.0.1:43210"
    token: str
    root: Path  # the folder it serves (a copy of notebooks/)
    process: subprocess.Popen
    log_path: Path

    def api(self, path: str, method: str = "GET") -> object:
        """Call the server's REST API; returns the decoded JSON (or None for an empty body)."""
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def lab_url(self, notebook: str, workspace: str) -> str:
        """URL opening ``notebook`` (path relative to the served folder) in its own workspace."""
        return f"{self.url}/lab/workspaces/{workspace}/tree/{notebook}?token={self.token}"

    def voila_url(self, notebook: str) -> str:
        """URL of ``notebook`` rendered by Voilà, the path a Binder Voilà link uses."""
        return f"{self.url}/voila/render/{notebook}?token={self.token}"

    def shutdown_sessions(self) -> None:
        """Stop every kernel session (between tests, so kernels do not pile up)."""
        try:
            for session in self.api("/api/sessions") or []:
                self.api(f"/api/sessions/{session['id']}", method="DELETE")
            for kernel in self.api("/api/kernels") or []:
                self.api(f"/api/kernels/{kernel['id']}", method="DELETE")
        except (OSError, urllib.error.URLError, ValueError):
            pass

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium binary; fails (never skips) with install instructions when there is none."""
    path = find_chromium()
    if path is None:
        pytest.fail(CHROMIUM_HINT, pytrace=False)
    return path


class ServerError(RuntimeError):
    """The JupyterLab server did not start (the message ends with its log's tail)."""


def start_lab_server(base: Path) -> LabServer:
    """Start JupyterLab on 127.0.0.1 serving a copy of notebooks/ in ``base``; stop it with
    :func:`stop_lab_server`. Used by the ``lab_server`` fixture and by the board benchmark.

    Raises:
        ServerError: the server exited or did not answer within ``SERVER_START_TIMEOUT`` s.
    """
    root = base / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    env = isolated_jupyter_env(base / "jupyter")
    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.workspaces_dir={env['JUPYTERLAB_WORKSPACES_DIR']}",
        f"--LabApp.user_settings_dir={env['JUPYTERLAB_SETTINGS_DIR']}",
        "--LabApp.expose_app_in_browser=True",
        "--JupyterNotebookApp.expose_app_in_browser=True",  # Notebook 7 (/notebooks/...) too
    ]
    log_path = base / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    server = LabServer(
        url=f"http://127.0.0.1:{port}", token=token, root=root, process=process, log_path=log_path
    )
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise ServerError(f"JupyterLab exited with code {process.returncode}:\n{server.log_tail()}")
        try:
            server.api("/api/status")
            return server
        except (OSError, urllib.error.URLError, ValueError):
            if time.monotonic() > deadline:
                _stop(process)
                raise ServerError(
                    f"JupyterLab did not answer within {SERVER_START_TIMEOUT} s:\n{server.log_tail()}"
                ) from None
            time.sleep(0.5)


def stop_lab_server(server: LabServer) -> None:
    """Stop the server (terminate, then kill after 20 s)."""
    _stop(server.process)


def launch_chromium(playwright, chromium_path: str):
    """The system's Chromium, headless, with the flags these tests need."""
    return playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> LabServer:
    """A JupyterLab server on 127.0.0.1 serving a temporary copy of notebooks/ (stopped at the end)."""
    try:
        server = start_lab_server(tmp_path_factory.mktemp("jupyterlab"))
    except ServerError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        stop_lab_server(server)


@pytest.fixture(scope="session")
def browser(chromium_path: str):
    """Headless Chromium driven by Playwright (one browser for the whole session)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "Python Playwright is missing: install the test pins "
            "(python3 tasks.py test installs them into .venv).",
            pytrace=False,
        )
    playwright = sync_playwright().start()
    try:
        chromium = launch_chromium(playwright, chromium_path)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Keep each phase's report on the item, so fixtures can tell whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def artifact_name(nodeid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid.split("::", 1)[-1]).strip("_")[:150]


@pytest.fixture
def page(browser, lab_server: LabServer, request: pytest.FixtureRequest):
    """A fresh browser page (own context: no shared cookies or storage); screenshot on failure.

    Kernels started by the test are shut down afterwards.
    """
    yield from _server_page(browser, lab_server, request, {"width": 1400, "height": 1000})


@pytest.fixture
def laptop_page(browser, lab_server: LabServer, request: pytest.FixtureRequest):
    """Like ``page``, at 1366×768 (a classroom laptop or projector): the size the board must fit."""
    yield from _server_page(browser, lab_server, request, {"width": 1366, "height": 768})


def _server_page(browser, lab_server: LabServer, request: pytest.FixtureRequest, viewport: dict):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(30_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"[{msg.type}] {msg.text}"))
    page.on("pageerror", lambda exc: console.append(f"[pageerror] {exc}"))
    try:
        yield page
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is None or report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            name = artifact_name(request.node.nodeid)
            try:
                page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=15_000)
            except Exception as exc:  # the page may be gone; the console log is still useful
                console.append(f"[screenshot failed] {exc}")
            (ARTIFACTS / f"{name}.console.txt").write_text("\n".join(console) + "\n", encoding="utf-8")
        context.close()
        lab_server.shutdown_sessions()


@pytest.fixture
def blank_page(browser, request: pytest.FixtureRequest):
    """A page with no server behind it (1366×768), for boards driven by ``board_harness``.

    JavaScript errors on the page fail the test; on a failure the page is saved as a screenshot.
    """
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
        assert not errors, f"JavaScript errors on the board page: {errors}"
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{artifact_name(request.node.nodeid)}.png"), full_page=True)
        context.close()
