"""Helpers for driving the app's pages with Streamlit's AppTest (no browser)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

# what the benchmarks share with these (bench/), here for the page tests too
from testkit.apptest import components, stepper_element, steppers, switch  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]


def open_app(page: str | None = None, *, timeout: float = 60) -> AppTest:
    """Run app.py (optionally switched to the lesson ``page``) and check it drew cleanly."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.run()
    if page is not None:
        switch(at, page).run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception reached the page."""
    assert not at.exception, [e.value for e in at.exception]


def by_key(elements, key: str):
    """The element with this widget key from an element list."""
    for element in elements:
        if element.key == key:
            return element
    raise KeyError(f"no widget with key {key!r}; have {[e.key for e in elements]}")


def metrics(at: AppTest) -> dict[str, str]:
    """The metrics on the page by label."""
    return {m.label: m.value for m in at.metric}


def latex(at: AppTest) -> str:
    """All LaTeX on the page, joined."""
    return "\n".join(element.value for element in at.latex)


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    """Upload a file through the sidebar picker and rerun."""
    at.file_uploader[0].set_value((name, content, "text/csv"))
    return at.run()


def click(at: AppTest, key: str) -> AppTest:
    """Press the button with this widget key, rerun, and check the page drew cleanly."""
    by_key(at.button, key).click()
    at.run()
    assert_clean(at)
    return at


def position(at: AppTest) -> int:
    """The step the step controls are at, read from the "Step t" metric ("3 / 20" -> 3)."""
    return int(metrics(at)["Step t"].split("/")[0])


def chart_elements(at: AppTest) -> list[tuple[str, dict, str]]:
    """Every chart on the page in page order, as (widget id, the figure's JSON, alt text):
    those ui/chart.py sent to the page's Plotly and those ``st.plotly_chart`` drew."""
    from ui.chart import COMPONENT

    found = []
    for node in at._tree:
        if node.type == "plotly_chart":
            found.append((node.proto.id, json.loads(node.proto.spec), node.proto.alt))
        elif node.type == "bidi_component" and node.proto.component_name == COMPONENT:
            sent = json.loads(node.proto.bytes)
            found.append((node.proto.id, sent["figure"], sent["alt"]))
    return found


def whole_bundle_charts(at: AppTest) -> list[str]:
    """The widget ids of the charts sent to the page's chart component for the whole Plotly
    bundle (3-D ones: ui/chart.py's ``whole``), in page order."""
    from ui.chart import COMPONENT

    return [node.proto.id for node in at._tree if node.type == "bidi_component"
            and node.proto.component_name == COMPONENT
            and json.loads(node.proto.bytes)["whole"]]


def charts(at: AppTest) -> list[dict]:
    """Every Plotly figure on the page, as JSON, in page order."""
    return [figure for _, figure, _ in chart_elements(at)]


def chart(at: AppTest, key: str) -> dict:
    """The Plotly figure drawn with this widget key, as JSON."""
    for widget, figure, _ in chart_elements(at):
        if widget.endswith(f"-{key}"):
            return figure
    raise KeyError(key)


def plotly_array(value) -> np.ndarray:
    """A data array from a figure's JSON, as NumPy.

    Plotly 7 sends numeric arrays as base64 ``bdata`` with a ``dtype`` (and,
    for a 2-D array, a ``shape`` written as text, "12, 12"); anything else
    (a plain list, None) goes through ``np.asarray`` as it is.
    """
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
        return array
    return np.asarray(value)


def stepper_run(at: AppTest, key: str):
    """The run a stepper sent to the browser: (header, columns), as the page's JS reads it."""
    from tests.reference.wire import unpack

    return unpack(stepper_element(at, key).proto.bytes)


def sync(at: AppTest, key: str, k: int, *, run: str | None = None) -> AppTest:
    """Report position k from the browser, as the stepper does after the student stops."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    header, _ = stepper_run(at, key)
    states = at._tree.get_widget_states()
    state = WidgetState(id=stepper_element(at, key).proto.id,
                        json_value=json.dumps({"position": {"run": run or header["run"],
                                                            "k": k}}))
    states.widgets.append(state)
    at._run(states)
    assert_clean(at)
    return at


def trigger(at: AppTest, node, event: str, value) -> AppTest:
    """Send a component's one-shot event from the browser (its JS's setTriggerValue): the whole
    page runs again, the event's callback first."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(
        id=_make_trigger_id(node.proto.id, "events"),
        json_trigger_value=json.dumps([{"event": event, "value": value}])))
    at._run(states)
    assert_clean(at)
    return at


def shown(markdown: str) -> str:
    """Markdown source as the reader sees it: escapes and the empty directives removed."""
    import re

    from ui.outside import NO_LINK

    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown.replace(NO_LINK, ""))
