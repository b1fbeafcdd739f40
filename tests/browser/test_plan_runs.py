"""A lecture plan's questions are computed on the run each slide's page steps through: for every
slide of the built-in lecture with a run, the page opened at the slide's view and step says
the same number of steps and the same mistakes as ui/plan_runs.py's run of that view."""

from __future__ import annotations

import re

import pytest

from classroom import plan
from core import quantities
from lessons import plan_catalogue
from testkit.stepper import ready, status, wait_status
from tests.browser.conftest import wait_idle
from ui.plan_runs import run_facts

pytestmark = pytest.mark.browser

SLIDES = plan.builtin("notes", catalogue=plan_catalogue())[0].slides
WITH_RUNS = [n for n, slide in enumerate(SLIDES, 1) if run_facts(slide.view).trace is not None]


def address(server_url: str, view: str, step: int) -> str:
    params = [p for p in view.split("&") if not p.startswith("lesson=")]
    lesson = next((p.split("=", 1)[1] for p in view.split("&") if p.startswith("lesson=")), "")
    return f"{server_url}/{lesson}?{'&'.join([*params, f'step={step}'])}"


@pytest.mark.parametrize("n", WITH_RUNS)
def test_each_slide_s_page_steps_the_run_its_questions_are_computed_on(n, tab, server_url):
    """The slide's page opened once, at the slide's step, as a lecture opens it; each other
    step a question is asked at reached in the page, as the lecturer's PageDown reaches it
    (the run the page steps through is the same at every step: the step is not in its data)."""
    slide = SLIDES[n - 1]
    facts = run_facts(slide.view)
    asked = sorted({q.at(slide.step) for q in slide.questions} | {slide.step})
    tab.goto(address(server_url, slide.view, slide.step))
    wait_idle(tab)
    ready(tab)
    for k in [slide.step, *(k for k in asked if k != slide.step)]:
        if k != slide.step:
            tab.locator(".pl-stepper:not(.pl-follower) .pl-slider").first.fill(str(k))
        wait_status(tab, f"Step {k} / ")
        said = status(tab)
        steps = int(re.match(r"Step \d+ / ([\d,]+)", said).group(1).replace(",", ""))
        assert steps == facts.steps, (slide.title, said)
        mistakes = quantities.value("mistakes", facts, k).exact
        found = re.search(r"([\d,]+) mistakes?", said)
        assert (int(found.group(1).replace(",", "")) if found else 0) == mistakes, \
            (slide.title, k, said, mistakes)
