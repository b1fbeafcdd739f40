"""What a lecturer can ask the class on the page in view, each question ready to send.

The strip (ui/classroom_assets/questions.js) offers the lecturer one button per question, and
sends its body as the class's ``ask`` (classroom/state.py's KINDS) with no computation of its
own beyond the plane's range, which only the page knows as it draws it:

- **the slide's questions**, while a lecture plan is given: ui/slide_questions.py registers
  them in :data:`PROVIDERS` (it computes them from the slide's run, ui/plan_runs.py, which
  knows the lessons: this module, which ui.classroom imports, must not);
- **a quick question** on a view that has none of its own, registered by its lesson in
  :data:`QUICK`: on Boolean, "can a line separate these rows?", answered by the exact search
  over every line (core.line_labelings.best_line); on the SVM's Losses, which loss pushes w at
  the page's margin z (core.losses' slopes); on Margin, the most mistakes Novikoff's bound
  allows (core.quantities, exact).

The two built-in questions of a stepping view (mistake or not, which way w turns), the
mistakes after the next step and the line after it are the strip's own (strip.js,
questions.js): their answers are the page's run's.

A question that cannot be computed (a step past the run's end, a run with no line) is offered
with its reason instead of a body, as literal text.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qsl

MAX_LABEL = 70  # an Ask button's words: the question's text cut to this many characters
# what else offers questions on the page in view (ui/slide_questions.py): functions of the
# view's query string to a list of asks
PROVIDERS: list[Callable[[str], list[dict]]] = []
# a lesson's quick question (its url path -> a function of the view's parameters to an ask,
# or None on a view of it that has none): a lesson registers its own (lessons/boolean/parts.py),
# so that ui knows no lesson
QUICK: dict[str, Callable[[dict[str, str]], dict | None]] = {}


def label(text: str) -> str:
    """An Ask button's words for a question's text.

    >>> label("Is  it a mistake?")
    'Ask: Is it a mistake?'
    """
    text = " ".join(str(text).split())
    return "Ask: " + (text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "\u2026")


def offered(view: str) -> list[dict]:
    """Every question the lecturer may ask on ``view`` (a class's view): the providers' (a
    plan's slide), then the lesson's quick one."""
    asks = [ask for provider in PROVIDERS for ask in provider(view)]
    return asks + quick_asks(view)


def quick_asks(view: str) -> list[dict]:
    """A question of the view's own, where its lesson has no stepping run to ask about."""
    params = dict(parse_qsl(view, keep_blank_values=True))
    quick = QUICK.get(params.get("lesson", ""))
    ask = None if quick is None else quick(params)
    return [] if ask is None else [ask]


def choice_ask(text: str, options: list[str], right: list[int]) -> dict:
    """A multiple-choice quick question as the strip offers it (step 0: no run's step)."""
    spec = {"text": text, "options": options, "right": right}
    return {"label": label(text), "body": {"kind": "choice", "step": 0, "spec": spec,
                                           "slide": 0}}


def number_ask(text: str, answer: str, tolerance: str = "0") -> dict:
    """A number quick question as the strip offers it: ``answer`` and ``tolerance`` written
    exactly (classroom.state.number_text), right within the tolerance."""
    spec = {"text": text, "answer": answer, "tolerance": tolerance}
    return {"label": label(text), "body": {"kind": "number", "step": 0, "spec": spec,
                                           "slide": 0}}


def problem_ask(text: str, why: str) -> dict:
    """A quick question its view cannot answer, offered with the reason (literal text)."""
    return {"label": label(text), "problem": why}
