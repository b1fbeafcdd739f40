"""Waiting on the app in a browser, as the journeys (tests/browser/), the screenshots
(scripts/screenshots.py) and the browser benchmarks (bench/) do: for the script to be idle,
for a page drawn and still, each wait stretched on a loaded machine."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"  # screenshots and logs of a run (git-ignored)


def _slowness() -> float:
    """How many times longer than on an idle machine to wait for the browser.

    BROWSER_SLOWNESS when set; otherwise the load per core, between 1 and 6: the load when
    the tests start or, when more, the run's own (each worker keeps about a core busy: its
    Chromium, its server and itself), so that 3 workers on 2 cores wait 1.5 times as long
    and a 2-core machine already running 8 jobs waits 4 times as long.
    """
    if os.environ.get("BROWSER_SLOWNESS"):
        return max(1.0, float(os.environ["BROWSER_SLOWNESS"]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return min(6.0, max(1.0, max(load, workers) / (os.cpu_count() or 1)))


SLOWNESS = _slowness()


def timeout_ms(ms: float) -> int:
    """A wait of ``ms`` on an idle machine, stretched for this one (see _slowness)."""
    return int(ms * SLOWNESS)


def wait_idle(tab) -> None:
    """Wait until the app has drawn, the script is no longer running and no more of the page
    is on its way (a projector's first run ends at its picture: ui.rest_later)."""
    tab.wait_for_selector('[data-testid="stApp"]')
    tab.wait_for_selector('[data-testid="stMainBlockContainer"]')
    tab.wait_for_function(
        """() => document.querySelector('[data-testid="stApp"]')
                   ?.getAttribute('data-test-script-state') === 'notRunning'
                 && !document.querySelector('.pl-rest-pending')"""
    )
    tab.wait_for_timeout(150)


def settle(tab, ms: int = 400) -> None:
    """Give the app ``ms`` to take an input in, then wait until its script is idle again."""
    tab.wait_for_timeout(ms)
    wait_idle(tab)


# Drawn means: the script stopped, no element still waits for its code (Streamlit's skeleton),
# no more of the page is on its way (ui.rest_later), every chart (Streamlit's or ui/chart.py's)
# has its layout, every stepper a step.
DRAWN = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (!document.querySelector('[data-testid="stMainBlockContainer"]')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  if (document.querySelector('.pl-rest-pending')) return false;  // the page's rest is coming
  const drawn = (box) => Boolean(box.querySelector('.js-plotly-plot')?._fullLayout);
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"], .pl-page-chart')];
  const steppers = [...document.querySelectorAll('.pl-stepper')];
  return charts.every(drawn)
    && steppers.every((s) => s.dataset.step !== undefined && drawn(s.querySelector('.pl-plane')));
}"""


# What must hold still once drawn: each chart's size as Plotly laid it out (a resize refits it
# a moment later), each stepper's step, the page's height; and how many of the app's
# components have not run their code yet (the stepper and the class strip keep their state
# on their element as __pl... once they have).
LAYOUT = """() => [JSON.stringify([
  [...document.querySelectorAll('.js-plotly-plot')].map((gd) =>
    [gd._fullLayout?.width, gd._fullLayout?.height]),
  [...document.querySelectorAll('.pl-stepper')].map((s) => s.dataset.step),
  document.querySelector('[data-testid="stMain"]')?.scrollHeight, innerWidth, innerHeight]),
  [...document.querySelectorAll('[data-testid^="stBidiComponent"]')]
    .filter((box) => !Object.keys(box).some((name) => name.startsWith('__pl'))).length]"""


def wait_drawn(tab, *, quiet_ms: int = 500, mount_ms: int = 1500) -> None:
    """Wait until the page is drawn (see DRAWN) and its layout holds still for ``quiet_ms``
    (see LAYOUT), every component mounted; one that shows no sign of it is waited for
    ``mount_ms`` at most (a stepper mounts a moment after the script ends)."""
    seen, since, waited = None, 0, 0
    while since < quiet_ms:
        tab.wait_for_function(DRAWN)
        now, unmounted = tab.evaluate(LAYOUT)
        if unmounted and waited < mount_ms:
            since, waited = 0, waited + 250
        else:
            since = since + 250 if now == seen else 0
        seen = now
        tab.wait_for_timeout(250)
