"""What a first run meets is true: the uploader's limit is the loader's, a fresh checkout starts
without a warning, and the README names the Python the project asks for."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
import time
import urllib.request

from datasets.dialect import MAX_BYTES
from testkit.chromium import free_port
from tests.apptest import ROOT
from tests.test_server_config import setting


def test_the_uploader_says_the_loaders_limit():
    # Streamlit writes "Limit {server.maxUploadSize}MB per file" under the uploader
    assert setting("server.maxUploadSize") == math.ceil(MAX_BYTES / 1_000_000)


def test_the_readme_names_the_python_the_project_asks_for():
    wanted = re.search(r'requires-python = ">=(3\.\d+)"',
                       (ROOT / "pyproject.toml").read_text()).group(1)
    readme = (ROOT / "README.md").read_text()
    run = readme[readme.index("## Run the app"):readme.index("## Run the tests")]
    assert f"Python {wanted} or later" in run
    assert "python3 -m venv" in run


def _fresh_checkout(where):
    """The files git tracks, as a clone has them: no ./static, no caches."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in listed:
        source = ROOT / name
        if name and source.is_file() and not name.startswith("docs/"):
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, where / name)
    return where


def test_a_fresh_checkout_starts_without_a_warning(tmp_path):
    tree = _fresh_checkout(tmp_path)
    assert not (tree / "static").exists()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.3)
        with urllib.request.urlopen(f"{url}/app/static/plotly.min.js", timeout=10) as response:
            assert response.status == 200
        # the page's icon, a file the browser fetches (read afresh on every run as a path)
        with urllib.request.urlopen(f"{url}/app/static/favicon.png", timeout=10) as response:
            assert response.read() == (tree / "assets" / "favicon.png").read_bytes()
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=30)
    assert "You can now view your Streamlit app" in output
    assert "WARNING" not in output, output
