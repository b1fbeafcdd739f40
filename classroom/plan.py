"""A lecture plan: an ordered list of slides, read from a file or a link, written back.

A *slide* is a view (the query string a Share link holds: ``lesson=<page>``, the data, the
settings, ``part=`` on a lesson that picks its parts), the step it opens at and optionally
the steps it covers (``steps: [k, m]``: a clicker's PageDown steps the run from k to m, then
goes to the next slide), a title, the lecturer's notes and the questions to ask on it.

The file format (version 1), JSON, every field but ``view`` optional::

    {"perceptron_lab_plan": 1,
     "title": "The perceptron",
     "slides": [
       {"title": "The notes' worked example",
        "view": "data=lecture-notes-example-4-points&eta=0.1",
        "step": 2, "steps": [2, 6],
        "notes": "Ask before pressing →.",
        "questions": [
          {"kind": "number", "text": "What is y·a at this step?", "quantity": "y_a"},
          {"kind": "choice", "text": "Is it a mistake?", "options": ["yes", "no"],
           "right": [1]},
          {"kind": "line", "text": "Where will the boundary be?", "step": 3},
          {"kind": "mistake", "step": 3}]}]}

A question's ``step`` is the step it asks about (the reveal shows it): by default the slide's
step, and the next one for ``mistake`` and ``turn`` (is the *next* step a mistake?). A
``number`` question names its right answer as ``answer`` (a number as written: ``0.35``,
``7/20``) or as a ``quantity`` of :data:`NUMBER_QUANTITIES`, which the page holding the run
computes exactly at the question's step (core/quantities.py); ``tolerance`` (default 0) is
how far off a right answer may be. A ``line`` question's right answer is the boundary of
the run at its step (``quantity``: ``boundary``), or a line written out (``answer``: ``{"w":
[w1, w2], "b": b}``); ``close`` (default 0.9) is the share of the plane a close line
classifies alike (classroom.state.agreement). ``choice``: 2 to 6 ``options``, the indices
(from 0) of the ``right`` ones.

Reading (:func:`parse`) takes any bytes: everything is bounded before any work (the file's
size, then the slides', options' and texts' counts and lengths), nothing is evaluated, and
titles, notes and texts are kept as data (the page shows them as literal text). A slide
that cannot be used (no view, an unknown lesson) is skipped; a field that cannot be used is
dropped or set to its default; each with a :class:`Notice` naming the slide (1-based, as
the file numbers them) and the field. Only a file that holds no plan at all is refused
(:class:`PlanError`). A view's parameters are checked against a *catalogue* (the lessons,
the parameters each reads and the parts it picks; ``lessons.plan_catalogue()``) when one is
given; a view never keeps a class's own or private parameters (state.clean_view).

A plan travels in a link as ``?plan=`` :func:`to_link` (``~`` and the base64url of its
deflated JSON, at most :data:`MAX_LINK_CHARS`), or ``?plan=notes`` for the built-in lecture
(:func:`builtin`, the file notes_plan.json beside this module). Nothing here imports
Streamlit.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

from classroom.state import (
    KINDS,
    MAX_OPTION,
    MAX_OPTIONS,
    MAX_STEP,
    MAX_TEXT,
    MIN_OPTIONS,
    ClassError,
    check_spec,
    clean_view,
    number_text,
    read_number,
)

FORMAT = "perceptron_lab_plan"
VERSION = 1
MAX_PLAN_BYTES = 512 * 1024  # a plan file, before anything is read (12 slides: ~10 KB)
MAX_SLIDES = 200  # a 50-minute lecture has 10 to 30
MAX_QUESTIONS = 8  # on one slide
MAX_TITLE = 200
MAX_NOTES = 4000
MAX_NOTICES = 50  # past these, one more says how many more there were
MAX_LINK_CHARS = 6000  # ?plan=~...: a longer plan travels as a file
LINK_MARK = "~"
BUILTIN = {"notes": Path(__file__).with_name("notes_plan.json")}
DEFAULT_CLOSE = "0.9"

# The quantities a number question may ask, computed at the question's step from the slide's
# run (core/quantities.py computes each; a test holds the two lists to each other).
NUMBER_QUANTITIES: dict[str, str] = {
    "y_a": "y·a of the example visited at this step (a = w·x + b with the weights before it)",
    "a": "the activation a = w·x + b of the example visited at this step",
    "hinge": "the SVM's hinge loss max(0, 1 − y·a) of the example visited at this step",
    "perceptron_loss": "the perceptron's loss max(0, −y·a) of the example visited at this step",
    "mistakes": "mistakes so far (after this step)",
    "updates": "updates so far (after this step)",
    "training_errors": "examples the weights after this step get wrong (y·a ≤ 0)",
    "averaged_errors": "examples the averaged perceptron after this step gets wrong",
    "w1": "w₁ after this step",
    "w2": "w₂ after this step",
    "b": "b after this step",
    "bound": "Novikoff's bound R²/γ² on the vectors the perceptron sees ((x, 1) with a bias)",
    "most_mistakes": "the most mistakes the bound allows: R²/γ² rounded down (a count)",
    "R2": "R², the largest squared length of the vectors the perceptron sees",
    "gamma2": "γ², the squared best margin of those vectors through the origin",
    "gamma": "γ, the best margin of those vectors through the origin (the bound's)",
    "margin": "Margin(D): the widest margin of a line in the plane (the maximum-margin line)",
    "fewest_errors": "the fewest examples any line gets wrong (0 when a line separates them)",
}
LINE_QUANTITIES: dict[str, str] = {
    "boundary": "the boundary w·x + b = 0 after the question's step",
}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class PlanError(ValueError):
    """A file or link that holds no plan; the message says what is wrong."""


@dataclass(frozen=True)
class Notice:
    """Something in a plan that was not used as written: which slide (1-based; 0 for the plan
    itself), which field, and what was done."""

    slide: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"slide {self.slide}, " if self.slide else ""
        return f"{where}{self.field}: {self.message}"


@dataclass(frozen=True)
class Question:
    """A question as the plan writes it. ``step`` None: the default (see the module)."""

    kind: str
    text: str = ""
    step: int | None = None
    options: tuple[str, ...] = ()
    right: tuple[int, ...] = ()
    answer: str | None = None  # a number question's, written out
    line: tuple[str, str, str] | None = None  # a line question's (w1, w2, b), written out
    quantity: str | None = None
    tolerance: str = "0"
    close: str = DEFAULT_CLOSE

    def at(self, slide_step: int) -> int:
        """The step this question asks about, on a slide at ``slide_step``."""
        if self.step is not None:
            return self.step
        return slide_step + 1 if self.kind in ("mistake", "turn") else slide_step

    def spec(self, value: object = None, box: list | None = None) -> dict[str, Any]:
        """The ``spec`` of the class's ``ask`` (state.KINDS) for this question, given what the
        page computed: ``value`` the quantity's value (a number question: a Fraction, or a
        number; a line question: ``(w1, w2, b)``; mistake/turn: the right choice, or None)
        and ``box``, the plane's range ``[x_min, x_max, y_min, y_max]`` (a line question).
        Checked by the kind (ClassError 400)."""
        if self.kind in ("mistake", "turn"):
            return check_spec(self.kind, {} if value is None else {"answer": value})
        if self.kind == "choice":
            return check_spec("choice", {"text": self.text, "options": list(self.options),
                                         "right": list(self.right)})
        if self.kind == "number":
            answer = self.answer if self.quantity is None else value
            if hasattr(answer, "numerator") and not isinstance(answer, int):
                answer = number_text(answer)
            return check_spec("number", {"text": self.text, "answer": answer,
                                         "tolerance": self.tolerance})
        if self.kind == "line":
            w1, w2, b = self.line if self.quantity is None else value
            w1, w2, b = (number_text(v) if hasattr(v, "numerator") and not isinstance(v, str)
                         else v for v in (w1, w2, b))
            return check_spec("line", {"text": self.text, "w": [w1, w2], "b": b,
                                       "box": box, "close": self.close})
        return check_spec(self.kind, None)

    def as_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.text:
            out["text"] = self.text
        if self.step is not None:
            out["step"] = self.step
        if self.kind == "choice":
            out["options"], out["right"] = list(self.options), list(self.right)
        if self.quantity is not None:
            out["quantity"] = self.quantity
        elif self.answer is not None:
            out["answer"] = self.answer
        elif self.line is not None:
            out["answer"] = {"w": list(self.line[:2]), "b": self.line[2]}
        if self.kind == "number" and self.tolerance != "0":
            out["tolerance"] = self.tolerance
        if self.kind == "line" and self.close != DEFAULT_CLOSE:
            out["close"] = self.close
        return out


@dataclass(frozen=True)
class Slide:
    """One slide: a view (query string, without the step), the step it opens at, the steps it
    covers (k, m) if any, a title, notes, questions."""

    view: str
    title: str
    step: int = 0
    steps: tuple[int, int] | None = None
    notes: str = ""
    questions: tuple[Question, ...] = ()

    @property
    def lesson(self) -> str | None:
        """The view's lesson (its ``lesson=``), None for the first lesson."""
        return dict(parse_qsl(self.view)).get("lesson")

    def as_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "view": self.view}
        if self.step:
            out["step"] = self.step
        if self.steps is not None:
            out["steps"] = list(self.steps)
        if self.notes:
            out["notes"] = self.notes
        if self.questions:
            out["questions"] = [q.as_data() for q in self.questions]
        return out

    def within(self, steps: int) -> tuple[Slide, list[Notice]]:
        """The slide on a run of ``steps`` steps (its last position): a step or a range past
        its end is brought back to it, with a notice (the slide's number is left 0 for the
        caller to set: ``replace(notice, slide=n)``)."""
        notices, step, covered = [], self.step, self.steps
        if step > steps:
            notices.append(Notice(0, "step", f"{step} is past the run's end ({steps} steps); "
                                             f"the slide opens at {steps}"))
            step = steps
        if covered is not None and covered[1] > steps:
            notices.append(Notice(0, "steps", f"{covered[0]} to {covered[1]} goes past the "
                                              f"run's end ({steps} steps)"))
            covered = (min(covered[0], steps), steps)
        return replace(self, step=step, steps=covered), notices


