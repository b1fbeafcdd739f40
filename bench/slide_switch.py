"""A lecture's next slide on the projector and on a following phone, against today's sidebar
switch, side by side on one server.

Run from the repository root::

    python -m bench.slide_switch              # 2 rounds of a plan of 6 slides
    python -m bench.slide_switch --rounds 3 --talk 5

One server (this tree's app, its settings); one Chromium holds a projector's tab (1280 x 720,
lecture mode) that leads a class and a phone's tab (390 x 844) that follows it. Every slide's
view has runs of 1,000 points, each on data of its own seed, so that its run is computed
when it is first opened (a lecture's first pass: nothing of it was opened before on this
server, which is warm otherwise: its imports done, a first lesson drawn).

Three ways from one view to the next, each timed from the key or the click to the next view's
picture painted (its plane's points drawn, the frame after): on the projector the picture on
screen (a prepared slide's frame shown at the key counts: plan.js's showPrepared), and apart
the page's own run of it drawn under that frame:

- **slide, prepared**: PageDown on a plan's slide, after the lecturer talked ``--talk``
  seconds on the slide before (while it showed, its page prepared the next: plan.js);
- **slide, unprepared**: the same plan with its preparing turned off (``window.plNoPrepare``),
  so each slide's run is computed after the key;
- **sidebar switch**: today's way, the lecturer's click on the next lesson in the sidebar's
  navigation (the data kept: shared settings), each lesson on new data (its seed).

The phones' time is from the projector's key to the phone's picture of the same slide: one
phone on the full app (``/?class=CODE``), one on the class's link, the follower page
(``/follow?class=CODE``), which draws the lecturer's run fetched by its digest.
"""

from __future__ import annotations

import argparse
import contextlib

from bench._server import (
    CHROMIUM_ARGS,
    machine,
    percentile,
    streamlit_server,
    system_chromium,
)
from bench.classroom import cpu_seconds
from testkit.class_journey import sidebar, start_class

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
# every slide a stepping view of 1,000 points (the lessons whose first picture is a run)
LESSONS = ["", "margin", "nonseparable", "variants", "svm", "margin"]
SVM = "part=Train+side+by+side"
# the page's main stepper's run and whether its points are painted (the frame after); with
# ``shown``, the run of the prepared slide shown over the page at the key (plan.js), if any
RUN = """(shown) => {
  const frame = shown && document.querySelector('iframe.pl-prepare-shown');
  const doc = shown ? frame?.contentDocument : document;
  const box = doc?.querySelector('[data-testid="stMain"] .pl-stepper:not(.pl-follower)')
    ?? doc?.querySelector('main.pl-follow .pl-stepper');  // the follower page's own
  let root = box;
  while (root && !root.__plStepper) root = root.parentElement;
  const s = root?.__plStepper;
  const drawn = box?.querySelector('.pl-plane .js-plotly-plot .scatterlayer .trace');
  return s?.run && drawn ? s.run.header.digest : null;
}"""
# from now on, each frame until the run on screen differs from ``old`` and its points are
# drawn: then the moment (performance.now()) kept as ``window.__plSeen[key]``, the page's own
# run, or (``shown``) the prepared slide's over it. Watched in each tab at once, so that a tab
# read after another still gives the frame it painted in, not the moment it was asked.
WATCH = """([key, old, shown]) => {
  const seen = (window.__plSeen ??= {});
  delete seen[key];
  const tick = () => {
    const now = (shown && (RUN)(true)) || (RUN)(false);
    if (now && now !== old) seen[key] = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}""".replace("RUN", RUN.strip())


def view(lesson: str, seed: int) -> str:
    data = f"data=separable-generator&dseed={seed}&n=1000"
    if lesson == "nonseparable":
        data = f"data=noisy-blobs-generator&dseed={seed}&n=1000"
    extra = f"&{SVM}" if lesson == "svm" else ""
    return f"{data}&lesson={lesson}{extra}" if lesson else data + extra


