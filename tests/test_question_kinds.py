"""The question kinds (classroom/state.py's KINDS) and the results every answer leaves
(classroom/results.py), through the operations both doors use, against both stores (this
process's and a real redis-server), and through the routes."""


from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from classroom import codes
from classroom.http import Classroom
from classroom.results import COLUMNS, csv_text
from classroom.state import (
    INCOMING,
    KINDS,
    LINE_GRID,
    ClassError,
    agreement,
    answer,
    check_spec,
    line_through,
    open_question,
    public,
    read_number,
    reveal,
    start,
)
from classroom.store import MemoryStore
from testkit.classroom import SECRET, app_of, with_store
from tests.test_classroom_ops import following, refused

VIEW = "lesson=step_through&data=lecture-notes-example-4-points"
CHOICE = {"text": "Which update?", "options": ["w + ηyx", "w − ηyx", "<b>w</b>", "=1+1"],
          "right": [0, 3]}
NUMBER = {"text": "y·a at this step?", "answer": "7/20", "tolerance": "0.01"}
LINE = {"text": "Where is the boundary after this update?", "w": ["0.1", "-0.1"], "b": "-0.2",
        "box": [-1, 3, -1, 3]}


def new_class():
    return start("ABCDEFGH", codes.digest("k" * 43), "classsalt", VIEW, 0)


def asked(kind: str, spec=None):
    return open_question(new_class(), kind, 1, "qsalt", spec, slide=2)


# ------------------------------------------------------------------ what each kind takes


def test_the_registry_holds_the_two_built_in_kinds_unchanged_and_three_more():
    assert list(KINDS) == ["mistake", "turn", "choice", "number", "line"]
    assert KINDS["mistake"].choices({}) == ("mistake", "no_mistake")
    assert KINDS["turn"].choices({}) == ("no_mistake", "anticlockwise", "clockwise")
    assert {"line"} == INCOMING


@pytest.mark.parametrize(("kind", "spec", "words"), [
    ("choice", {**CHOICE, "options": ["only one"]}, "2 to 6"),
    ("choice", {**CHOICE, "options": [f"o{n}" for n in range(1000)]}, "2 to 6"),
    ("choice", {**CHOICE, "right": []}, "right"),
    ("choice", {**CHOICE, "right": [4]}, "right"),
    ("choice", {**CHOICE, "right": [True]}, "right"),
    ("choice", {**CHOICE, "options": ["a", "x" * 201]}, "option 2"),
    ("choice", {**CHOICE, "text": ""}, "text"),
    ("choice", {**CHOICE, "extra": 1}, "unexpected"),
    ("number", {**NUMBER, "answer": "twelve"}, "answer"),
    ("number", {**NUMBER, "answer": float("nan")}, "answer"),
    ("number", {**NUMBER, "tolerance": "-1"}, "tolerance"),
    ("number", {"text": "t"}, "missing"),
    ("line", {**LINE, "w": [0, 0]}, "no boundary"),
    ("line", {**LINE, "box": [1, 0, 0, 1]}, "box"),
    ("line", {**LINE, "close": "0.2"}, "close"),
    ("line", {**LINE, "box": [0, 1e7, 0, 1]}, "box"),
    ("mistake", {"answer": "clockwise"}, "answer"),
    ("essay", {}, "one of"),
])
def test_a_spec_that_is_not_one_is_refused_naming_its_field(kind, spec, words):
    with pytest.raises(ClassError) as raised:
        check_spec(kind, spec)
    assert raised.value.status == 400 and words in raised.value.message


def test_a_multiple_choice_answer_is_an_option_and_right_when_among_the_right_ones():
    state = asked("choice", CHOICE)
    q = state.question
    assert q.choices == ("0", "1", "2", "3")
    assert [q.read(n).right for n in range(4)] == [True, False, False, True]
    assert q.read("1").bucket == "1" and q.read(2).text == "<b>w</b>"  # kept as data
    for bad in (4, -1, "x", True, 1.0, None, [0]):
        with pytest.raises(ClassError):
            q.read(bad)


@pytest.mark.parametrize(("typed", "right"), [
    ("0.35", True), ("0,35", True), ("7/20", True), (0.35, True), ("0.359", True),
    ("0.361", False), ("−0.35", False), ("35/100", True), (".34", True), ("0.339", False)])