@dataclass(frozen=True)
class Plan:
    """A lecture: a title and its slides, in order."""

    slides: tuple[Slide, ...]
    title: str = ""

    def as_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {FORMAT: VERSION}
        if self.title:
            out["title"] = self.title
        out["slides"] = [s.as_data() for s in self.slides]
        return out


@dataclass(frozen=True)
class LessonViews:
    """What a slide's view may hold on one lesson: each parameter the lesson reads, with the
    function that reads its value (ValueError for a value it cannot use; None: any value),
    and the parts a view may pick (``part=``; empty for a lesson that draws every part)."""

    parameters: Mapping[str, Callable[[str], object] | None]
    parts: tuple[str, ...] = ()


# lesson (its url path) -> what its views hold; the first lesson is a view's without lesson=
Catalogue = Mapping[str, LessonViews]


# ------------------------------------------------------------------ reading


def _text(raw: object, where: int, name: str, limit: int, notices: list[Notice],
          *, multiline: bool = False) -> str | None:
    """A text field: a string, control characters dropped, cut to ``limit``; None if absent
    or not a text (with a notice)."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        notices.append(Notice(where, name, "is not a text; left out"))
        return None
    text = raw if multiline else raw.replace("\n", " ").replace("\t", " ")
    text = _CONTROL.sub("", text).strip()
    if len(text) > limit:
        notices.append(Notice(where, name, f"is {len(text):,} characters; cut to {limit:,}"))
        text = text[:limit].rstrip()
    return text


def _whole(raw: object) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_STEP:
        return None
    return raw


def _view(raw: object, n: int, catalogue: Catalogue | None, notices: list[Notice]
          ) -> tuple[str, int | None] | None:
    """A slide's view (checked against the catalogue) and the step it held, or None."""
    if not isinstance(raw, str) or not raw.strip():
        notices.append(Notice(n, "view", "is missing: a view is a Share link's query string, "
                                         "e.g. lesson=margin&data=xor; slide skipped"))
        return None
    raw = raw.strip()
    page = None
    if "?" in raw[:1] or "://" in raw[:12]:  # a whole Share link pasted: its page and query
        address, _, raw = raw.partition("?")
        path = address.split("://", 1)[-1].partition("/")[2].split("#")[0].strip("/")
        page = path.rsplit("/", 1)[-1] or None  # the lesson is the link's path: /margin
        raw = raw.split("#")[0]
    try:
        cleaned = clean_view(raw)
    except ClassError as error:
        notices.append(Notice(n, "view", f"{error.message}; slide skipped"))
        return None
    if len(cleaned.split("&")) < len([p for p in raw.lstrip("?").split("&") if p]):
        notices.append(Notice(n, "view", "a class's own parameters (class, key, remote) and "
                                         "the page's framing are never part of a view; "
                                         "left out"))
    pairs = parse_qsl(cleaned, keep_blank_values=True)
    seen: dict[str, str] = {}
    for name, value in pairs:
        if name in seen:
            notices.append(Notice(n, "view", f"{name[:30]!r} is there twice; the first kept"))
            continue
        seen[name] = value
    step = None
    if "step" in seen or "t" in seen:
        value = seen.pop("step", None) or seen.pop("t", "")
        seen.pop("t", None)
        step = _whole(int(value)) if value.isdigit() and len(value) <= 8 else None
        if step is None:
            notices.append(Notice(n, "view", f"step={value[:20]!r} is not a step; left out"))
    seen.pop("lecture", None)  # each screen's own
    lesson = seen.pop("lesson", None) or page
    if catalogue is not None:
        first = next(iter(catalogue))
        if lesson is not None and lesson not in catalogue:
            notices.append(Notice(n, "view", f"lesson={lesson[:40]!r} is not a lesson of this "
                                             f"app ({', '.join(catalogue)}); slide skipped"))
            return None
        views = catalogue[lesson or first]
        if lesson == first:
            lesson = None
        for name in list(seen):
            value = seen[name]
            if name == "part":
                if value not in views.parts:
                    said = (f"one of {', '.join(views.parts)}" if views.parts
                            else "none: this lesson draws every part")
                    notices.append(Notice(n, "view", f"part={value[:40]!r} is not a part of "
                                                     f"this lesson ({said}); left out"))
                    del seen[name]
                continue
            if name not in views.parameters:
                notices.append(Notice(n, "view", f"{name[:30]!r} is not a setting of this "
                                                 "lesson; left out"))
                del seen[name]
                continue
            reader = views.parameters[name]
            if reader is not None:
                try:
                    reader(value)
                except (ValueError, OverflowError, TypeError) as error:
                    notices.append(Notice(n, "view", f"{name}={value[:20]!r} cannot be used "
                                                     f"({error}); left out"))
                    del seen[name]
    if lesson is not None:
        seen["lesson"] = lesson
    # as a class keeps a view (ui.classroom.encode_view): every parameter sorted, so a slide's
    # view and the class's are the same text when they are the same view
    return "&".join(f"{quote(k, safe='')}={quote(v, safe=',;-._~')}"
                    for k, v in sorted(seen.items())), step