def plan_link(seed: int) -> str:
    from classroom import plan as plans

    slides = tuple(plans.Slide(view=view(lesson, seed + i), title=f"Slide {i + 1}")
                   for i, lesson in enumerate(LESSONS))
    return plans.to_link(plans.Plan(slides=slides))


def wait_still(tab) -> None:
    tab.wait_for_function("""() => document.querySelector('[data-testid="stApp"]')
        ?.getAttribute('data-test-script-state') === 'notRunning'
        && !document.querySelector('.pl-rest-pending')""", timeout=120_000)


def watch(tab, key: str, *, shown: bool = False) -> None:
    """Note the moment ``tab`` paints a run other than the one it shows now (see WATCH)."""
    tab.evaluate(WATCH, [key, tab.evaluate(RUN, False), shown])


def painted(tab, key: str, start: float) -> float:
    """ms from ``start`` (the tab's performance.now()) to the run watched as ``key`` painted."""
    return tab.wait_for_function(f"() => window.__plSeen?.[{key!r}] ?? false",
                                 timeout=120_000).json_value() - start


@contextlib.contextmanager
def lecture(browser, url: str, address: str, *, prepare: bool = True):
    """A projector's tab at ``address`` leading a class (without its preparing of the next
    slide unless ``prepare``), and a phone's tab following it."""
    projector_context = browser.new_context(viewport=PROJECTOR)
    if not prepare:
        projector_context.add_init_script("window.plNoPrepare = true;")
    phone_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    light_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        projector = projector_context.new_page()
        projector.set_default_timeout(120_000)
        projector.goto(f"{url}/{address}")
        wait_still(projector)
        code = start_class(projector)
        phone = phone_context.new_page()
        phone.set_default_timeout(120_000)
        phone.goto(f"{url}/?class={code}")
        wait_still(phone)
        light = light_context.new_page()  # the class's link: the follower page
        light.set_default_timeout(120_000)
        light.goto(f"{url}/follow?class={code}")
        light.wait_for_function(RUN, arg=False)
        yield projector, phone, light
    finally:
        projector_context.close()
        phone_context.close()
        light_context.close()


def switch(projector, phone, light, act, seen: dict, name: str, *,
           phone_may_miss: bool) -> None:
    """Time one switch, ``act()`` (the key or the click) on the projector: ms from it to the
    next picture painted on the projector and on the phone, noted in ``seen`` and said under
    ``name``; then the projector's run over. A phone that never draws it is noted as nan
    where ``phone_may_miss``, else it fails the run."""
    start = projector.evaluate("() => performance.now()")
    phone_start = phone.evaluate("() => performance.now()")
    light_start = light.evaluate("() => performance.now()")
    watch(projector, "shown", shown=True)
    watch(projector, "page")
    watch(phone, "page")
    watch(light, "page")
    act()
    seen["projector"].append(painted(projector, "shown", start))
    seen["page"].append(painted(projector, "page", start))
    try:
        seen["phone"].append(painted(phone, "page", phone_start))
    except Exception:  # a phone that never drew it: said (nan), not counted
        if not phone_may_miss:
            raise
        seen["phone"].append(float("nan"))
    try:
        seen["light"].append(painted(light, "page", light_start))
    except Exception:  # a view with no run to draw there (the page says so): not counted
        seen["light"].append(float("nan"))
    print(f"  {name}: projector {seen['projector'][-1]:,.0f} ms (its page's own run "
          f"{seen['page'][-1]:,.0f} ms), phone {seen['phone'][-1]:,.0f} ms, follower page "
          f"{seen['light'][-1]:,.0f} ms", flush=True)
    wait_still(projector)


