"""The follower page's routes (ui/classroom/follower_page.py): a small page revalidated each
time, its files under hashed names cacheable for good, its one script read by node."""

from __future__ import annotations

import gzip
import hashlib
import re
import shutil
import subprocess
import warnings

import pytest
from starlette.applications import Starlette

from ui.classroom import follower_page
from ui.stepper.files import PLOTLY_GZ

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with TestClient(Starlette(routes=follower_page.routes())) as client:
        yield client


def test_the_page_is_small_revalidated_and_names_its_files_by_their_hash(client):
    response = client.get("/follow?class=ABCDEFGH")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["content-type"].startswith("text/html")
    assert len(gzip.compress(response.content)) < 1500  # tiny
    etag = response.headers["etag"]
    again = client.get("/follow?class=OTHERCOD", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""  # one page for every class
    html = response.text
    names = set(re.findall(r'(?:src|href)="follow/static/([^"]+)"', html))
    assert len(names) == 3  # its style, Plotly, its one script
    assert "<script>" not in html  # nothing inline: nothing of a class is ever in it
    for name in names:
        served = client.get(f"/follow/static/{name}", headers={"Accept-Encoding": "gzip"})
        assert served.status_code == 200
        assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert served.headers["content-encoding"] == "gzip"
        digest = name.rsplit(".", 2)[1]
        assert hashlib.sha256(served.content).hexdigest()[:16] == digest  # named by its bytes
        assert served.headers["etag"] == f'"{digest}"'
        kept = client.get(f"/follow/static/{name}", headers={"If-None-Match": f'"{digest}"'})
        assert kept.status_code == 304


def test_plotly_is_served_gzipped_as_the_repository_keeps_it(client):
    name = next(n for n in follower_page.assets() if n.startswith("plotly."))
    raw = client.get(f"/follow/static/{name}", headers={"Accept-Encoding": "gzip"}, )
    assert raw.content == gzip.decompress(PLOTLY_GZ.read_bytes())
    assert follower_page.assets()[name].body == PLOTLY_GZ.read_bytes()  # not zipped again


def test_a_file_it_does_not_have_is_a_404_in_words(client):
    for name in ("follow.0000000000000000.js", "..%2Fapp.py", "plotly.min.js"):
        response = client.get(f"/follow/static/{name}")
        assert response.status_code == 404
    assert "reload the page" in client.get("/follow/static/x.js").json()["error"]


def test_the_script_is_one_module_node_reads_with_the_stepper_and_the_strip_in_scopes():
    text = follower_page.script()
    assert re.search(r"^export ", text, re.M) is None  # joined: a scope each, nothing exported
    assert text.count("const mountStepper = function") == 1
    assert text.count("const mountStrip = function") == 1
    assert "follow({ mountStepper: mountStepperScoped, mountStrip: mountStripScoped" in text
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    path = follower_page.ASSETS.parent.parent / "tests" / "artifacts" / "follow.mjs"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    checked = subprocess.run([node, "--check", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_the_pages_colours_are_the_palettes_in_both_schemes():
    from viz import palette

    css = follower_page.css()
    light, dark = css.split("@media (prefers-color-scheme: dark) { :root, .pl-stepper {", 1)
    for pair, name in ((palette.PAGE, "--st-background-color"), (palette.TEXT, "--st-text-color"),
                       (palette.PRIMARY, "--st-primary-color")):
        assert f"{name}: {pair[0]};" in light and f"{name}: {pair[1]};" in dark.split("}")[0]
