"""Reading and driving the in-page stepper from Playwright (waits for states, never for time)."""

from __future__ import annotations

import json
import re

from streamlit.proto.BackMsg_pb2 import BackMsg

READY = """(root) => {
  const box = document.querySelector(root + ' .pl-stepper');
  const plot = box && box.querySelector('.pl-plane .js-plotly-plot');
  return Boolean(plot && plot._fullLayout && box.dataset.step !== undefined);
}"""


def ready(page, root: str = "") -> None:
    """Wait until the stepper has its run, its chart and has drawn a step."""
    page.wait_for_function(READY, arg=root)


def status(page, root: str = "") -> str:
    return page.locator(f"{root} .pl-status").first.inner_text()


def wait_status(page, prefix: str, root: str = "") -> None:
    """Wait until the status line starts with ``prefix`` (e.g. "Step 3 / 20")."""
    page.wait_for_function(
        """([root, prefix]) => (document.querySelector(root + ' .pl-status')?.textContent ?? '')
                              .startsWith(prefix)""", arg=[root, prefix])


def wait_url_step(page, k: int) -> None:
    """Wait until the address bar holds step=k (or no step at all for k = 0)."""
    if k:
        page.wait_for_function("(k) => new URLSearchParams(location.search).get('step') === k",
                               arg=str(k))
    else:
        page.wait_for_function("() => !new URLSearchParams(location.search).has('step')")


def step_of(page, root: str = "") -> int:
    return int(re.match(r"Step (\d+) /", status(page, root)).group(1))


def numbers(page, root: str = "") -> list[str]:
    """Every number of the step's maths, in order, as written (minus signs as '-')."""
    return [t.replace("\u2212", "-") for t in
            page.locator(f"{root} .pl-explain mn:not(.pl-sub)").all_text_contents()]


# the companion's boundary on the run's plane (layers/companion.js; its margins are dashed)
COMPANION = "line.pl-companion-line:not([stroke-dasharray])"


def boundary(page, root: str = "", line: str = "line.pl-boundary") -> dict | None:
    """The overlay's boundary line (or the ``line`` named) in data coordinates (through the
    chart's axes), or None; once the run's has come to rest (a step glides it to its place)."""
    page.wait_for_function("""(root) => !document.querySelector(
      root + ' .pl-stepper .pl-plane .pl-overlay[data-gliding]')""", arg=root)
    return page.evaluate("""([root, selector]) => {
      const box = document.querySelector(root + ' .pl-stepper');
      const line = box.querySelector('.pl-plane .pl-overlay ' + selector);
      if (!line || line.getAttribute('visibility') === 'hidden') return null;
      const L = box.querySelector('.pl-plane .js-plotly-plot')._fullLayout;
      const x = (p) => L.xaxis.p2l(p - L.xaxis._offset);
      const y = (p) => L.yaxis.p2l(p - L.yaxis._offset);
      const a = (n) => Number(line.getAttribute(n));
      return {x1: x(a('x1')), y1: y(a('y1')), x2: x(a('x2')), y2: y(a('y2'))};
    }""", [root, line])


def reported_steps(payloads: list[bytes]) -> list[int]:
    """The k of every rerun a page asked for that reports a stepper position, in order.

    ``payloads`` are the WebSocket frames the page sent (Playwright's ``framesent``).
    """
    found = []
    for payload in payloads:
        message = BackMsg()
        message.ParseFromString(payload)
        if message.WhichOneof("type") != "rerun_script":
            continue
        for widget in message.rerun_script.widget_states.widgets:
            if widget.WhichOneof("value") == "json_value" and '"k"' in widget.json_value:
                value = json.loads(widget.json_value)
                found.append(value.get("position", value).get("k"))
    return found
