"""ui/lecture_plan_assets/plan.js: a clicker's keys through a lecture (each slide's steps, then
the next slide, as reveal.js goes through fragments), the slide bar's words as literal text,
and the keys a field keeps."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.lecture_plan import JS_PATHS, script

pytestmark = pytest.mark.browser

EXPORTED = re.compile(r"^export (?:function|class|const|let) (\w+)", re.M)


@pytest.fixture(scope="module")
def plan_page(browser):
    # the component's script (plan.js after the modules it uses), every export in window.plan
    exports = [name for path in JS_PATHS for name in EXPORTED.findall(path.read_text())]
    names = ", ".join(["mount", *exports])
    module = script().replace("export default function", "const mount = function", 1)
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=f"{module}\nwindow.plan = {{ {names} }};", type="module")
    page.wait_for_function("() => Boolean(window.plan)")
    yield page
    context.close()


def visits(slides: list[tuple[int, tuple[int, int] | None]]) -> list[tuple[int, int]]:
    """The (slide, step) a lecture shows, in order, pressing forward only: each slide opens at
    its step, then steps to the end of its range (the reference: a plain enumeration)."""
    out = []
    for i, (step, steps) in enumerate(slides):
        if steps is None:
            out.append((i, step))
        else:
            out.extend((i, k) for k in range(step, steps[1] + 1))
    return out


WALK = """([slides, K, way, start]) => {
  // a lecture given with one key: the stepper moves by the step/back decisions, a slide opens
  // at its step on "go"; every position shown, in order
  let [at, k] = start;
  const seen = [[at, k]];
  for (let n = 0; n < 1000; n += 1) {
    const [step, steps] = slides[at];
    const move = plan.decide(way, { at, count: slides.length, steps }, { k, K });
    if (!move) break;
    if (move.step === "step") k += 1;
    else if (move.step === "back") k -= 1;
    else { at = move.go; k = slides[at][0]; }
    seen.push([at, k]);
  }
  return seen;
}"""

SLIDES = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 6)).map(
        lambda p: (p[0], None) if p[1] == 0 else (p[0], (p[0], p[0] + p[1]))),
    min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(slides=SLIDES)
def test_forward_goes_through_every_slides_steps_then_the_next(plan_page, slides):
    seen = plan_page.evaluate(WALK, [[[s, list(r) if r else None] for s, r in slides], 50,
                                     "forward", [0, slides[0][0]]])
    assert [tuple(p) for p in seen] == visits(slides)


@settings(max_examples=40, deadline=None)
@given(slides=SLIDES)
def test_back_from_the_end_steps_down_then_opens_each_slide_before(plan_page, slides):
    last = len(slides) - 1
    end = slides[last][1][1] if slides[last][1] else slides[last][0]
    seen = plan_page.evaluate(WALK, [[[s, list(r) if r else None] for s, r in slides], 50,
                                     "back", [last, end]])
    # back steps the last slide's range down to its first step, then each slide before opens
    # at its own step (as a slide is opened: at its step)
    tail = [(last, k) for k in range(end, slides[last][0] - 1, -1)]
    expected = tail + [(i, slides[i][0]) for i in range(last - 1, -1, -1)]
    assert [tuple(p) for p in seen] == expected


def test_a_range_past_the_runs_end_stops_at_the_end(plan_page):
    move = plan_page.evaluate(
        "() => plan.decide('forward', {at: 0, count: 2, steps: [0, 40]}, {k: 20, K: 20})")
    assert move == {"go": 1}


KEYS = """([key, target]) => {
  document.body.replaceChildren();
  const field = document.createElement(target);
  document.body.append(field);
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
  let got = null;
  field.addEventListener("keydown", (e) => { got = plan.clickerKey(e); });
  field.dispatchEvent(event);
  return got;
}"""


@pytest.mark.parametrize(("key", "target", "way"), [
    ("PageDown", "div", "forward"), (".", "div", "forward"), ("PageUp", "div", "back"),
    ("b", "div", "back"), ("ArrowRight", "div", None), ("n", "div", None),
    ("PageDown", "textarea", None), ("b", "input", None),
])
def test_the_clickers_keys_and_a_fields_own(plan_page, key, target, way):
    assert plan_page.evaluate(KEYS, [key, target]) == way


MOUNT = """(data) => {
  document.body.replaceChildren();
  const sent = [];
  plan.mount({ data, setTriggerValue: (name, value) => sent.push([name, value]),
               setStateValue: () => {} });
  const bar = document.querySelector(".pl-slide-bar");
  document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "PageDown", bubbles: true,
                                                             cancelable: true }));
  return { text: bar.querySelector(".pl-slide-text").textContent,
           html: bar.innerHTML, notes: bar.querySelector(".pl-slide-notes").textContent,
           sent };
}"""


def test_the_bar_says_the_slide_and_its_title_as_written(plan_page):
    title = "<b>XOR</b> [x](https://evil.example) :red[no]"
    got = plan_page.evaluate(MOUNT, {"at": 3, "count": 12, "title": title, "notes": "<i>n</i>",
                                     "steps": None, "mode": "laptop", "run": 1, "next": None})
    assert got["text"] == f"slide 4 / 12 \u00b7 {title}"
    assert got["notes"] == "<i>n</i>"
    assert "<b>" not in got["html"] and "<i>" not in got["html"]  # text, never markup
    # PageDown with no stepper on the page: the next slide
    assert [name for name, _ in got["sent"]] == ["go"]
    assert got["sent"][0][1]["slide"] == 4