def _question(raw: object, n: int, j: int, notices: list[Notice]) -> Question | None:
    name = f"question {j}"
    if not isinstance(raw, dict):
        notices.append(Notice(n, name, "is not an object; left out"))
        return None
    kind = raw.get("kind")
    if kind not in KINDS:
        notices.append(Notice(n, f"{name} kind", f"is one of {', '.join(KINDS)}; left out"))
        return None
    known = {"kind", "text", "step", "options", "right", "answer", "quantity", "tolerance",
             "close"}
    if set(raw) - known:
        extra = sorted(str(k)[:20] for k in set(raw) - known)[:5]
        notices.append(Notice(n, name, f"{', '.join(extra)}: not a field of a question; "
                                       "left out"))
    text = _text(raw.get("text"), n, f"{name} text", MAX_TEXT, notices)
    if kind in ("choice", "number", "line") and not text:
        notices.append(Notice(n, f"{name} text", "is missing: the question's words; left out"))
        return None
    step = None
    if "step" in raw:
        step = _whole(raw["step"])
        if step is None:
            notices.append(Notice(n, f"{name} step", f"is a whole number from 0 to "
                                                     f"{MAX_STEP:,}; the default used"))
    question = Question(kind=kind, text=text or "", step=step)
    try:
        if kind == "choice":
            return _choice(raw, question)
        if kind == "number":
            return _number(raw, question)
        if kind == "line":
            return _line(raw, question)
    except _Bad as bad:
        notices.append(Notice(n, f"{name} {bad.field}", f"{bad.message}; question left out"))
        return None
    return question


