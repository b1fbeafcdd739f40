"""The follower page: a class followed with no Streamlit session (``GET /follow?class=CODE``).

A hall opening the class's link at once must not start a Streamlit session per phone (its front
end, its WebSocket, the lesson's script run for each: 3.6 MB and 8-9 ms of the server's CPU a
join, bench/README.md). Everything a following student does already runs in the page, so this
page is the stepper's and the strip's modules with a small one of its own
(ui/follower_assets/follow.js), served beside Streamlit's routes as the class routes are
(app.py passes :func:`routes` to ``st.App``):

``GET /follow``
    A small static HTML page (``Cache-Control: no-cache`` and an ETag: a browser asks again
    each time, and is answered 304 while it has it). It reads its class from its own address
    (``class=CODE``, and ``ticket=``, a join ticket, when the link carries one).
``GET /follow/static/NAME.HASH.EXT``
    Its style, its one script (the stepper's modules, the strip's and its own, joined by
    ui/js_modules.py) and Plotly's cartesian bundle, each under a name that holds a hash of its
    bytes, gzipped, ``Cache-Control: public, max-age=31536000, immutable``: a new release has
    new names, a browser and nginx keep each file for good.

The page then reads the class (``GET /class/CODE``), its view's run (``GET /class/run/DIGEST``,
which the lecturer's page kept: classroom/http.py), and follows the class's stream, as the
full app's strip does. "Open the full app" is the class's link of the full app
(``/?class=CODE``), for a student who wants the lesson's settings.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from classroom import limits
from classroom.http import NO_STORE, error, gzipped_response
from ui import js_modules
from ui.classroom.assets import ASSETS as STRIP_ASSETS
from ui.classroom.assets import JS_MODULES as STRIP_MODULES
from ui.classroom.assets import module_path as strip_module
from ui.stepper.assets import JS_LAYERS, JS_MODULES, module_path, style
from ui.stepper.files import PLOTLY_GZ
from viz import palette

ASSETS = Path(__file__).parents[1] / "follower_assets"
PAGE = "/follow"
STATIC = "/follow/static"


@dataclass(frozen=True)
class Asset:
    """One of the page's files: its hashed name, its bytes gzipped, its media type."""

    name: str
    body: bytes
    media_type: str
    etag: str


def _asset(stem: str, ext: str, whole: bytes, media_type: str, zipped: bytes | None = None
           ) -> Asset:
    digest = hashlib.sha256(whole).hexdigest()[:16]
    body = zipped if zipped is not None else gzip.compress(whole, 9, mtime=0)
    return Asset(f"{stem}.{digest}.{ext}", body, media_type, digest)


def _scope(name: str, paths: list[Path]) -> str:
    """Modules joined (ui/js_modules.py) in a scope of their own, their default export given
    the name ``name``: the stepper's and the strip's modules share no names, each sees its own."""
    text = js_modules.join(paths).replace("export default function", f"const {name} = function",
                                          1)
    return f"const {name}Scoped = (() => {{\n{text}\nreturn {name};\n}})();\n"


def script() -> str:
    """The page's one script: the stepper (as the offline export mounts it), the strip (as the
    full app's strip component mounts it) and the page's own module, which follows the class."""
    stepper = js_modules.order(module_path(n) for n in (*JS_MODULES, *JS_LAYERS))
    strip = [strip_module(n) for n in STRIP_MODULES]
    own = js_modules.join([ASSETS / "follow.js"])
    lessons = _lessons()
    start = {"lessons": dict(lessons), "first": next(iter(lessons)),
             "silentMs": int(limits.SILENCE * 1000)}
    return ("// Perceptron Lab's follower page (ui/classroom/follower_page.py)\n"
            + _scope("mountStepper", stepper) + _scope("mountStrip", strip) + own
            + "\nfollow({ mountStepper: mountStepperScoped, mountStrip: mountStripScoped, "
            + f"...{json.dumps(start)} }});\n")


def _lessons() -> dict[str, str]:
    """Each lesson's title by its name (a view's ``lesson``), in the navigation's order."""
    import lessons

    return {name: title for name, (title, _icon) in lessons.LESSONS.items()}