def test_a_number_is_right_within_its_tolerance_exactly(typed, right):
    q = asked("number", NUMBER).question
    reading = q.read(typed)
    assert reading.right is right
    # the reference: the tolerance test in Fractions, written out
    assert right is (abs(read_number(typed) - Fraction(7, 20)) <= Fraction(1, 100))
    assert reading.bucket == ("right" if right else "wrong")


def test_a_number_answer_that_is_not_a_number_is_refused_with_what_is_expected():
    q = asked("number", NUMBER).question
    for bad in ("seven", "1e9999", "1e-999", "", "0x10", "1/0", None, [1], True, "1" * 41,
                "nan", "inf"):
        with pytest.raises(ClassError) as raised:
            q.read(bad)
        assert raised.value.status == 400 and "number" in raised.value.message


def test_a_number_question_with_no_tolerance_wants_the_exact_value():
    q = asked("number", {"text": "t", "answer": "0.1"}).question
    assert q.read("1/10").right and not q.read("0.1000001").right
    assert q.spec["tolerance"] == "0"


def _float_agreement(line_a, line_b, box) -> float:
    """The reference: the same grid in floats, every point classified by both lines."""
    xs = np.linspace(box[0], box[1], LINE_GRID)
    ys = np.linspace(box[2], box[3], LINE_GRID)
    gx, gy = np.meshgrid(xs, ys)
    sa = np.sign(line_a[0] * gx + line_a[1] * gy + line_a[2])
    sb = np.sign(line_b[0] * gx + line_b[1] * gy + line_b[2])
    same = np.mean(sa * sb >= 0)
    flipped = np.mean(sa * sb <= 0)
    return float(max(same, flipped))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=4, max_size=4),
       st.lists(st.integers(-20, 20), min_size=3, max_size=3))
def test_the_share_of_the_plane_two_lines_classify_alike_matches_a_float_count(points, truth):
    x1, y1, x2, y2 = (Fraction(v, 7) for v in points)
    if (x1, y1) == (x2, y2) or truth[:2] == [0, 0]:
        return
    w1, w2, b = (Fraction(v, 3) for v in truth)
    box = [-2, 2, -3, 3]
    drawn = line_through(x1, y1, x2, y2)
    share = agreement((w1, w2, b), drawn, box)
    assert share == agreement(drawn, (w1, w2, b), box)  # symmetric
    reference = _float_agreement(tuple(map(float, (w1, w2, b))), tuple(map(float, drawn)), box)
    # the floats may count a point exactly on a line either way; the grid has 441 points
    assert abs(float(share) - reference) <= 21 / 441


def test_a_line_is_close_when_it_classifies_the_plane_like_the_right_one():
    q = asked("line", LINE).question
    # the right line itself (y = x - 2), drawn through two of its points: the plane alike
    assert q.read([1, -1, 3, 1]).right and q.read([1, -1, 3, 1]).bucket == "close"
    # the same line drawn the other way round: a drawn line has no side
    assert q.read([3, 1, 1, -1]).right
    # a line at right angles to it: far
    far = q.read([0, 1, 1, 0])
    assert not far.right and far.bucket == "far"
    assert far.text == "0 1 1 0"
    # shifted lines: the share decides, against the lecturer's bound (0.9)
    for shift, close in ((Fraction(1, 10), True), (Fraction(1), False)):
        drawn = [1 - shift, -1, 3, 1 + shift]
        share = agreement((1, -1, -2), line_through(*drawn), LINE["box"])
        assert (share >= Fraction(9, 10)) is close
        assert q.read([str(v) for v in drawn]).right is close


def test_a_line_off_the_plane_or_not_a_line_is_refused():
    q = asked("line", LINE).question
    for bad, words in (([0, 0, 9, 9], "off the plane"), ([1, 1, 1, 1], "two different"),
                       ([0, -2, 2, 0], "off the plane"), ([3.05, 0, 1, 1], "off the plane"),
                       ([1, 1, 2], "two points"), ("0 0 1 1", "two points"),
                       ([0, 0, "x", 1], "numbers"), ([-5, 0, 1, 1], "off the plane")):
        with pytest.raises(ClassError) as raised:
            q.read(bad)
        assert raised.value.status == 400 and words in raised.value.message