class _Bad(Exception):
    def __init__(self, field_: str, message: str):
        super().__init__(message)
        self.field, self.message = field_, message


def _choice(raw: dict, question: Question) -> Question:
    options = raw.get("options")
    if not isinstance(options, list) or not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        count = f" (it has {len(options):,})" if isinstance(options, list) else ""
        raise _Bad("options", f"is a list of {MIN_OPTIONS} to {MAX_OPTIONS} texts{count}")
    texts = []
    for option in options:
        if not isinstance(option, str) or not option.strip() or len(option) > MAX_OPTION:
            raise _Bad("options", f"each is a text of 1 to {MAX_OPTION} characters")
        texts.append(_CONTROL.sub("", option.replace("\n", " ")).strip())
    right = raw.get("right")
    if not isinstance(right, list) or not right or len(right) > len(texts) or any(
            isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(texts)
            for r in right) or len(set(right)) != len(right):
        raise _Bad("right", f"is a list of the right options' indices, 0 to {len(texts) - 1}, "
                            "at least one")
    return replace(question, options=tuple(texts), right=tuple(sorted(right)))


def _number_field(raw: object, name: str) -> str:
    try:
        return number_text(read_number(raw))
    except ValueError as error:
        raise _Bad(name, f"{str(raw)[:20]!r} is not a number ({error})") from None


