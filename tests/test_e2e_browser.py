"""The real app in a real browser: `python app.py` on a free loopback port, driven by tests/e2e/scout.spec.js.

Headless Debian Chromium (installed with apt-get when missing) through playwright-core (installed with
npm into a cache folder outside the repository when missing; no browser is ever downloaded). The test is
skipped only when those installs are impossible. The app gets its own temporary cache folder; only the
converted model copies are shared (a symlink to ~/.cache/kgscout/models when it exists, else they are
made from the installed packages). Screenshots and the app's log go to test-artifacts/e2e/.

Set KGSCOUT_DOCS_SCREENSHOTS=1 to also write docs/chat.png, docs/mark-correct.png and docs/bootstrap.png.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
E2E = ROOT / "tests" / "e2e"
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
NODE_DIR = Path(os.environ.get("KGSCOUT_E2E_NODE_DIR", Path.home() / ".cache" / "kgscout-e2e"))
SHARED_MODELS = Path.home() / ".cache" / "kgscout" / "models"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
READY_TIMEOUT_S = 900  # a cold start builds the geography KG and may convert the model
SPEC_TIMEOUT_S = 900


def _run(cmd: list[str], timeout: float, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _apt_install(*packages: str) -> str | None:
    """None on success, else why it failed."""
    if not shutil.which("apt-get"):
        return "apt-get is not available"
    try:
        done = _run(["apt-get", "install", "-y", "--no-install-recommends", *packages], 1200)
        if done.returncode != 0:
            _run(["apt-get", "update"], 600)
            done = _run(["apt-get", "install", "-y", "--no-install-recommends", *packages], 1200)
    except (OSError, subprocess.TimeoutExpired) as err:
        return str(err)
    return None if done.returncode == 0 else (done.stderr or done.stdout)[-500:]


@pytest.fixture(scope="module")
def browser_tools() -> dict:
    """Chromium, node and playwright-core, installed if missing; skips only when that is impossible."""
    if not CHROMIUM.exists():
        why = _apt_install("chromium")
        if why or not CHROMIUM.exists():
            pytest.skip(f"Chromium cannot be installed: {why}")
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        why = _apt_install("nodejs", "npm")
        node, npm = shutil.which("node"), shutil.which("npm")
        if not node or not npm:
            pytest.skip(f"node/npm cannot be installed: {why}")
    NODE_DIR.mkdir(parents=True, exist_ok=True)
    changed = False
    for name in ("package.json", "package-lock.json"):
        target = NODE_DIR / name
        if not target.exists() or not filecmp.cmp(E2E / name, target, shallow=False):
            shutil.copyfile(E2E / name, target)
            changed = True
    if changed or not (NODE_DIR / "node_modules" / "playwright-core" / "package.json").exists():
        try:
            done = _run([npm, "ci", "--no-audit", "--no-fund"], 600, cwd=NODE_DIR)
        except (OSError, subprocess.TimeoutExpired) as err:
            pytest.skip(f"playwright-core cannot be installed with npm: {err}")
        if done.returncode != 0:
            pytest.skip(f"playwright-core cannot be installed with npm: {(done.stderr or done.stdout)[-500:]}")
    return {"node": node, "node_path": str(NODE_DIR / "node_modules"), "chromium": str(CHROMIUM)}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def app_url(tmp_path_factory, browser_tools):
    cache = tmp_path_factory.mktemp("app-cache")
    if SHARED_MODELS.is_dir():
        (cache / "models").symlink_to(SHARED_MODELS, target_is_directory=True)
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "app.log"
    env = {
        **os.environ,
        "GRADIO_ANALYTICS_ENABLED": "False",
        "GRADIO_TEMP_DIR": str(tmp_path_factory.mktemp("gradio")),
        "HF_HUB_OFFLINE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    cmd = [
        sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(port), "--cache-dir", str(cache),
        # short walks and few beams keep the tiny bootstrap under a minute; batches of one program make the
        # progress bar move program by program
        "--max-relations", "2", "--qgen-beams", "2", "--qgen-batch", "1",
    ]
    with log_path.open("w") as log:
        started = time.monotonic()
        process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            while not _ready(url):
                if process.poll() is not None:
                    pytest.fail(f"the app exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
                if time.monotonic() - started > READY_TIMEOUT_S:
                    pytest.fail(f"the app was not ready after {READY_TIMEOUT_S} s:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.5)
            print(f"app ready after {time.monotonic() - started:.1f} s (fresh cache folder)")
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)


def test_browser_end_to_end(app_url, browser_tools):
    cmd = [browser_tools["node"], str(E2E / "scout.spec.js"), app_url, str(ARTIFACTS)]
    if os.environ.get("KGSCOUT_DOCS_SCREENSHOTS"):
        cmd += ["--docs", str(ROOT / "docs")]
    env = {**os.environ, "NODE_PATH": browser_tools["node_path"], "CHROMIUM": browser_tools["chromium"]}
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=E2E, env=env, capture_output=True, text=True, timeout=SPEC_TIMEOUT_S)
    print(done.stdout)
    print(f"browser steps took {time.monotonic() - started:.1f} s")
    assert done.returncode == 0, (
        f"browser test failed (screenshots in {ARTIFACTS}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    )
    assert "ALL OK" in done.stdout
