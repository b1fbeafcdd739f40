"""A class's results: every answer kept, and the CSV its lecturer downloads.

The store keeps, for each class, the questions asked (:func:`asked`: the slide, the kind, the
text and the right answer as written) and one row per counted answer (:func:`row`: the
question, the slide, the voter's number within the class, the answer as read, right or not,
the seconds after the question opened), through the class and its quiet hour after it ends
(``limits.QUIET_TTL``), then nothing. A voter's number is 1 for the first browser that
answered in the class, 2 for the next, and so on: the store keeps which number belongs to
which HMAC of a browser's token under a salt of the class's own (not presence's, not a
question's), so the number says nothing of who answered, only that two rows came from one
browser. Nothing personal is asked or kept.

The CSV (:func:`csv_text`) has one row per answer, then one summary row per question (its
right answer, how many answered, how many were right); text from outside (a question's text,
an option) that a spreadsheet would read as a formula is written with a leading quote.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from classroom.state import KINDS, Question, Reading, read_number

MAX_ANSWERS = 50_000  # rows one class keeps (a hall of 500, 100 questions); more are counted,
MAX_QUESTIONS = 2_000  # not kept; questions one class keeps
COLUMNS = ("row", "slide", "question", "kind", "text", "voter", "answer", "right", "seconds")


@dataclass
class Results:
    """What a store keeps of one class for its results: who may read them (the lecturer's
    key hashes), the questions asked, the answers (each with its voter's number)."""

    key_hashes: tuple[str, ...]
    questions: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)


def asked(question: Question) -> dict[str, Any]:
    """What the results keep of a question when it opens."""
    kind = KINDS[question.kind]
    return {"question": question.id, "slide": question.slide, "kind": question.kind,
            "step": question.step, "text": question.spec.get("text", ""),
            "answer": kind.summary(question.spec)}


def row(question: Question, reading: Reading, now: float) -> dict[str, Any]:
    """One answer as the results keep it, but for its voter's number (the store adds it)."""
    seconds = max(0.0, now - question.opened) if question.opened else None
    return {"question": question.id, "slide": question.slide, "answer": reading.text,
            "right": reading.right,
            "seconds": None if seconds is None else round(seconds, 1)}


def _cell(value: object) -> object:
    """A cell as written: a text a spreadsheet would take for a formula gets a leading quote
    (a number, even a negative one, is left as it is)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            read_number(value)
        except ValueError:
            return "'" + value
    return value


def _right(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def csv_text(results: Results) -> str:
    """The results as CSV: a header, a row per answer (in the order they came), then a summary
    row per question ("summary" in the row column; its right answer; right: "k of n").

    >>> from classroom.state import open_question, start
    >>> state = open_question(start("ABCDEFGH", "h", "s", "", 0), "number", 3, "qs",
    ...                       {"text": "y·a?", "answer": "0.35"}, slide=2)
    >>> q = state.question
    >>> r = Results(("h",), [asked(q)], [{**row(q, q.read("0,35"), 0.0), "voter": 1}])
    >>> print(csv_text(r).replace("\\r", ""), end="")
    row,slide,question,kind,text,voter,answer,right,seconds
    1,2,2,number,y·a?,1,0.35,yes,
    summary,2,2,number,y·a?,,0.35,1 of 1,
    """
    out = io.StringIO()
    write = csv.writer(out)
    write.writerow(COLUMNS)
    kinds = {q["question"]: q for q in results.questions}
    tallies: dict[int, list[int]] = {}
    for n, answer in enumerate(results.answers, 1):
        meta = kinds.get(answer["question"], {})
        tally = tallies.setdefault(answer["question"], [0, 0])
        tally[0] += 1
        tally[1] += answer["right"] is True
        write.writerow([n, answer["slide"] or "", answer["question"], meta.get("kind", ""),
                        _cell(meta.get("text", "")), answer["voter"], _cell(answer["answer"]),
                        _right(answer["right"]),
                        "" if answer["seconds"] is None else answer["seconds"]])
    for meta in results.questions:
        answered, right = tallies.get(meta["question"], [0, 0])
        judged = meta["answer"] != ""
        write.writerow(["summary", meta["slide"] or "", meta["question"], meta["kind"],
                        _cell(meta["text"]), "", _cell(meta["answer"]),
                        f"{right} of {answered}" if judged else f"{answered} answered", ""])
    return out.getvalue()