def test_followers_see_no_right_answer_until_the_reveal():
    for kind, spec, secret in (("choice", CHOICE, "right"), ("number", NUMBER, "answer"),
                               ("line", LINE, "w"), ("mistake", {"answer": "mistake"},
                                                     "answer")):
        state = asked(kind, spec)
        shown = public(state)["question"]
        assert secret not in shown and "counts" not in shown and shown["slide"] == 2
        assert "7/20" not in str(shown) and "-0.2" not in str(shown)
        state = answer(state, state.question.id, {"choice": 0, "number": "0.35",
                                                  "line": [1, -1, 3, 1],
                                                  "mistake": "mistake"}[kind], "v1")
        after = public(reveal(state))["question"]
        assert secret in after and sum(after["counts"]) == 1
    assert public(reveal(asked("choice", CHOICE)))["question"]["right"] == [0, 3]
    assert public(reveal(asked("line", LINE)))["question"]["w"] == ["0.1", "-0.1"]


# ------------------------------------------------------------------ the stores keep results


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_every_answer_is_kept_once_with_its_voter_number_and_seconds(make_store):
    now = [1000.0]

    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        code = state.code
        tokens = [codes.new_voter(SECRET) for _ in range(3)]
        subs = [await following(store, code, t) for t in tokens]
        await ops.act("h", code, key, {"action": "ask", "kind": "number", "step": 3,
                                       "spec": NUMBER, "slide": 4})
        q1 = (await store.get(code)).question.id
        now[0] += 2.5
        await ops.answer(code, tokens[1], q1, "0,35")
        now[0] += 1.0
        await ops.answer(code, tokens[0], q1, "1/2")
        with refused(409):  # once per device
            await ops.answer(code, tokens[0], q1, "0.35")
        with refused(400):  # not a number: not counted, not kept
            await ops.answer(code, tokens[2], q1, "a lot")
        await ops.act("h", code, key, {"action": "reveal"})
        await ops.act("h", code, key, {"action": "ask", "kind": "choice", "step": 3,
                                       "spec": CHOICE, "slide": 5})
        q2 = (await store.get(code)).question.id
        now[0] += 4.0
        await ops.answer(code, tokens[0], q2, 3)
        await ops.answer(code, tokens[2], q2, "2")
        results = await ops.results("h", code, key)
        rows = _rows(csv_text(results))
        answers = [r for r in rows if r["row"] != "summary"]
        assert [(r["slide"], r["question"], r["voter"], r["answer"], r["right"], r["seconds"])
                for r in answers] == [
            ("4", str(q1), "1", "0.35", "yes", "2.5"),
            ("4", str(q1), "2", "0.5", "no", "3.5"),
            ("5", str(q2), "2", "'=1+1", "yes", "4.0"),  # the same browser: the same number
            ("5", str(q2), "3", "<b>w</b>", "no", "4.0")]
        summaries = [r for r in rows if r["row"] == "summary"]
        assert [(s["question"], s["answer"], s["right"]) for s in summaries] == [
            (str(q1), "0.35 ± 0.01", "1 of 2"), (str(q2), "w + ηyx; =1+1", "1 of 2")]
        # a formula is written as text where it starts a cell (the summary's starts with w)
        for sub in subs:
            await store.leave(sub)
    with_store(make_store, main, clock=lambda: now[0])


def test_nothing_of_a_browser_is_in_the_results():
    results_text = []

    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        token = codes.new_voter(SECRET)
        sub = await following(store, state.code, token)
        await ops.act("h", state.code, key, {"action": "ask", "kind": "choice", "step": 1,
                                             "spec": CHOICE})
        await ops.answer(state.code, token, (await store.get(state.code)).question.id, 0)
        results_text.append(csv_text(await ops.results("h", state.code, key)))
        await store.leave(sub)
    with_store(MemoryStore, main)
    text = results_text[0]
    assert token_free(text) and "10.0.0.1" not in text
    assert _rows(text)[0]["voter"] == "1"


def token_free(text: str) -> bool:
    return not any(len(cell) >= 20 and cell.replace("-", "").replace("_", "").isalnum()
                   for row in csv.reader(io.StringIO(text)) for cell in row)


