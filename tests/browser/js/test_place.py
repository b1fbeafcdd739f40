"""place.js: where a stepper stands (the place fit.js sizes its plane by), measured from the
page: the window's height less a lecture's slide bar, the box's width and top, a phone's
plane that never grows taller than its box; and a stepper with no run yet fits nothing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# a stand-in stepper in a box of the given width, its run in lecture mode or not, a slide bar
# of the given height (0: none) at the window's foot; its place, and the page's classes
PLACE = """([width, lecture, bar, constrain]) => {
  document.body.replaceChildren();
  document.documentElement.className = "";
  const box = pl.html("div", { class: "pl-stepper" }, document.body);
  box.style.width = `${width}px`;
  pl.html("div", { style: "height: 37px" }, box);
  const planeHost = pl.html("div", { class: "pl-plane" }, box);
  if (bar) pl.html("nav", { class: "pl-slide-bar", style: `height: ${bar}px` }, document.body);
  const arranged = [];
  const s = { run: { header: { lecture, figure: { layout: { yaxis: { constrain } } } } },
              pair: false, ui: { box, planeHost },
              view: () => ({ k: 0 }), each: (hook, view) => arranged.push([hook, view.k]) };
  const place = pl.placeOf(s);
  return { place, arranged, classes: document.documentElement.className.split(" ").sort(),
           wide: box.classList.contains("pl-wide"), top: planeHost.getBoundingClientRect().top
             + window.scrollY, innerHeight: window.innerHeight };
}"""


@pytest.mark.parametrize("bar", [0, 57])
def test_the_window_under_a_lectures_slide_bar_is_what_the_plane_fills(js, bar):
    got = js.evaluate(PLACE, [900, True, bar, "range"])
    place = got["place"]
    assert place["windowHeight"] == got["innerHeight"] - bar
    assert place["lecture"] is True and place["width"] == 900
    assert place["top"] == pytest.approx(got["top"], abs=1)
    assert got["arranged"] == [["arrange", 0]]  # the layers are placed first


def test_a_wide_window_lays_one_run_out_as_a_projector_and_marks_the_page(js):
    js.set_viewport_size({"width": 1280, "height": 800})
    wide = js.evaluate(PLACE, [1200, False, 0, "range"])
    narrow = js.evaluate(PLACE, [600, False, 0, "range"])
    assert wide["place"]["wide"] is True and wide["wide"] is True
    assert {"pl-wide-page", "pl-wide-one"} <= set(wide["classes"])
    assert narrow["place"]["wide"] is False and narrow["wide"] is False
    assert not {"pl-wide-page", "pl-wide-one"} & set(narrow["classes"])


@pytest.mark.parametrize(("width", "constrain", "tall"), [
    (1280, "range", True), (1280, "domain", False), (390, "range", False)])
def test_a_plot_may_grow_taller_than_its_box_but_not_on_a_phone(js, width, constrain, tall):
    js.set_viewport_size({"width": width, "height": 800})
    got = js.evaluate(PLACE, [min(width, 900), False, 0, constrain])
    assert got["place"]["tall"] is tall and got["place"]["narrow"] is (width <= 640)
    js.set_viewport_size({"width": 1280, "height": 800})


def test_a_stepper_with_no_run_yet_fits_nothing(js):
    assert js.evaluate("() => pl.refit({ run: null }) === undefined")
