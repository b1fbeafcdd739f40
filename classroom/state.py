"""The state of a class, and every change to it as a pure function.

A class holds what the room sees: the lesson's *view* (exactly what a Share link
holds: the query string of the address, lesson, data and settings, without the
step), the *step*, and an optional *question* on a step with its answer counts. The
lecturer's transitions (``set_view``, ``set_step``, ``open_question``, ``reveal``,
``close_question``, ``end``) each return a new state with ``seq`` one higher:
``seq`` numbers what followers see, and a page that missed some changes asks for
everything after the last ``seq`` it saw. ``view_seq`` is the ``seq`` of the last
change of view: a page reruns its script when it changes, and only paints the
step when it does not.

A student's only transition is ``answer``. It changes the counts of the open
question and nothing else (not ``seq``: followers are not sent counts while a
question is open, only the lecturer's tally is). The counts are kept per choice,
never per student; ``voters`` holds HMACs of the voters' tokens under the
question's salt, only to refuse a second answer, and is emptied by ``reveal``.

**Question kinds** live in one registry, :data:`KINDS` (name -> :class:`Kind`): what the
lecturer's ``ask`` sends besides the kind (its *spec*: the text, the options, the right
answer, computed by the lecturer's page from its run), how a student's answer is read
(:meth:`Kind.read`: its *bucket*, the choice it is counted under, its text for the results,
and whether it is right), and what followers see before and after the reveal. Adding a kind
is one entry there (docs/ARCHITECTURE.md, "Add a question kind").

Every function raises ``ClassError`` (with an HTTP status) for a change that is
not allowed; none of them has side effects.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any
from urllib.parse import unquote_plus

MAX_KEYS = 4  # the lecturer's browser and up to three remotes
MAX_VIEW_CHARS = 6000  # a Share link holds at most 4,000 (ui/url_state.py)
MAX_STEP = 10_000_000
# A view is the query string of a Share link: URL-encoded, printable ASCII only.
_VIEW = re.compile(r"[A-Za-z0-9._~%!$'()*+,;=:@/?&-]*")
# Parameters that never travel in a view: a class's own code and secrets.
PRIVATE_PARAMETERS = frozenset({"class", "key", "remote"})
# Streamlit's own parameters (how its page is framed): a script cannot set them, so a view
# holding one would make every follower's page fail when it takes the view.
STREAMLIT_PARAMETERS = frozenset({"embed", "embed_options"})
NEVER_VIEWED = PRIVATE_PARAMETERS | STREAMLIT_PARAMETERS


class ClassError(Exception):
    """A change that is not allowed, with the HTTP status that says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# ------------------------------------------------------------------ question kinds

MAX_TEXT = 500  # a question's text, characters
MAX_OPTION = 200  # one option's text
MIN_OPTIONS, MAX_OPTIONS = 2, 6
MAX_NUMBER_CHARS = 40  # a number as typed: "-0.35", "7/20", "1.5e-3"
# a line is judged on a grid of LINE_GRID x LINE_GRID points spread evenly over the plane
LINE_GRID = 21
LINE_CLOSE = Fraction(9, 10)  # the default share of the grid that makes a line "close"
MAX_COORDINATE = 10**6  # a plane's box and a line's points: |x| at most this
# (an exponent of two digits: 1e-999's Fraction would cost a student's answer 10 ms of CPU)
_NUMBER = re.compile(r"[+-]?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})([eE][+-]?\d{1,2})?")
_RATIO = re.compile(r"[+-]?\d{1,30}/\d{1,30}")


@dataclass(frozen=True)
class Reading:
    """A student's answer as a kind reads it: the choice it is counted under (one of the
    question's ``choices``), its text for the results, and whether it is right (None when
    the question says no right answer)."""

    bucket: str
    text: str
    right: bool | None


@dataclass(frozen=True)
class Kind:
    """One kind of question. ``spec`` checks what the lecturer's ``ask`` sends besides the kind
    and returns it in the form the class keeps (JSON values only), or raises ClassError 400;
    ``choices`` names the buckets answers are counted in; ``read`` reads one student's
    answer (ClassError 400 for one that is not an answer); ``shown`` is what followers see of
    the spec while the question is open (never the right answer), ``right`` what the reveal
    adds (the right answer), ``summary`` the right answer as the results write it."""

    spec: Callable[[object], dict[str, Any]]
    choices: Callable[[dict[str, Any]], tuple[str, ...]]
    read: Callable[[dict[str, Any], object], Reading]
    shown: Callable[[dict[str, Any]], dict[str, Any]]
    right: Callable[[dict[str, Any]], dict[str, Any]]
    summary: Callable[[dict[str, Any]], str]


