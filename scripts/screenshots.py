"""Screenshots of every lesson as a projector shows it, for the README (docs/screenshots).

    python scripts/screenshots.py                  # every lesson, 1280x720, lecture mode
    python scripts/screenshots.py --size 1024x768 --out /tmp/shots --all-parts
    python scripts/screenshots.py --device phone --no-lecture   # step_through_phone.png, ...
    python scripts/screenshots.py --dark --only step_through     # step_through_dark.png

Starts its own Streamlit server on a free port and a headless Chromium (the
browser tests' one), opens each lesson's link with ?lecture=1, waits until
every chart is drawn, and saves one PNG per lesson (of the first screen, or of
the whole page with --full-page). Everything it starts, it stops.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._server import streamlit_server  # noqa: E402
from lessons import svm, variants  # noqa: E402
from tests.browser.chromium import CHROMIUM_ARGS, system_chromium  # noqa: E402

# (file name, link after the server's address): one per lesson for the README, then the
# parts a lecture also shows (every part is checked by tests/browser/test_screens.py).
NOTES = "data=lecture-notes-example-4-points&init=typed&w1=0.2&b=-0.1&eta=0.1"
LESSONS = [
    ("step_through", f"/?{NOTES}&step=2"),
    ("margin", f"/margin?{NOTES}&step=3"),
    ("boolean", "/boolean"),
    ("nonseparable", "/nonseparable?data=xor-0-1&step=4"),
    ("svm", "/svm?part=Train+side+by+side&data=lecture-notes-example-4-points&step=2"),
    ("variants", "/variants?part=kernel&kernel=rbf&data=moons-generator"),
    ("your_data", "/your_data?pts=1,1,%2B;2,2.5,%2B;-1,-1,-;-2,0.5,-"),
]
PARTS = [
    *((f"svm_{part.lower().replace(' ', '_')}", f"/svm?part={part.replace(' ', '+')}")
      for part in svm.PARTS.names),
    *((f"variants_{part}", f"/variants?part={part}") for part in variants.PARTS.names),
    ("nonseparable_iris", "/nonseparable?data=iris-versicolor-vs-virginica"),
]

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


# A phone and a tablet (upright and on its side) as the README shows them: their windows,
# with a touch screen.
DEVICES = {"phone": (390, 844), "tablet": (768, 1024), "landscape": (1024, 768)}


def shoot(views, out: Path, *, width: int, height: int, lecture: bool, full_page: bool,
          touch: bool = False, suffix: str = "", dark: bool = False) -> None:
    """Open each view in a fresh session and save ``out/<name><suffix>.png``."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with streamlit_server(name="screenshots") as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        try:
            for name, link in views:
                context = browser.new_context(viewport={"width": width, "height": height},
                                              has_touch=touch, is_mobile=touch,
                                              color_scheme="dark" if dark else "light")
                tab = context.new_page()
                tab.set_default_timeout(120_000)
                joiner = "&" if "?" in link else "?"
                tab.goto(url + link + (f"{joiner}lecture=1" if lecture else ""))
                wait_drawn(tab)
                tab.screenshot(path=out / f"{name}{suffix}.png", full_page=full_page)
                print(out / f"{name}{suffix}.png")
                context.close()
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT of the window")
    parser.add_argument("--no-lecture", action="store_true", help="without ?lecture=1")
    parser.add_argument("--all-parts", action="store_true", help="every part, not one a lesson")
    parser.add_argument("--full-page", action="store_true", help="the whole page, not one screen")
    parser.add_argument("--only", nargs="*", help="only these names")
    parser.add_argument("--device", choices=list(DEVICES),
                        help="a phone's or a tablet's window with a touch screen (not --size); "
                             "the files are named <lesson>_<device>.png")
    parser.add_argument("--dark", action="store_true",
                        help="the browser asks for the dark theme; the files end in _dark.png")
    args = parser.parse_args()
    width, height = DEVICES.get(args.device) or (int(v) for v in args.size.lower().split("x"))
    views = LESSONS + (PARTS if args.all_parts else [])
    if args.only:
        views = [view for view in views if view[0] in args.only]
    shoot(views, args.out, width=width, height=height, lecture=not args.no_lecture,
          full_page=args.full_page, touch=args.device is not None,
          suffix=(f"_{args.device}" if args.device else "") + ("_dark" if args.dark else ""),
          dark=args.dark)


if __name__ == "__main__":
    main()