def test_results_outlive_the_class_by_its_quiet_hour_and_no_longer(make_store):
    now = [5000.0]

    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        token = codes.new_voter(SECRET)
        sub = await following(store, state.code, token)
        await ops.act("h", state.code, key, {"action": "ask", "kind": "turn", "step": 1,
                                             "spec": {"answer": "clockwise"}})
        await ops.answer(state.code, token, (await store.get(state.code)).question.id,
                         "clockwise")
        await store.leave(sub)
        if hasattr(store, "redis"):  # a class Redis lets expire keeps its results an hour more
            for name in ("answers", "numbers", "questions", "readers"):
                ttl = await store.redis.ttl(f"plab:{{{state.code}}}:{name}")
                assert store.ttl < ttl <= 2 * store.ttl, name
        await ops.act("h", state.code, key, {"action": "end"})
        now[0] += store.ttl - 60
        rows = _rows(csv_text(await ops.results("h", state.code, key)))
        assert [(r["answer"], r["right"]) for r in rows] == [("clockwise", "yes"),
                                                              ("clockwise", "1 of 1")]
        with refused(403):
            await ops.results("h", state.code, "x" * 43)
        now[0] += 120
        await store.sweep()
        if hasattr(store, "redis"):  # Redis lets the keys expire by its own clock
            for name in ("answers", "numbers", "questions", "readers"):
                ttl = await store.redis.ttl(f"plab:{{{state.code}}}:{name}")
                assert 0 < ttl <= store.ttl
        else:
            with refused(404):
                await ops.results("h", state.code, key)
    with_store(make_store, main, clock=lambda: now[0])