def _fields(spec: object, required: set[str], optional: set[str] = frozenset()) -> dict:
    if spec is None and not required:
        return {}
    if not isinstance(spec, dict):
        raise ClassError(400, "a question's spec is a JSON object")
    missing, extra = required - set(spec), set(spec) - required - optional
    if missing or extra:
        raise ClassError(400, f"a question's spec has {sorted(required)}"
                              + (f" and may have {sorted(optional)}" if optional else "")
                              + (f"; missing {sorted(missing)}" if missing else "")
                              + (f"; unexpected {sorted(extra)}" if extra else ""))
    return spec


def _text(value: object, name: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ClassError(400, f"{name} is a text of 1 to {limit} characters")
    return value.strip()


def read_number(value: object) -> Fraction:
    """A number as a student types it or a page sends it, exactly; ValueError otherwise.

    Decimals (``0.35``, ``-.5``, ``1.5e-3``, a decimal comma ``0,35``, a typographic minus
    ``−2``) and ratios (``7/20``); a JSON number is read as the shortest decimal that is it.

    >>> read_number("0,35"), read_number("−7/20"), read_number(0.1)
    (Fraction(7, 20), Fraction(-7, 20), Fraction(1, 10))
    """
    if isinstance(value, bool):
        raise ValueError("a number is expected")
    if isinstance(value, int):
        if abs(value) > 10**30:
            raise ValueError("a number is expected")
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a finite number is expected")
        return Fraction(repr(value))
    if not isinstance(value, str) or len(value) > MAX_NUMBER_CHARS:
        raise ValueError("a number is expected")
    text = value.strip().replace("\u2212", "-").replace(" ", "")
    if "," in text and "." not in text and text.count(",") == 1:
        text = text.replace(",", ".")
    if _RATIO.fullmatch(text):
        top, bottom = text.split("/")
        if int(bottom) == 0:
            raise ValueError("a ratio's denominator is not 0")
        return Fraction(int(top), int(bottom))
    if _NUMBER.fullmatch(text):
        return Fraction(text)
    raise ValueError("a number is expected, such as 0.35, -2 or 7/20")


def number_text(value: Fraction) -> str:
    """A number as the class writes it: a decimal when it has a finite one, else a ratio.

    >>> number_text(Fraction(7, 20)), number_text(Fraction(-1, 3)), number_text(Fraction(4))
    ('0.35', '-1/3', '4')
    """
    q = value.denominator
    for p in (2, 5):
        while q % p == 0:
            q //= p
    if q != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    text = f"{abs(value.numerator) * 10**digits // value.denominator:0{digits + 1}d}"
    text = f"{text[:-digits]}.{text[-digits:]}" if digits else text
    return ("-" if value < 0 else "") + text


def _number(value: object, name: str) -> Fraction:
    try:
        number = read_number(value)
    except ValueError as error:
        raise ClassError(400, f"{name}: {error}") from None
    if abs(number) > MAX_COORDINATE**2:
        raise ClassError(400, f"{name} is at most {MAX_COORDINATE**2:,} in size")
    return number


# --- the two built-in kinds: predict mode's questions, their choices fixed ---------------

def _fixed(choices: tuple[str, ...]) -> Kind:
    def spec(raw: object) -> dict[str, Any]:
        given = _fields(raw, set(), {"answer"})
        if "answer" in given and given["answer"] not in choices:
            raise ClassError(400, f"answer is one of {list(choices)}")
        return dict(given)

    def read(spec_: dict[str, Any], raw: object) -> Reading:
        if raw not in choices:
            raise ClassError(400, f"an answer is one of {list(choices)}")
        right = spec_.get("answer")
        return Reading(str(raw), str(raw), None if right is None else raw == right)

    return Kind(spec=spec, choices=lambda _s: choices, read=read, shown=lambda _s: {},
                right=lambda s: {"answer": s["answer"]} if "answer" in s else {},
                summary=lambda s: s.get("answer", ""))


# --- multiple choice -----------------------------------------------------------------------

def _choice_spec(raw: object) -> dict[str, Any]:
    given = _fields(raw, {"text", "options", "right"})
    options = given["options"]
    if not isinstance(options, list) or not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
        raise ClassError(400, f"options is a list of {MIN_OPTIONS} to {MAX_OPTIONS} texts")
    options = [_text(o, f"option {n}", MAX_OPTION) for n, o in enumerate(options, 1)]
    right = given["right"]
    if not isinstance(right, list) or not right or any(
            isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(options)
            for r in right) or len(set(right)) != len(right):
        raise ClassError(400, f"right is a list of the right options' indices, 0 to "
                              f"{len(options) - 1}, at least one, each once")
    return {"text": _text(given["text"], "text"), "options": options, "right": sorted(right)}


def _choice_read(spec: dict[str, Any], raw: object) -> Reading:
    n = len(spec["options"])
    if isinstance(raw, str) and raw.isdigit() and len(raw) == 1:
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < n:
        raise ClassError(400, f"an answer is an option's index, 0 to {n - 1}")
    return Reading(str(raw), spec["options"][raw], raw in spec["right"])


# --- a number ------------------------------------------------------------------------------

def _number_spec(raw: object) -> dict[str, Any]:
    given = _fields(raw, {"text", "answer"}, {"tolerance"})
    tolerance = _number(given.get("tolerance", 0), "tolerance")
    if tolerance < 0:
        raise ClassError(400, "tolerance is 0 or more")
    return {"text": _text(given["text"], "text"),
            "answer": number_text(_number(given["answer"], "answer")),
            "tolerance": number_text(tolerance)}


def _number_read(spec: dict[str, Any], raw: object) -> Reading:
    try:
        value = read_number(raw)
    except ValueError as error:
        raise ClassError(400, f"an answer is a number: {error}") from None
    right = abs(value - Fraction(spec["answer"])) <= Fraction(spec["tolerance"])
    return Reading("right" if right else "wrong", number_text(value), right)


# --- a line on the plane -------------------------------------------------------------------

def _box(raw: object) -> list[Fraction]:
    if not isinstance(raw, list) or len(raw) != 4:
        raise ClassError(400, "box is [x_min, x_max, y_min, y_max], the plane's range")
    x0, x1, y0, y1 = (_number(v, "box") for v in raw)
    if not (x0 < x1 and y0 < y1) or max(map(abs, (x0, x1, y0, y1))) > MAX_COORDINATE:
        raise ClassError(400, f"box is [x_min, x_max, y_min, y_max] with min < max, each "
                              f"within ±{MAX_COORDINATE:,}")
    return [x0, x1, y0, y1]


def _line_spec(raw: object) -> dict[str, Any]:
    given = _fields(raw, {"text", "w", "b", "box"}, {"close"})
    w = given["w"]
    if not isinstance(w, list) or len(w) != 2:
        raise ClassError(400, "w is [w1, w2], the right boundary's weights")
    w1, w2 = (_number(v, "w") for v in w)
    if w1 == 0 and w2 == 0:
        raise ClassError(400, "w is (0, 0): there is no boundary to draw")
    close = _number(given.get("close", number_text(LINE_CLOSE)), "close")
    if not Fraction(1, 2) <= close <= 1:
        raise ClassError(400, "close is the share of the plane a close line classifies like "
                              "the right one, from 0.5 to 1")
    return {"text": _text(given["text"], "text"), "w": [number_text(w1), number_text(w2)],
            "b": number_text(_number(given["b"], "b")),
            "box": [number_text(v) for v in _box(given["box"])], "close": number_text(close)}


def line_through(x1, y1, x2, y2) -> tuple[Fraction, Fraction, Fraction]:
    """(w1, w2, b) of the line through two points: w·x + b = 0 on it (its sign arbitrary).

    >>> line_through(0, 0, 1, 1)
    (Fraction(1, 1), Fraction(-1, 1), Fraction(0, 1))
    """
    x1, y1, x2, y2 = map(Fraction, (x1, y1, x2, y2))
    w1, w2 = y2 - y1, -(x2 - x1)
    return w1, w2, -(w1 * x1 + w2 * y1)


def agreement(line_a, line_b, box) -> Fraction:
    """The share of the plane's grid (LINE_GRID x LINE_GRID points evenly over ``box``, corners
    included) that two lines (w1, w2, b) put on the same sides, their sides matched the way
    that agrees best (a drawn line has no side of its own); a point on either line agrees.
    Exact: every number is a Fraction.

    Why this measure of "close", rather than the angle between the normals and the distance
    at the plane's centre: it is one number, said in the plane's own terms ("puts 94 % of the
    plane on the same sides"), that a room can check by eye; it judges what the question is
    about, how the line classifies the plane the students see, so a small turn matters where
    it moves the line across the plane and not where it moves it outside; and it needs
    neither a side nor a direction from a line drawn by two taps in either order, nor two
    thresholds to tune against each other.

    >>> box = [-1, 1, -1, 1]
    >>> agreement((1, 0, 0), (-2, 0, 0), box), agreement((1, 0, 0), (0, 1, 0), box)
    (Fraction(1, 1), Fraction(241, 441))
    """
    x0, x1, y0, y1 = map(Fraction, box)
    n = LINE_GRID - 1

    def signs(line) -> list[int]:
        w1, w2, b = map(Fraction, line)
        # at grid point (i, j): a0 + i·di + j·dj, on one common denominator, in integers
        a0, di, dj = w1 * x0 + w2 * y0 + b, w1 * (x1 - x0) / n, w2 * (y1 - y0) / n
        d = math.lcm(a0.denominator, di.denominator, dj.denominator)
        a0, di, dj = (int(v * d) for v in (a0, di, dj))
        return [(v > 0) - (v < 0) for i in range(n + 1) for v in
                (a0 + i * di + j * dj for j in range(n + 1))]

    a, b = signs(line_a), signs(line_b)
    same = sum(s * t >= 0 for s, t in zip(a, b, strict=True))
    flipped = sum(s * t <= 0 for s, t in zip(a, b, strict=True))
    return Fraction(max(same, flipped), len(a))


def _line_read(spec: dict[str, Any], raw: object) -> Reading:
    if not isinstance(raw, list) or len(raw) != 4:
        raise ClassError(400, "an answer is a line: two points [x1, y1, x2, y2]")
    try:
        points = [read_number(v) for v in raw]
    except ValueError:
        raise ClassError(400, "an answer is a line: two points [x1, y1, x2, y2], numbers"
                         ) from None
    x0, x1, y0, y1 = map(Fraction, spec["box"])
    # a tap at the plane's very edge may land a hair outside: 1 % of the range either side
    mx, my = (x1 - x0) / 100, (y1 - y0) / 100
    if not all(x0 - mx <= x <= x1 + mx and y0 - my <= y <= y1 + my
               for x, y in (points[:2], points[2:])):
        raise ClassError(400, "the line is off the plane: draw both points on the plane")
    if points[:2] == points[2:]:
        raise ClassError(400, "a line needs two different points")
    truth = (*map(Fraction, spec["w"]), Fraction(spec["b"]))
    share = agreement(truth, line_through(*points), spec["box"])
    right = share >= Fraction(spec["close"])
    text = " ".join(number_text(v) for v in points)
    return Reading("close" if right else "far", text, right)


def _line_right(spec: dict[str, Any]) -> dict[str, Any]:
    return {"w": spec["w"], "b": spec["b"]}


def _line_summary(spec: dict[str, Any]) -> str:
    w1, w2 = spec["w"]
    return f"{w1}·x1 + {w2}·x2 + {spec['b']} = 0"


def _shown(*names: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda spec: {name: spec[name] for name in names if name in spec}


# THE registry: a new kind of question is one entry here (and its page side)
KINDS: dict[str, Kind] = {
    # predict mode's questions (ui/stepper_assets/stepper.js): is the next step a mistake, and
    # for a mistake, which way w turns. Asked in a class, a mistake is split by its turn from
    # the start, so the choices do not give the answer away.
    "mistake": _fixed(("mistake", "no_mistake")),
    "turn": _fixed(("no_mistake", "anticlockwise", "clockwise")),
    # multiple choice: 2 to 6 options, one or more right; a student picks one
    "choice": Kind(spec=_choice_spec, choices=lambda s: tuple(map(str, range(len(s["options"])))),
                   read=_choice_read, shown=_shown("text", "options"),
                   right=_shown("right"),
                   summary=lambda s: "; ".join(s["options"][r] for r in s["right"])),
    # a number, right within its tolerance (exactly: Fractions)
    "number": Kind(spec=_number_spec, choices=lambda _s: ("right", "wrong"), read=_number_read,
                   shown=_shown("text"), right=_shown("answer", "tolerance"),
                   summary=lambda s: s["answer"] + (f" ± {s['tolerance']}"
                                                    if s["tolerance"] != "0" else "")),
    # a line on the plane, close when it classifies at least ``close`` of the plane's grid
    # like the right boundary (agreement)
    "line": Kind(spec=_line_spec, choices=lambda _s: ("close", "far"), read=_line_read,
                 shown=_shown("text", "box", "close"), right=_line_right,
                 summary=_line_summary),
}
# the kinds whose answers the lecturer's devices may see as they come (a faint overlay)
INCOMING = frozenset({"line"})


def check_spec(kind: object, spec: object) -> dict[str, Any]:
    """A kind's spec as the class keeps it, or ClassError 400."""
    if kind not in KINDS:
        raise ClassError(400, f"a question is one of {sorted(KINDS)}")
    return KINDS[kind].spec(spec)


@dataclass(frozen=True)
class Question:
    """A question on one step, open until the lecturer reveals it."""

    id: int  # the class's seq when it opened: unique within the class
    step: int  # the step it asks about, which the reveal shows
    kind: str
    salt: str  # for the HMACs of voter tokens, this question's own
    counts: tuple[int, ...]  # per choice, in the order of ``choices``
    voters: frozenset[str] = field(default=frozenset(), repr=False)
    revealed: bool = False
    spec: dict[str, Any] = field(default_factory=dict)  # KINDS[kind].spec's, checked
    slide: int = 0  # the plan's slide it was asked on (1-based), 0 outside a plan
    opened: float = 0.0  # when it opened, by the store's clock (the store stamps it)

    @property
    def choices(self) -> tuple[str, ...]:
        return KINDS[self.kind].choices(self.spec)

    def read(self, raw: object) -> Reading:
        """A student's answer to this question, read by its kind; ClassError 400."""
        return KINDS[self.kind].read(self.spec, raw)

    @property
    def answered(self) -> int:
        return sum(self.counts)

    @property
    def is_open(self) -> bool:
        return not self.revealed


@dataclass(frozen=True)
class ClassState:
    """One class. ``key_hashes`` and the salts never leave the server."""

    code: str
    key_hashes: tuple[str, ...]
    salt: str  # for the HMACs of voter tokens in presence
    view: str
    step: int
    seq: int = 1
    view_seq: int = 1
    question: Question | None = None
    ended: bool = False
    # the digest of the view's packed run (the first stepper the lecturer's page draws on it,
    # kept in the store: GET /class/run/DIGEST), or None: no run (a view with no stepper)
    run: str | None = None


def clean_view(view: object) -> str:
    """A view as followers may receive it, or ClassError 400.

    Parameters named in NEVER_VIEWED are dropped (in any case); the others are kept as sent.

    >>> clean_view("?data=xor&class=ABCDEFGH&eta=0.1&Embed=true")
    'data=xor&eta=0.1'
    """
    if not isinstance(view, str) or len(view) > MAX_VIEW_CHARS:
        raise ClassError(400, f"a view is a query string of at most {MAX_VIEW_CHARS} characters")
    if not _VIEW.fullmatch(view):
        raise ClassError(400, "a view is a URL-encoded query string")
    pairs = [p for p in view.lstrip("?").split("&") if p]
    kept = [p for p in pairs if _name(p) not in NEVER_VIEWED]
    return "&".join(kept)


def _name(pair: str) -> str:
    """A query pair's parameter name as a page reads it (percent-decoded), in lower case."""
    return unquote_plus(pair.split("=", 1)[0]).lower()


def check_step(step: object) -> int:
    """A step number, or ClassError 400."""
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
        raise ClassError(400, f"a step is a whole number from 0 to {MAX_STEP}")
    return step


def _live(state: ClassState) -> None:
    if state.ended:
        raise ClassError(410, "the class has ended")


def start(code: str, key_hash: str, salt: str, view: str, step: int) -> ClassState:
    """A new class on ``view`` at ``step``; seq 1."""
    return ClassState(code=code, key_hashes=(key_hash,), salt=salt, view=clean_view(view),
                      step=check_step(step))


def restored(code: str, key_hash: str, salt: str, view: str, step: int, seq: int,
             view_seq: int) -> ClassState:
    """A class a store lost, as its lecturer's page gives it back: its code and salt (the
    followers' presence is kept under that salt), its view and step, at ``seq`` (above every
    seq its followers have seen, so that they take it), the view's ``view_seq`` kept when it
    is not newer (a follower on that view needs no run)."""
    if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq < 2**53:
        raise ClassError(400, "seq is a positive whole number")
    if not isinstance(view_seq, int) or isinstance(view_seq, bool) or not 1 <= view_seq <= seq:
        view_seq = seq
    return replace(start(code, key_hash, salt, view, step), seq=seq, view_seq=view_seq)


def set_view(state: ClassState, view: str, step: int, run: object = None) -> ClassState:
    """Another lesson, data or settings (and the step on it, and its run's digest, or None);
    drops any question."""
    _live(state)
    seq = state.seq + 1
    return replace(state, view=clean_view(view), step=check_step(step), seq=seq, view_seq=seq,
                   question=None, run=check_run(run))


_DIGEST = re.compile(r"[0-9a-f]{16}")  # ui/stepper/wire.py's pack: blake2b of 8 bytes, in hex


def check_run(run: object) -> str | None:
    """A run's digest (16 lower-case hex digits), or None; ClassError 400 otherwise.

    >>> check_run("00ff00ff00ff00ff"), check_run(None)
    ('00ff00ff00ff00ff', None)
    """
    if run is None:
        return None
    if not isinstance(run, str) or _DIGEST.fullmatch(run) is None:
        raise ClassError(400, "a run is its digest: 16 hex digits 0-9, a-f")
    return run


def set_run(state: ClassState, run: object) -> ClassState:
    """The view's packed run is kept under this digest (or there is none): followers fetch it;
    the view is the same (no page reruns for it)."""
    _live(state)
    run = check_run(run)
    if run == state.run:
        return state
    return replace(state, run=run, seq=state.seq + 1)


def set_step(state: ClassState, step: int) -> ClassState:
    """The lecturer moved to ``step``; drops any question."""
    _live(state)
    return replace(state, step=check_step(step), seq=state.seq + 1, question=None)


MAX_SLIDE = 10_000  # plan.MAX_SLIDES


def check_slide(slide: object) -> int:
    """A slide number (1-based; 0 outside a plan), or ClassError 400."""
    if isinstance(slide, bool) or not isinstance(slide, int) or not 0 <= slide <= MAX_SLIDE:
        raise ClassError(400, f"a slide is a whole number from 0 to {MAX_SLIDE}")
    return slide


def open_question(state: ClassState, kind: str, step: int, salt: str, spec: object = None,
                  slide: object = 0) -> ClassState:
    """Ask the room about ``step`` (usually the next one); replaces any question.

    ``spec``: what the kind takes besides (KINDS[kind].spec: the text, the options, the right
    answer); ``slide``: the plan's slide it is asked on, for the results.
    """
    _live(state)
    spec = check_spec(kind, spec)
    seq = state.seq + 1
    question = Question(id=seq, step=check_step(step), kind=kind, salt=salt,
                        counts=(0,) * len(KINDS[kind].choices(spec)), spec=spec,
                        slide=check_slide(slide))
    return replace(state, seq=seq, question=question)


def answer(state: ClassState, question_id: object, choice: object, voter: str) -> ClassState:
    """One voter's answer to the open question: counts change, nothing else does.

    ``choice`` is the answer as sent (the kind reads it: ClassError 400 for one it cannot);
    ``voter`` is the HMAC of the voter's token under the question's salt.
    """
    _live(state)
    question = state.question
    if question is None or not question.is_open or question_id != question.id:
        raise ClassError(409, "that question is not open")
    return count(state, question_id, question.read(choice).bucket, voter)


def count(state: ClassState, question_id: object, bucket: str, voter: str) -> ClassState:
    """:func:`answer` for an answer read already: one more in ``bucket`` (one of the
    question's choices)."""
    _live(state)
    question = state.question
    if question is None or not question.is_open or question_id != question.id:
        raise ClassError(409, "that question is not open")
    if bucket not in question.choices:
        raise ClassError(400, f"an answer is one of {list(question.choices)}")
    if voter in question.voters:
        raise ClassError(409, "already answered")
    index = question.choices.index(bucket)
    counts = tuple(n + (i == index) for i, n in enumerate(question.counts))
    return replace(state, question=replace(question, counts=counts,
                                           voters=question.voters | {voter}))


def reveal(state: ClassState) -> ClassState:
    """Close the answers, show the counts and the true step to everyone."""
    _live(state)
    question = state.question
    if question is None or not question.is_open:
        raise ClassError(409, "no open question")
    return replace(state, step=question.step, seq=state.seq + 1,
                   question=replace(question, revealed=True, voters=frozenset()))


def close_question(state: ClassState) -> ClassState:
    """Take the question (open or revealed) off every screen."""
    _live(state)
    if state.question is None:
        raise ClassError(409, "no question")
    return replace(state, seq=state.seq + 1, question=None)


def add_key(state: ClassState, key_hash: str) -> ClassState:
    """One more device of the lecturer's (a remote); followers see no change."""
    _live(state)
    if len(state.key_hashes) >= MAX_KEYS:
        raise ClassError(409, f"a class has at most {MAX_KEYS} lecturer devices")
    return replace(state, key_hashes=(*state.key_hashes, key_hash))


def end(state: ClassState) -> ClassState:
    """The class is over: every page keeps its last view and says so."""
    _live(state)
    return replace(state, seq=state.seq + 1, question=None, ended=True)


# ------------------------------------------------------------------ what leaves the server

def public(state: ClassState, *, with_view: bool = True) -> dict[str, Any]:
    """What a follower is sent: no keys, no salts, no voters, counts only once revealed."""
    out: dict[str, Any] = {"code": state.code, "seq": state.seq, "view_seq": state.view_seq,
                           "step": state.step, "ended": state.ended, "question": None,
                           "run": state.run}
    if with_view:
        out["view"] = state.view
    question = state.question
    if question is not None:
        kind = KINDS[question.kind]
        out["question"] = {"id": question.id, "step": question.step, "kind": question.kind,
                           "choices": list(question.choices), "revealed": question.revealed,
                           "slide": question.slide, **kind.shown(question.spec)}
        if question.revealed:
            out["question"]["counts"] = list(question.counts)
            out["question"].update(kind.right(question.spec))
    return out


# ------------------------------------------------------------------ what a store keeps

def dumps(state: ClassState) -> str:
    """The state as a store keeps it (JSON), without the voters of an open question."""
    question = state.question
    data: dict[str, Any] = {
        "code": state.code, "key_hashes": list(state.key_hashes), "salt": state.salt,
        "view": state.view, "step": state.step, "seq": state.seq, "view_seq": state.view_seq,
        "ended": state.ended, "question": None, "run": state.run}
    if question is not None:
        data["question"] = {"id": question.id, "step": question.step, "kind": question.kind,
                            "salt": question.salt, "counts": list(question.counts),
                            "revealed": question.revealed, "spec": question.spec,
                            "slide": question.slide, "opened": question.opened}
    return json.dumps(data, separators=(",", ":"))


def loads(text: str | bytes) -> ClassState:
    """The state from ``dumps`` (the voters of an open question are not in it)."""
    data = json.loads(text)
    q = data["question"]
    question = None if q is None else Question(
        id=q["id"], step=q["step"], kind=q["kind"], salt=q["salt"],
        counts=tuple(q["counts"]), revealed=q["revealed"], spec=q.get("spec", {}),
        slide=q.get("slide", 0), opened=q.get("opened", 0.0))
    return ClassState(code=data["code"], key_hashes=tuple(data["key_hashes"]),
                      salt=data["salt"], view=data["view"], step=data["step"],
                      seq=data["seq"], view_seq=data["view_seq"], question=question,
                      ended=data["ended"], run=data.get("run"))
