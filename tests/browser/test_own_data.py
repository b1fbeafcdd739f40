"""A student's own spreadsheet on a phone and a laptop: upload an .xlsx, paste cells, pick
class +1 and share the view; and the exported run numbering examples as the notes do."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.stepper import ready, wait_status
from tests.browser.conftest import ARTIFACTS, assert_no_exception, settle, wait_idle, window

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PASTED = "Hours studied\tHours slept\tPassed\n1,5\t7\tja\n4\t6,5\tnein\n0,5\t8\tja\n"


def sidebar_says(tab, text: str) -> None:
    tab.wait_for_function("""(text) => (document.querySelector('[data-testid="stSidebar"]')
      ?.innerText ?? '').includes(text)""", arg=text)


def open_sidebar(tab) -> None:
    """A phone's sidebar closes over the page when a rerun draws it anew: open it again."""
    button = tab.get_by_test_id("stExpandSidebarButton")
    if button.count() and button.is_visible():
        button.tap()
        settle(tab, 400)


def press(tab, locator, touch: bool) -> None:
    if touch:
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize(("size", "touch"), [((390, 844), True), ((1280, 800), False)],
                         ids=["phone", "laptop"])
def test_a_spreadsheet_pasted_cells_the_plus_one_class_and_the_shared_view(
        browser, server_url, size, touch):
    kind = "phone" if touch else "laptop"
    with window(browser, size, touch=touch) as tab:
        tab.goto(server_url)
        wait_idle(tab)
        open_sidebar(tab)  # a phone opens with the sidebar closed
        sidebar = tab.get_by_test_id("stSidebar")

        # an .xlsx as Excel saves it: words in mixed case, a header, a formula
        tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
            str(FIXTURES / "exam.xlsx"))
        sidebar_says(tab, "5 points · classes: −1 = Yes, +1 = no")
        said = sidebar.inner_text()
        assert said.count("'Yes' and 'yes' read as one class") == 1
        tab.screenshot(path=ARTIFACTS / f"own_data_xlsx_{kind}.png", full_page=True)

        # cells pasted from a spreadsheet in a comma-decimal locale
        wait_idle(tab)
        open_sidebar(tab)
        press(tab, sidebar.get_by_text("Paste cells"), touch)
        box = sidebar.get_by_role("textbox", name="Cells copied from a spreadsheet, or CSV text")
        box.fill(PASTED)
        press(tab, sidebar.get_by_role("button", name="Use the pasted cells"), touch)
        sidebar_says(tab, "3 points · classes: −1 = ja, +1 = nein")

        # the student's class +1
        wait_idle(tab)
        open_sidebar(tab)
        press(tab, sidebar.get_by_text("ja", exact=True).last, touch)
        sidebar_says(tab, "classes: −1 = nein, +1 = ja")
        wait_idle(tab)
        if touch:  # the sidebar covers a phone's page: close it to step
            tab.get_by_test_id("stSidebarCollapseButton").locator("button").tap()
            settle(tab, 400)
        ready(tab)
        step = tab.get_by_role("button", name="Step", exact=True).first
        press(tab, step, touch)
        wait_status(tab, "Step 1 / ")
        explained = tab.locator(".pl-explain").inner_text()
        assert "example 1, x₁ (Hours studied) = 1.5, x₂ (Hours slept) = 7, y = 1 (ja)" in \
            explained, explained
        titles = tab.locator(".pl-plane .xtitle, .pl-plane .ytitle").evaluate_all(
            "(els) => els.map((e) => e.textContent)")
        assert "x₁ (Hours studied)" in titles and "x₂ (Hours slept)" in titles, titles
        tab.screenshot(path=ARTIFACTS / f"own_data_step_{kind}.png", full_page=True)

        # the view shared: the link opens the same points with the same class +1
        press(tab, tab.get_by_role("button", name="Share").first, touch)
        link = tab.get_by_test_id("stPopoverBody").locator("code").first.inner_text().strip()
        assert "cls=" in link
        tab.keyboard.press("Escape")
        tab.goto(link)
        wait_idle(tab)
        open_sidebar(tab)
        sidebar_says(tab, "3 points · classes: −1 = nein, +1 = ja")
        # and the header's names with them, on the axes
        tab.wait_for_function("""() => Array.from(document.querySelectorAll(
          '.pl-plane .xtitle')).some((t) => t.textContent === 'x₁ (Hours studied)')""")
        tab.screenshot(path=ARTIFACTS / f"own_data_shared_{kind}.png", full_page=True)
        assert_no_exception(tab)


def test_the_exported_run_numbers_the_notes_examples_from_1(browser, tmp_path):
    """The downloaded HTML steps with the same scripts: the notes' worked example reads
    "example 1", then "example 2", as the notes' "training example 1", "... 2"."""
    from core.perceptron import perceptron
    from core.trace import outcome, record
    from datasets.builtin import NOTES_ETA, NOTES_INIT, notes_four_points
    from ui.stepper import offline_html, pack, perceptron_run
    from viz.plane import CHART_CONFIG

    data = notes_four_points()
    settings = dict(eta=NOTES_ETA, init=NOTES_INIT, bias=True, order="cyclic", seed=0,
                    max_epochs=5)
    trace = record(perceptron(data.X, data.y, **settings))
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=5))
    page_file = tmp_path / "run.html"
    # packed as the stepper sends it (ui.stepper.stepper), which the export downloads
    page_file.write_bytes(offline_html(pack({**run.header, "run": run.id, "start": 0,
                                             "keys": True, "config": CHART_CONFIG},
                                            run.columns)))
    with window(browser, (1280, 800)) as tab:
        tab.goto(page_file.as_uri())
        ready(tab)
        heads = []
        for k in (1, 2):
            tab.keyboard.press("ArrowRight")
            wait_status(tab, f"Step {k} / ")
            heads.append(tab.locator(".pl-explain .pl-head").first.inner_text())
        assert heads[0].startswith("Step 1, epoch 1: example 1 x = ")
        assert heads[1].startswith("Step 2, epoch 1: example 2 x = ")


def test_a_second_file_shows_its_own_columns_in_the_pickers(browser, server_url, tmp_path):
    """The pickers keep their keys from file to file: the page showed the first file's
    column names under the second file until the server sent the new values."""
    first, second = tmp_path / "hours.csv", tmp_path / "xyz.csv"
    first.write_text("Hours studied,Hours slept,Age,Passed\n1,7,20,a\n2,6,21,b\n3,5,22,c\n"
                     "4,8,19,a\n", encoding="utf-8")
    second.write_text("x,y,z,passed\n1,7,20,u\n2,6,21,v\n3,5,22,w\n4,8,19,u\n",
                      encoding="utf-8")
    with window(browser, (1280, 800)) as tab:
        tab.goto(server_url)
        wait_idle(tab)
        uploader = tab.get_by_test_id("stFileUploaderDropzoneInput")
        uploader.set_input_files(str(first))
        sidebar_says(tab, "classes: −1 = a, +1 = b")
        wait_idle(tab)
        uploader.set_input_files(str(second))
        sidebar_says(tab, "classes: −1 = u, +1 = v")
        wait_idle(tab)
        shown = tab.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").evaluate_all(
            "(boxes) => boxes.map((b) => { const i = b.querySelector('input[role=combobox]');"
            " return `${i.getAttribute('aria-label')} ${i.value}`; })")
        said = " | ".join(shown)
        assert "Hours" not in said and "Passed" not in said, said
        assert "x₁ x" in said and "x₂ y" in said and "Label column passed" in said, said