def run_slides(browser, url: str, seed: int, talk: float, prepare: bool) -> dict:
    seen = {"projector": [], "page": [], "phone": [], "light": []}
    with lecture(browser, url, f"?lecture=1&plan={plan_link(seed)}", prepare=prepare) as (
            projector, phone, light):
        projector.locator('[data-testid="stMain"] h1').first.click()  # the page has the focus
        for slide in range(2, len(LESSONS) + 1):
            # the lecturer talks: until the page has prepared the next slide (at most ``talk``)
            if prepare:
                with contextlib.suppress(Exception):
                    projector.wait_for_function(  # (its picture drawn, ready to show)
                        "() => window.__plPlan?.ready && window.__plPlan.ready === "
                        "window.__plPlan.data?.next", timeout=talk * 1000)
            else:
                projector.wait_for_timeout(min(talk, 4) * 1000)
            switch(projector, phone, light, lambda: projector.keyboard.press("PageDown"), seen,
                   f"slide {slide}", phone_may_miss=False)
    return seen


def run_sidebar(browser, url: str, seed: int, talk: float) -> dict:
    seen = {"projector": [], "page": [], "phone": [], "light": []}
    titles = {"": "Step through", "margin": "Margin and the mistake bound",
              "nonseparable": "Non-separable data", "variants": "Variants",
              "svm": "Perceptron vs SVM"}
    with lecture(browser, url, f"?lecture=1&{view('', seed)}") as (projector, phone, light):
        # (the SVM's first part, Losses, steps no run: a slide picks its Train side by side)
        for lesson in [name for name in LESSONS[1:] if name != "svm"]:
            # the lecturer talks 4 s, then opens the sidebar and clicks the next lesson: the
            # data stays (shared settings), each lesson's run on it new to the server
            projector.wait_for_timeout(min(talk, 4) * 1000)
            nav = sidebar(projector).get_by_test_id("stSidebarNav")
            link = nav.get_by_role("link", name=titles[lesson])
            switch(projector, phone, light, link.click, seen, lesson, phone_may_miss=True)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--talk", type=float, default=60.0,
                        help="seconds at most on a slide before the next key (a prepared "
                             "slide's key is pressed once the page says it is prepared; the "
                             "other ways wait 4 s)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(machine())
    ways = {"slide, prepared": [], "slide, unprepared": [], "sidebar switch": []}
    cpu = {name: [] for name in ways}
    with contextlib.ExitStack() as stack:
        url, process = stack.enter_context(streamlit_server(name="slide-switch"))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        warm = browser.new_page(viewport=PROJECTOR)  # the server warm: imports, a first page
        warm.goto(f"{url}/?lecture=1")
        wait_still(warm)
        warm.close()
        seed = 100
        for _ in range(args.rounds):
            for name in ways:
                print(name, flush=True)
                before = cpu_seconds([process.pid])
                if name == "sidebar switch":
                    seen = run_sidebar(browser, url, seed, args.talk)
                else:
                    seen = run_slides(browser, url, seed, args.talk, name == "slide, prepared")
                cpu[name].append(cpu_seconds([process.pid]) - before)
                ways[name].append(seen)
                seed += 10  # every view of every way new to the server
        browser.close()
    print(f"\n{args.rounds} rounds of {len(LESSONS) - 1} switches, {args.talk:.0f} s on each "
          "view before the next; ms from the key (click) to the next picture painted")
    print("| way | projector p50 | projector p95 | its page's own run p50 · p95 | phone p50 "
          "| phone p95 | follower page p50 · p95 | server CPU s a switch |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, rounds in ways.items():
        projector = [ms for r in rounds for ms in r["projector"]]
        page = [ms for r in rounds for ms in r["page"]]
        phone = [ms for r in rounds for ms in r["phone"] if ms == ms]  # (nan: never drawn)
        light = [ms for r in rounds for ms in r["light"] if ms == ms]
        per = sum(cpu[name]) / max(1, len(projector))
        print(f"| {name} | {percentile(projector, 50):,.0f} | {percentile(projector, 95):,.0f} "
              f"| {percentile(page, 50):,.0f} · {percentile(page, 95):,.0f} "
              f"| {percentile(phone, 50):,.0f} | {percentile(phone, 95):,.0f} "
              f"| {percentile(light, 50):,.0f} · {percentile(light, 95):,.0f} | {per:.2f} |")


if __name__ == "__main__":
    main()
