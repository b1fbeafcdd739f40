"""The stepper's JavaScript modules run in headless Chromium, each tested on its own.

No Streamlit server: a page at a made-up origin, answered by Playwright itself, runs the
script the component runs (ui.stepper.script) with everything its modules export gathered
in ``window.pl``, and the tests call them with ``page.evaluate``. Chromium is the
suite's own (tests/browser/conftest.py's ``browser``): where it is missing these tests
fail, they are never skipped.
"""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

from ui.stepper import JS_FILES, PLOTLY_WHOLE, PLOTLY_WHOLE_NAME, module_path, plotly_js, script

ORIGIN = "http://stepper.test"
# fit.js FOOT_GAP_PX: a chart that follows the window ends this far above its foot
GAP = 4
EXPORTED = re.compile(r"^export (?:async )?(?:function|class|const|let) (\w+)", re.M)
# what the tests pass in and get back: typed arrays as base64 of their bytes, so that every
# double (NaN, -0, infinities) crosses exactly
HELPERS = """
window.pl.bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
window.pl.floats = (text) => new Float64Array(window.pl.bytes(text).buffer);
window.pl.base64 = (array) => {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
};
"""


def exported() -> list[str]:
    """Every name the page's modules export, in their order."""
    return [name for module in JS_FILES
            for name in EXPORTED.findall(module_path(module).read_text())]


def page_script() -> str:
    """The stepper's script as a page runs it outside Streamlit (as the offline export does),
    then the chart's module (ui/chart.py), with their exports, and the stepper's default export
    as ``mountStepper``, in ``window.pl``."""
    module = script(JS_FILES).replace("export default function", "const mountStepper = function", 1)
    names = ", ".join(["mountStepper", *exported()])
    return f"{module}\nwindow.pl = {{ {names} }};\n{HELPERS}"


def origin(plotly_status=lambda: 200, served: list | None = None):
    """The made-up origin's answers: Plotly where the component looks for it (with the status
    ``plotly_status()`` gives each request, its URL noted in ``served``), the whole bundle
    (noted too), else an empty page."""
    def answer(route) -> None:
        if route.request.url.endswith(f"/{PLOTLY_WHOLE_NAME}"):
            if served is not None:
                served.append(route.request.url)
            route.fulfill(body=PLOTLY_WHOLE.read_bytes(), content_type="text/javascript")
        elif route.request.url.endswith("/plotly.min.js"):
            if served is not None:
                served.append(route.request.url)
            status = plotly_status()
            if status == 200:
                route.fulfill(body=plotly_js(), content_type="text/javascript")
            else:
                route.fulfill(status=status, body="")
        else:
            route.fulfill(body="<!doctype html><html lang='en'><body></body></html>",
                          content_type="text/html")
    return answer


_answer = origin()


def open_page(browser, answer=_answer):
    """A new page at the made-up origin with the modules loaded (``page.errors``: what was
    thrown in it); close its ``context`` when done."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(error))
    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/")
    page.add_script_tag(content=page_script(), type="module")
    page.wait_for_function("() => window.pl !== undefined && window.pl.base64 !== undefined")
    return page


@pytest.fixture(scope="module")
def js(browser):
    """A page with the stepper's modules loaded; fails a test whose code raised in the page."""
    page = open_page(browser)
    yield page
    page.context.close()


@pytest.fixture
def page(browser):
    """A fresh page with the stepper's modules, for a test that mounts a stepper of its own;
    fails the test if anything raised in it. (The class's modules' tests define their own.)"""
    page = open_page(browser)
    yield page
    assert not page.errors
    page.context.close()


@pytest.fixture(autouse=True)
def _no_page_errors(request):
    """Every test of a module leaves no uncaught error in the page."""
    yield
    if "js" in request.fixturenames:
        page = request.getfixturevalue("js")
        errors, page.errors[:] = list(page.errors), []
        assert not errors, errors


def floats(values) -> str:
    """Doubles for ``pl.floats`` (base64 of their bytes)."""
    return base64.b64encode(np.asarray(values, dtype=np.float64).tobytes()).decode()


def from_floats(text: str) -> np.ndarray:
    """Doubles from ``pl.base64`` of a Float64Array."""
    return np.frombuffer(base64.b64decode(text), dtype=np.float64)


def open_class_page(browser):
    """A new page at the made-up origin with the class strip's modules (ui/classroom/), every
    export in ``window.cls``; close its ``context`` when done."""
    from ui.classroom import JS_MODULES as CLASS_MODULES
    from ui.classroom import module_path as class_module
    from ui.classroom import script as class_script

    context = browser.new_context()
    page = context.new_page()
    page.route(f"{ORIGIN}/**", _answer)
    page.goto(f"{ORIGIN}/")
    names = [name for module in CLASS_MODULES
             for name in EXPORTED.findall(class_module(module).read_text())]
    module = class_script().replace("export default function", "const mountStrip = function", 1)
    page.add_script_tag(content=f"{module}\nwindow.cls = {{ {', '.join(names)} }};",
                        type="module")
    page.wait_for_function("() => window.cls !== undefined")
    return page
