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

Every function raises ``ClassError`` (with an HTTP status) for a change that is
not allowed; none of them has side effects.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote_plus

# The questions predict mode asks (ui/stepper_assets/stepper.js): is the next step a
# mistake, and for a mistake, which way w turns. Asked in a class, a mistake is split
# by its turn from the start, so the choices do not give the answer away.
KINDS: dict[str, tuple[str, ...]] = {
    "mistake": ("mistake", "no_mistake"),
    "turn": ("no_mistake", "anticlockwise", "clockwise"),
}
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


@dataclass(frozen=True)
class Question:
    """A question on one step, open until the lecturer reveals it."""

    id: int  # the class's seq when it opened: unique within the class
    step: int  # the step it asks about, which the reveal shows
    kind: str
    salt: str  # for the HMACs of voter tokens, this question's own
    counts: tuple[int, ...]  # per choice, in the order of KINDS[kind]
    voters: frozenset[str] = field(default=frozenset(), repr=False)
    revealed: bool = False

    @property
    def choices(self) -> tuple[str, ...]:
        return KINDS[self.kind]

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


def set_view(state: ClassState, view: str, step: int) -> ClassState:
    """Another lesson, data or settings (and the step on it); drops any question."""
    _live(state)
    seq = state.seq + 1
    return replace(state, view=clean_view(view), step=check_step(step), seq=seq, view_seq=seq,
                   question=None)


def set_step(state: ClassState, step: int) -> ClassState:
    """The lecturer moved to ``step``; drops any question."""
    _live(state)
    return replace(state, step=check_step(step), seq=state.seq + 1, question=None)


def open_question(state: ClassState, kind: str, step: int, salt: str) -> ClassState:
    """Ask the room about ``step`` (usually the next one); replaces any question."""
    _live(state)
    if kind not in KINDS:
        raise ClassError(400, f"a question is one of {sorted(KINDS)}")
    seq = state.seq + 1
    question = Question(id=seq, step=check_step(step), kind=kind, salt=salt,
                        counts=(0,) * len(KINDS[kind]))
    return replace(state, seq=seq, question=question)


def answer(state: ClassState, question_id: object, choice: object, voter: str) -> ClassState:
    """One voter's answer to the open question: counts change, nothing else does.

    ``voter`` is the HMAC of the voter's token under the question's salt.
    """
    _live(state)
    question = state.question
    if question is None or not question.is_open or question_id != question.id:
        raise ClassError(409, "that question is not open")
    if choice not in question.choices:
        raise ClassError(400, f"an answer is one of {list(question.choices)}")
    if voter in question.voters:
        raise ClassError(409, "already answered")
    index = question.choices.index(choice)
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
                           "step": state.step, "ended": state.ended, "question": None}
    if with_view:
        out["view"] = state.view
    question = state.question
    if question is not None:
        out["question"] = {"id": question.id, "step": question.step, "kind": question.kind,
                           "choices": list(question.choices), "revealed": question.revealed}
        if question.revealed:
            out["question"]["counts"] = list(question.counts)
    return out


# ------------------------------------------------------------------ what a store keeps

def dumps(state: ClassState) -> str:
    """The state as a store keeps it (JSON), without the voters of an open question."""
    question = state.question
    data: dict[str, Any] = {
        "code": state.code, "key_hashes": list(state.key_hashes), "salt": state.salt,
        "view": state.view, "step": state.step, "seq": state.seq, "view_seq": state.view_seq,
        "ended": state.ended, "question": None}
    if question is not None:
        data["question"] = {"id": question.id, "step": question.step, "kind": question.kind,
                            "salt": question.salt, "counts": list(question.counts),
                            "revealed": question.revealed}
    return json.dumps(data, separators=(",", ":"))


def loads(text: str | bytes) -> ClassState:
    """The state from ``dumps`` (the voters of an open question are not in it)."""
    data = json.loads(text)
    q = data["question"]
    question = None if q is None else Question(
        id=q["id"], step=q["step"], kind=q["kind"], salt=q["salt"],
        counts=tuple(q["counts"]), revealed=q["revealed"])
    return ClassState(code=data["code"], key_hashes=tuple(data["key_hashes"]),
                      salt=data["salt"], view=data["view"], step=data["step"],
                      seq=data["seq"], view_seq=data["view_seq"], question=question,
                      ended=data["ended"])