def test_the_projector_gets_a_line_question_s_answers_as_they_come_and_others_after(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        code = state.code
        tokens = [codes.new_voter(SECRET) for _ in range(2)]
        subs = [await following(store, code, t) for t in tokens]
        await ops.act("h", code, key, {"action": "ask", "kind": "line", "step": 1,
                                       "spec": LINE})
        q = (await store.get(code)).question.id
        await ops.answer(code, tokens[0], q, [1, -1, 3, 1])
        _, got = await ops.act("h", code, key, {"action": "answers", "question": q,
                                                "after": 0})
        assert got == {"answers": [{"voter": 1, "answer": "1 -1 3 1", "right": True}],
                       "after": 1}
        await ops.answer(code, tokens[1], q, [0, 1, 1, 0])
        _, got = await ops.act("h", code, key, {"action": "answers", "question": q,
                                                "after": 1})
        assert got == {"answers": [{"voter": 2, "answer": "0 1 1 0", "right": False}],
                       "after": 2}
        await ops.act("h", code, key, {"action": "ask", "kind": "choice", "step": 1,
                                       "spec": CHOICE})
        q2 = (await store.get(code)).question.id
        with refused(409):  # a multiple choice's answers are hidden until the reveal
            await ops.act("h", code, key, {"action": "answers", "question": q2, "after": 0})
        with refused(409):  # a question no longer on the screens
            await ops.act("h", code, key, {"action": "answers", "question": q, "after": 0})
        await ops.act("h", code, key, {"action": "reveal"})
        _, got = await ops.act("h", code, key, {"action": "answers", "question": q2,
                                                "after": 2})
        assert got == {"answers": [], "after": 2}
        for sub in subs:
            await store.leave(sub)
    with_store(make_store, main)


def test_the_tally_counts_a_new_kind_s_answers_and_the_reveal_its_buckets(make_store):
    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        code = state.code
        tokens = [codes.new_voter(SECRET) for _ in range(3)]
        subs = [await following(store, code, t) for t in tokens]
        await ops.act("h", code, key, {"action": "ask", "kind": "number", "step": 1,
                                       "spec": NUMBER})
        q = (await store.get(code)).question.id
        for token, typed in zip(tokens, ["0.35", "0.351", "2"], strict=True):
            await ops.answer(code, token, q, typed)
        assert (await store.tally(code))["answered"] == 3
        revealed, _ = await ops.act("h", code, key, {"action": "reveal"})
        assert public(revealed)["question"]["counts"] == [2, 1]
        assert public(revealed)["question"]["choices"] == ["right", "wrong"]
        for sub in subs:
            await store.leave(sub)
    with_store(make_store, main)


# ------------------------------------------------------------------ the routes


def test_the_results_route_gives_the_lecturer_a_csv_and_anyone_else_nothing():
    store = MemoryStore()
    room = Classroom(store, secret=SECRET)
    with TestClient(app_of(room)) as client:
        made = client.post("/class", json={"view": VIEW, "step": 0}).json()
        code, key = made["code"], made["key"]
        lead = {"X-Class-Key": key}
        asked_ = client.post(f"/class/{code}/lecturer", headers=lead, json={
            "action": "ask", "kind": "line", "step": 1, "spec": LINE, "slide": 1})
        assert asked_.status_code == 200, asked_.text
        shown = asked_.json()["state"]["question"]
        assert shown["box"] == ["-1", "3", "-1", "3"] and "w" not in shown
        # a follower with an identity (as one its page's proof of work earns)
        client.cookies.set("plab_voter", codes.new_voter(SECRET), path="/class")
        with client.stream("GET", f"/class/{code}/events"):
            bad = client.post(f"/class/{code}/answer",
                              json={"question": shown["id"], "choice": [9, 9, 10, 10]})
            assert bad.status_code == 400 and "off the plane" in bad.json()["error"]
            ok = client.post(f"/class/{code}/answer",
                             json={"question": shown["id"], "choice": [1, -1, 3, 1]})
            assert ok.status_code == 204, ok.text
        got = client.get(f"/class/{code}/results", headers=lead)
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
        assert "attachment" in got.headers["content-disposition"]
        assert got.headers["cache-control"] == "no-store"
        rows = _rows(got.text)
        assert list(rows[0]) == list(COLUMNS)
        assert [(r["row"], r["kind"], r["voter"], r["answer"], r["right"]) for r in rows] == [
            ("1", "line", "1", "1 -1 3 1", "yes"),
            ("summary", "line", "", "0.1·x1 + -0.1·x2 + -0.2 = 0", "1 of 1")]
        assert client.get(f"/class/{code}/results").status_code == 403
        assert client.get(f"/class/{code}/results",
                          headers={"X-Class-Key": "y" * 43}).status_code == 403
        assert client.get("/class/ZZZZZZZZ/results", headers=lead).status_code == 404
        client.post(f"/class/{code}/lecturer", headers=lead, json={"action": "end"})
        assert client.get(f"/class/{code}/results", headers=lead).status_code == 200


def test_a_spreadsheet_formula_in_a_question_is_written_as_text():
    q = asked("choice", {**CHOICE, "text": "=HYPERLINK(\"x\")"}).question
    from classroom.results import Results, row
    from classroom.results import asked as kept
    text = csv_text(Results(("h",), [kept(q)], [{**row(q, q.read(3), 0), "voter": 1}]))
    cells = [c for r in csv.reader(io.StringIO(text)) for c in r]
    assert "'=HYPERLINK(\"x\")" in cells and "'=1+1" in cells
    assert not any(c.startswith("=") for c in cells)


def test_every_kind_reads_each_of_its_choices_into_its_own_bucket():
    for kind, spec, answers in (("choice", CHOICE, range(4)),
                                ("number", NUMBER, ["0.35", "3"]),
                                ("line", LINE, [[1, -1, 3, 1], [0, 1, 1, 0]]),
                                ("turn", {}, ["no_mistake", "anticlockwise", "clockwise"])):
        q = asked(kind, spec).question
        buckets = [q.read(a).bucket for a in answers]
        assert sorted(buckets) == sorted(q.choices), kind
    assert list(itertools.chain(KINDS)) == list(KINDS)


def test_two_processes_keep_one_class_s_results_together(redis_url):
    """Behind nginx a student's answer and the lecturer's download land on different
    processes: each reads what the other kept."""
    from classroom.ops import Operations
    from classroom.redis_store import RedisStore
    from testkit.classroom import run

    async def main():
        one, two = RedisStore(redis_url), RedisStore(redis_url)
        await one.start()
        await two.start()
        try:
            ops_one, ops_two = Operations(one, secret=SECRET), Operations(two, secret=SECRET)
            key, state = await ops_one.start("10.0.0.1", VIEW)
            tokens = [codes.new_voter(SECRET) for _ in range(2)]
            subs = [await following(one, state.code, tokens[0]),
                    await following(two, state.code, tokens[1])]
            await ops_one.act("h", state.code, key, {"action": "ask", "kind": "number",
                                                     "step": 1, "spec": NUMBER, "slide": 7})
            q = (await two.get(state.code)).question.id
            await ops_two.answer(state.code, tokens[1], q, "0.35")
            await ops_one.answer(state.code, tokens[0], q, "0.4")
            rows = _rows(csv_text(await ops_two.results("h", state.code, key)))
            assert [(r["slide"], r["voter"], r["answer"], r["right"]) for r in rows] == [
                ("7", "1", "0.35", "yes"), ("7", "2", "0.4", "no"), ("7", "", "0.35 ± 0.01",
                                                                      "1 of 2")]
            await one.leave(subs[0])
            await two.leave(subs[1])
        finally:
            await one.close()
            await two.close()
    run(main())


SPECS = {"mistake": {"answer": "mistake"}, "turn": None, "choice": CHOICE, "number": NUMBER,
         "line": LINE}
raw_answers = st.one_of(
    st.integers(-2, 7), st.sampled_from(["mistake", "no_mistake", "clockwise", "0.35", "0,35",
                                         "x", "", "1/0", "7/20", "2"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(-2, 4), min_size=3, max_size=5), st.none(), st.booleans())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(
    st.tuples(st.just("ask"), st.sampled_from(list(SPECS))),
    st.tuples(st.just("answer"), st.sampled_from([f"v{n}" for n in range(5)]), raw_answers),
    st.tuples(st.just("reveal"))), max_size=40))
