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

from lessons import svm, variants  # noqa: E402
from testkit.browser import wait_drawn  # noqa: E402
from testkit.chromium import CHROMIUM_ARGS, system_chromium  # noqa: E402
from testkit.servers import streamlit_server  # noqa: E402

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