def _colours() -> str:
    """The palette's colours the page takes from ui/theme.py's rules on the full app, light and
    dark."""
    pairs = {"--st-background-color": palette.PAGE, "--st-secondary-background-color":
             palette.WIDGET, "--st-text-color": palette.TEXT, "--st-primary-color": palette.PRIMARY,
             "--pl-mistake-text": palette.MISTAKE_TEXT, "--pl-on-primary": palette.ON_PRIMARY,
             "--pl-muted": palette.MUTED_TEXT}
    light = " ".join(f"{name}: {pair[0]};" for name, pair in pairs.items())
    dark = " ".join(f"{name}: {pair[1]};" for name, pair in pairs.items())
    return (f":root, .pl-stepper {{ {light} }}\n@media (prefers-color-scheme: dark) "
            f"{{ :root, .pl-stepper {{ {dark} }} }}\n")


def css() -> str:
    """The page's style: the stepper's, the strip's, the palette's colours and its own."""
    return "\n".join([style(), (STRIP_ASSETS / "classroom.css").read_text(), _colours(),
                      (ASSETS / "follow.css").read_text()])


HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Following a class · Perceptron Lab</title>
<link rel="icon" href="app/static/favicon.png">
<link rel="stylesheet" href="{css}">
<link rel="preload" as="script" href="{plotly}">
</head><body><main class="pl-follow">
<header class="pl-follow-head"><h1 id="pl-title">Following a class</h1>
<a id="pl-full" class="pl-button" href="./" aria-describedby="pl-full-says">Open the full
app</a></header>
<div id="pl-strip"></div>
<div id="pl-line" class="pl-follow-line" role="alert" hidden><span id="pl-line-words"></span>
<button id="pl-again" type="button" class="pl-button" hidden>Try again now</button></div>
<p id="pl-none" class="pl-follow-none" hidden>This view has no picture to step on this page
(its lesson draws it in the full app); the class's questions still come here.</p>
<div id="pl-stepper"></div>
<p id="pl-full-says" class="pl-follow-says">Open the full app for the whole lesson at the
class's view: its settings, its data and every part (a larger page, slower to open).</p>
<noscript><p>This page needs JavaScript: open the full app instead.</p></noscript>
</main>
<script id="pl-plotly" async src="{plotly}"></script>
<script type="module" async src="{js}"></script>
</body></html>
"""


@functools.cache
def assets() -> dict[str, Asset]:
    """The page's static files by their hashed names, and the page itself under ``""``."""
    files = [_asset("follow", "js", script().encode(), "text/javascript; charset=utf-8"),
             _asset("follow", "css", css().encode(), "text/css; charset=utf-8"),
             _asset("plotly", "js", gzip.decompress(PLOTLY_GZ.read_bytes()),
                    "text/javascript; charset=utf-8", PLOTLY_GZ.read_bytes())]
    js, style_, plotly = (f"follow/static/{a.name}" for a in files)
    page = HTML.format(css=style_, plotly=plotly, js=js).encode()
    return {"": _asset("follow", "html", page, "text/html; charset=utf-8"),
            **{a.name: a for a in files}}


async def page(request: Request) -> Response:
    """``GET /follow``: the page (revalidated each time: 304 while the browser has it)."""
    asset = assets()[""]
    response = gzipped_response(request, asset.body, asset.media_type, asset.etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


async def static(request: Request) -> Response:
    """``GET /follow/static/NAME``: one of the page's hashed files, for good."""
    asset = assets().get(request.path_params["name"]) if request.path_params["name"] else None
    if asset is None:
        return error(404, "no such file: reload the page")
    return gzipped_response(request, asset.body, asset.media_type, asset.etag)


def routes() -> list[Route]:
    """The follower page's routes, for ``st.App(routes=...)`` beside the class's."""
    return [Route(PAGE, page, methods=["GET"]),
            Route(f"{STATIC}/{{name}}", static, methods=["GET"])]


__all__ = ["NO_STORE", "PAGE", "STATIC", "assets", "css", "routes", "script"]