def _number(raw: dict, question: Question) -> Question:
    has_answer, quantity = "answer" in raw, raw.get("quantity")
    if has_answer == (quantity is not None):
        raise _Bad("answer", "give an answer (a number) or a quantity (one of "
                             f"{', '.join(NUMBER_QUANTITIES)}), one of the two")
    if quantity is not None and quantity not in NUMBER_QUANTITIES:
        raise _Bad("quantity", f"{str(quantity)[:30]!r} is not one of "
                               f"{', '.join(NUMBER_QUANTITIES)}")
    answer = _number_field(raw["answer"], "answer") if has_answer else None
    tolerance = _number_field(raw.get("tolerance", 0), "tolerance")
    if tolerance.startswith("-"):
        raise _Bad("tolerance", "is 0 or more")
    return replace(question, answer=answer, quantity=quantity, tolerance=tolerance)


def _line(raw: dict, question: Question) -> Question:
    answer, quantity = raw.get("answer"), raw.get("quantity")
    line = None
    if answer is not None:
        if quantity is not None:
            raise _Bad("answer", "give an answer (a line) or a quantity, not both")
        if not isinstance(answer, dict) or set(answer) != {"w", "b"} or \
                not isinstance(answer["w"], list) or len(answer["w"]) != 2:
            raise _Bad("answer", 'is a line written {"w": [w1, w2], "b": b}')
        w1, w2 = (_number_field(v, "answer") for v in answer["w"])
        if w1 == "0" and w2 == "0":
            raise _Bad("answer", "w is (0, 0): that is no line")
        line = (w1, w2, _number_field(answer["b"], "answer"))
    else:
        quantity = quantity or "boundary"
        if quantity not in LINE_QUANTITIES:
            raise _Bad("quantity", f"{str(quantity)[:30]!r} is not one of "
                                   f"{', '.join(LINE_QUANTITIES)}")
    close = _number_field(raw.get("close", DEFAULT_CLOSE), "close")
    if not 0.5 <= float(read_number(close)) <= 1:
        raise _Bad("close", "is the share of the plane a close line classifies alike, "
                            "0.5 to 1")
    return replace(question, line=line, quantity=quantity if line is None else None,
                   close=close)


