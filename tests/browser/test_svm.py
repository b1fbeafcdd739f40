"""Journeys through the perceptron-versus-SVM lesson in a real headless Chromium."""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    ARTIFACTS,
    CHARTS,
    assert_no_exception,
    legend_names,
    page_errors,
    settle,
)

pytestmark = pytest.mark.browser

LABEL = ".slider-group > text.slider-label"


def open_lesson(page, data: str | None = None) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text("Perceptron vs SVM").click()
    settle(page)
    assert page.get_by_role("heading", name="Perceptron vs SVM").count() == 1
    if data:
        page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name=data).click()
        settle(page)


def part(page, name: str) -> None:
    page.get_by_test_id("stMain").get_by_text(name, exact=True).first.click()
    settle(page)


def test_losses_and_soft_margin_render(page):
    open_lesson(page, "Noisy blobs (generator)")
    chart = page.locator(CHARTS).first
    chart.locator(".js-plotly-plot").wait_for()
    names = legend_names(chart)
    assert "hinge max(0, 1 − z)" in names and "perceptron max(0, −z)" in names
    assert "logistic log₂(1 + e^−z)" in names
    page.get_by_test_id("stMain").get_by_text("log base e", exact=True).click()
    settle(page)
    assert "logistic ln(1 + e^−z)" in legend_names(page.locator(CHARTS).first)
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_losses.png")

    part(page, "Soft margin")
    charts = page.locator(CHARTS)
    assert charts.count() == 3
    assert "slack ξₙ (to its margin line)" in legend_names(charts.first)
    assert "Not separable" in page.get_by_test_id("stMain").inner_text()
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_soft_margin.png")
    assert_no_exception(page)


def test_one_stepper_moves_both_runs_and_plays_them(page):
    page.set_viewport_size({"width": 1400, "height": 1700})  # both runs and their maths at once
    open_lesson(page, "Separable (generator)")
    part(page, "Train side by side")
    lead, follow = ".pl-stepper >> nth=0", ".pl-stepper >> nth=1"
    page.wait_for_function("() => [...document.querySelectorAll('.pl-plane .js-plotly-plot')]"
                           ".filter((gd) => gd._fullLayout).length === 2")
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # the perceptron's stepper owns the keys
    page.wait_for_function("""() => [...document.querySelectorAll('.pl-status')].every(
        (s) => s.textContent.startsWith('Step 3 / '))""")
    statuses = page.locator(".pl-status").all_inner_texts()
    assert "mistake" in statuses[0] and "margin violation" in statuses[1]
    assert page.locator(lead).locator(".pl-controls").is_visible()
    assert not page.locator(follow).locator(".pl-controls").is_visible()  # one set of controls
    # beside each other, the runs' maths leave the step and the epoch to the status lines
    # step 3 visits the third example, counted from 1 as the notes count
    assert "Example 3 x = " in page.locator(lead).locator(".pl-explain").inner_text()
    # the SVM's own margin lines w·x + b = ±1 are drawn over its chart
    assert page.locator(follow).locator(".pl-overlay line.pl-boundary").count() == 4
    names = legend_names(page.locator(follow).locator(".js-plotly-plot"))
    assert "maximum-marginboundary" in names  # on two lines, beside the plot
    assert "Example 3 x = " in page.locator(follow).locator(".pl-explain").inner_text()
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_step.png")

    page.get_by_label("Play speed (steps per second)").first.select_option("30")
    controls = page.locator(lead).locator(".pl-controls")
    controls.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("""() => [...document.querySelectorAll('.pl-stepper')].every(
        (s) => Number(s.dataset.step) >= 20)""")
    controls.get_by_role("button", name="Pause", exact=True).click()
    page.get_by_test_id("stMain").screenshot(path=ARTIFACTS / "svm_play.png")
    assert_no_exception(page)
    assert not page_errors(page)


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)], ids=["16x9", "4x3"])
def test_on_a_projector_both_runs_step_on_one_plane_their_maths_whole(browser, server_url, size):
    """Lecture mode on a wide (16:9) and a squarer (4:3) projector: the SVM's boundary on the
    perceptron's plane is the SVM's at every step, and both runs' maths, with their verdicts,
    stay whole on the screen for the steps a lecture takes (their numbers grow longer and
    shorter as the runs go)."""
    import numpy as np

    from core.descent import svm_sgd
    from core.trace import record
    from datasets.builtin import BUILTIN
    from testkit.browser import wait_drawn
    from testkit.stepper import COMPANION, boundary
    from tests.browser.test_picture_first import MEASURE, PROJECTOR_SHARE, new_tab, resize

    notes = BUILTIN["Lecture notes' example: 4 points"]()
    svm = record(svm_sgd(notes.X, notes.y, lam=0.01, eta=1.0, max_epochs=200))
    context, tab = new_tab(browser, size)
    tab.emulate_media(reduced_motion="reduce")  # each step's lines at once (no glide)
    try:
        tab.goto(f"{server_url}/svm?part=Train+side+by+side&lecture=1")
        wait_drawn(tab)
        assert tab.locator(".pl-stepper").count() == 1
        drawn, cut = 0, []
        for k in range(1, 41):
            tab.keyboard.press("ArrowRight")
            tab.wait_for_function(
                f"() => document.querySelector('.pl-stepper').dataset.step === '{k}'")
            line = boundary(tab, line=COMPANION)
            if line is not None:  # (outside the view at some steps)
                w, b = svm.W[k], svm.b[k]
                for x, y in ((line["x1"], line["y1"]), (line["x2"], line["y2"])):
                    assert abs(w @ (x, y) + b) / np.hypot(*w) < 0.01, (k, line)
                drawn += 1
            maths = tab.evaluate(MEASURE)["maths"]
            assert len(maths) == 2  # the perceptron's, then the SVM's
            cut += [k for one in maths if not (one["whole"] and one["verdict"] is not False
                                               and one["px"] >= 19.5)]
        assert drawn > 30 and cut == []
        head = tab.locator(".pl-companion .pl-run-name").inner_text()
        assert head == f"SVM (λ = 0.01, η₀ = 1) · {svm.mistakes[40]} margin violations"
        # the other projector's shape: the plane fills it as a fresh page's would (a 4:3
        # screen grows the plot's y range, which a wide one must not keep)
        other = (1280, 720) if size == (1024, 768) else (1024, 768)
        seen = resize(tab, other)
        assert seen["share"] >= PROJECTOR_SHARE, seen
        assert all(one["whole"] and one["verdict"] is not False for one in seen["maths"])
        assert_no_exception(tab)
    finally:
        context.close()