def test_any_answers_to_any_kind_count_each_voter_once_and_hide_the_answer(sequence):
    state = new_class()
    voters: set[str] = set()
    for action in sequence:
        before = state
        try:
            if action[0] == "ask":
                state = open_question(state, action[1], 1, "qs", SPECS[action[1]])
                voters = set()
            elif action[0] == "answer":
                q = state.question
                state = answer(state, q.id if q else 0, action[2], action[1])
                voters.add(action[1])
            else:
                state = reveal(state)
        except ClassError as refused:
            assert state is before and refused.status in (400, 409)
            continue
        q = state.question
        assert q.answered == len(voters) == sum(q.counts) if q.is_open else True
        shown = public(state)["question"]
        hidden = {"right", "answer", "w", "b", "counts", "tolerance"} & set(shown)
        assert not hidden if q.is_open else "counts" in shown


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["choice", "number", "line", "mistake"]),
       st.fractions(-100, 100, max_denominator=40), st.fractions(0, 5, max_denominator=8),
       st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
def test_a_checked_spec_reads_back_as_itself(kind, value, tolerance, right):
    """What the class keeps is what it would accept again (the store re-checks a retried ask,
    a plan writes what it read): checking is idempotent."""
    raw = {"choice": {**CHOICE, "options": [f"o{n}" for n in range(6)], "right": right},
           "number": {"text": "t", "answer": str(value), "tolerance": float(tolerance)},
           "line": {**LINE, "b": str(value), "close": 0.75},
           "mistake": {"answer": "no_mistake"}}[kind]
    once = check_spec(kind, raw)
    assert check_spec(kind, once) == once
    if kind == "number":
        assert Fraction(once["answer"]) == value


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["number", "choice", "line", "turn"]),
                          st.lists(st.tuples(st.integers(0, 3), raw_answers), max_size=6)),
                min_size=1, max_size=4))
def test_both_stores_keep_the_same_results_for_the_same_answers(redis_url, questions):
    """The same class, asked and answered alike, in this process's store and in Redis: the
    same CSV, row for row (a refused answer is refused by both and kept by neither)."""
    from classroom.ops import Operations
    from classroom.redis_store import RedisStore
    from testkit.classroom import run

    tokens = [codes.new_voter(SECRET) for _ in range(4)]

    async def results_of(store) -> tuple[str, list[int]]:
        await store.start()
        try:
            ops = Operations(store, secret=SECRET)
            key, state = await ops.start("10.0.0.1", VIEW)
            subs = [await following(store, state.code, t) for t in tokens]
            statuses = []
            for n, (kind, answers) in enumerate(questions, 1):
                await ops.act("h", state.code, key, {"action": "ask", "kind": kind, "step": 1,
                                                     "spec": SPECS[kind], "slide": n})
                q = (await store.get(state.code)).question.id
                for who, raw in answers:
                    try:
                        await ops.answer(state.code, tokens[who], q, raw)
                        statuses.append(204)
                    except ClassError as refused:
                        statuses.append(refused.status)
            text = csv_text(await ops.results("h", state.code, key))
            for sub in subs:
                await store.leave(sub)
            return text, statuses
        finally:
            await store.close()

    clock = lambda: 1000.0  # both stores at one instant: the same seconds
    memory = run(results_of(MemoryStore(clock=clock)))
    in_redis = run(results_of(RedisStore(redis_url, clock=clock)))
    assert memory == in_redis