def _slide(raw: object, n: int, catalogue: Catalogue | None, notices: list[Notice]
           ) -> Slide | None:
    if not isinstance(raw, dict):
        notices.append(Notice(n, "slide", "is not an object; skipped"))
        return None
    known = {"title", "view", "step", "steps", "notes", "questions"}
    if set(raw) - known:
        extra = sorted(str(k)[:20] for k in set(raw) - known)[:5]
        notices.append(Notice(n, "slide", f"{', '.join(extra)}: not a field of a slide; "
                                          "left out"))
    found = _view(raw.get("view"), n, catalogue, notices)
    if found is None:
        return None
    view, linked_step = found
    title = _text(raw.get("title"), n, "title", MAX_TITLE, notices) or f"Slide {n}"
    notes = _text(raw.get("notes"), n, "notes", MAX_NOTES, notices, multiline=True) or ""
    step = linked_step or 0
    if "step" in raw:
        given = _whole(raw["step"])
        if given is None:
            notices.append(Notice(n, "step", f"is a whole number from 0 to {MAX_STEP:,}; "
                                             f"{step} used"))
        else:
            step = given
    steps = None
    if "steps" in raw:
        covered = raw["steps"]
        if isinstance(covered, list) and len(covered) == 2 and all(
                _whole(v) is not None for v in covered) and covered[0] <= covered[1]:
            steps = (covered[0], covered[1])
            if "step" not in raw and linked_step is None:
                step = steps[0]
            elif not steps[0] <= step <= steps[1]:
                notices.append(Notice(n, "step", f"{step} is not within steps {steps[0]} to "
                                                 f"{steps[1]}; {steps[0]} used"))
                step = steps[0]
        else:
            notices.append(Notice(n, "steps", "is [k, m], two steps with k ≤ m; left out"))
    questions = []
    raw_questions = raw.get("questions", [])
    if not isinstance(raw_questions, list):
        notices.append(Notice(n, "questions", "is not a list; left out"))
        raw_questions = []
    if len(raw_questions) > MAX_QUESTIONS:
        notices.append(Notice(n, "questions", f"{len(raw_questions):,} of them: a slide has at "
                                              f"most {MAX_QUESTIONS}; the first kept"))
        raw_questions = raw_questions[:MAX_QUESTIONS]
    for j, item in enumerate(raw_questions, 1):
        question = _question(item, n, j, notices)
        if question is not None:
            questions.append(question)
    return Slide(view=view, title=title, step=step, steps=steps, notes=notes,
                 questions=tuple(questions))


def parse(data: bytes | str, *, catalogue: Catalogue | None = None
          ) -> tuple[Plan, list[Notice]]:
    """A plan from a file's bytes (or text), and what of it was not used as written.

    PlanError when it holds no plan: too big, not UTF-8 JSON, not this format, a version
    this app does not read, no slide that can be used.
    """
    if isinstance(data, str):
        if len(data) > MAX_PLAN_BYTES:  # a character is at least a byte
            raise PlanError(f"a plan is at most {MAX_PLAN_BYTES // 1024} KB")
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, bytes | bytearray) or len(data) > MAX_PLAN_BYTES:
        raise PlanError(f"a plan is at most {MAX_PLAN_BYTES // 1024} KB")
    try:
        raw = json.loads(bytes(data).decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise PlanError("a plan is a JSON text in UTF-8; this file is not text") from None
    except (ValueError, RecursionError):
        raise PlanError("a plan is a JSON text; this one does not read as JSON (is it cut "
                        "short, or another kind of file?)") from None
    if not isinstance(raw, dict) or FORMAT not in raw:
        raise PlanError(f'this is not a lecture plan: a plan starts {{"{FORMAT}": {VERSION}, '
                        '"slides": [...]}')
    version = raw[FORMAT]
    if version != VERSION or isinstance(version, bool):
        raise PlanError(f"this plan is written in version {str(version)[:10]} of the format; "
                        f"this app reads version {VERSION}")
    notices: list[Notice] = []
    title = _text(raw.get("title"), 0, "title", MAX_TITLE, notices) or ""
    slides = raw.get("slides")
    if not isinstance(slides, list) or not slides:
        raise PlanError("a plan has slides: a list of at least one slide")
    if len(slides) > MAX_SLIDES:
        notices.append(Notice(0, "slides", f"{len(slides):,} of them: a plan has at most "
                                           f"{MAX_SLIDES}; the first {MAX_SLIDES} kept"))
        slides = slides[:MAX_SLIDES]
    kept = [s for n, item in enumerate(slides, 1)
            if (s := _slide(item, n, catalogue, notices)) is not None]
    if not kept:
        raise PlanError("no slide of this plan can be shown: "
                        + "; ".join(map(str, notices[:3])))
    if len(notices) > MAX_NOTICES:
        more = len(notices) - MAX_NOTICES
        notices = [*notices[:MAX_NOTICES], Notice(0, "plan", f"and {more:,} more notices")]
    return Plan(slides=tuple(kept), title=title), notices


# ------------------------------------------------------------------ writing


def dump(plan: Plan) -> str:
    """The plan as its file holds it: JSON, one field a line where it helps a reader."""
    data = plan.as_data()
    slides = ",\n  ".join(json.dumps(s, ensure_ascii=False) for s in data.pop("slides"))
    head = json.dumps(data, ensure_ascii=False)[:-1]
    return f'{head}, "slides": [\n  {slides}\n]}}\n'


def to_link(plan: Plan) -> str:
    """The value of ``?plan=`` that holds the plan; ValueError past MAX_LINK_CHARS."""
    compact = json.dumps(plan.as_data(), ensure_ascii=False, separators=(",", ":"))
    packed = base64.urlsafe_b64encode(zlib.compress(compact.encode("utf-8"), 9))
    value = LINK_MARK + packed.decode("ascii").rstrip("=")
    if len(value) > MAX_LINK_CHARS:
        raise ValueError(f"this plan takes {len(value):,} characters in a link, which holds "
                         f"{MAX_LINK_CHARS:,}: share it as a file")
    return value


def from_link(value: str, *, catalogue: Catalogue | None = None
              ) -> tuple[Plan, list[Notice]]:
    """The plan a ``?plan=`` value holds: a built-in's name, or :func:`to_link`'s."""
    if not isinstance(value, str):
        raise PlanError("a plan link's value is a text")
    if value in BUILTIN:
        return builtin(value, catalogue=catalogue)
    if not value.startswith(LINK_MARK) or len(value) > MAX_LINK_CHARS:
        raise PlanError(f"plan= holds {', '.join(BUILTIN)} or a plan packed by the app "
                        f"(at most {MAX_LINK_CHARS:,} characters); is the link cut short?")
    try:
        raw = base64.urlsafe_b64decode(value[1:] + "=" * (-len(value[1:]) % 4))
        inflate = zlib.decompressobj()
        plain = inflate.decompress(raw, MAX_PLAN_BYTES + 1)  # never inflate a bomb further
        if inflate.unconsumed_tail or not inflate.eof or len(plain) > MAX_PLAN_BYTES:
            raise ValueError
    except (ValueError, zlib.error):
        raise PlanError("the plan in this link cannot be read (is the link cut short?)"
                        ) from None
    return parse(plain, catalogue=catalogue)


def builtin(name: str, *, catalogue: Catalogue | None = None) -> tuple[Plan, list[Notice]]:
    """A built-in plan by name (``notes``: the lecture notes' lecture)."""
    if name not in BUILTIN:
        raise PlanError(f"the built-in plans are {', '.join(BUILTIN)}")
    return parse(BUILTIN[name].read_bytes(), catalogue=catalogue)


__all__ = ["BUILTIN", "FORMAT", "LINE_QUANTITIES", "MAX_LINK_CHARS", "MAX_PLAN_BYTES",
           "MAX_SLIDES", "NUMBER_QUANTITIES", "VERSION", "Catalogue", "LessonViews", "Notice",
           "Plan", "PlanError", "Question", "Slide", "builtin", "dump", "from_link",
           "parse", "to_link"]
