"""ui/classroom_assets/lead.js: what a lecturer's page posts to its class, with its key: one
step request at a time and the newest step each time, a question on the projector's next
step, and what a refusal does to the page."""

from __future__ import annotations

import json

import pytest

from tests.browser.js.conftest import ORIGIN, open_class_page

pytestmark = pytest.mark.browser

# a lecturer's page state as stream.js makes it, with a strip to render into and a record of
# whether lead.js said the class was over
PAGE = """(extra) => {
  document.body.replaceChildren();
  const c = { role: "lecturer", code: "ABCDEFGH", key: "K".repeat(43), display: "ABCD-EFGH",
              link: "x", mode: "follow", state: { seq: 1, view_seq: 1, step: 0, question: null },
              k: null, sentK: null, ownSeq: 0, posting: false, ended: false, busy: false,
              tally: null, problem: null, overs: 0, ...extra };
  c.ui = cls.build(document.body);
  c.over = () => { c.overs += 1; c.ended = true; };
  window.lecturer = c;
  return true;
}"""
STEPPER = """([k, K]) => {
  const box = document.createElement("div");
  box.className = "pl-stepper";
  box.dataset.step = String(k);
  const slider = document.createElement("input");
  slider.className = "pl-slider";
  slider.type = "range";
  slider.max = String(K);
  box.appendChild(slider);
  document.body.appendChild(box);
}"""


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


@pytest.fixture
def server(page):
    """The class's lecturer route, answered here: what it was sent, and what it answers
    (``status``: the next answers' status; each body moves a made-up class state)."""
    sent = []
    answer = {"status": 200, "seq": 1, "hold": False}

    def handle(route):
        request = route.request
        body = json.loads(request.post_data or "{}")
        sent.append({"key": request.headers.get("x-class-key"),
                     "type": request.headers.get("content-type"), **body})
        if answer["status"] != 200:
            route.fulfill(status=answer["status"], content_type="application/json",
                          body=json.dumps({"error": "refused here"}))
            return
        answer["seq"] += 1
        state = {"seq": answer["seq"], "view_seq": 1, "step": body.get("step", 0),
                 "question": None}
        if body["action"] == "ask":
            state["question"] = {"id": answer["seq"], "step": body["step"], "kind": body["kind"],
                                 "choices": ["mistake", "no_mistake"], "revealed": False}
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({"state": state}))

    page.route(f"{ORIGIN}/class/**", handle)
    yield sent, answer
    page.unroute(f"{ORIGIN}/class/**", handle)


def test_a_post_carries_the_key_and_takes_the_classs_answer(page, server):
    sent, _ = server
    page.evaluate(PAGE, {})
    got = page.evaluate("""async () => {
      const st = await cls.post(lecturer, { action: "step", step: 4 });
      return { step: st.step, ownSeq: lecturer.ownSeq, state: lecturer.state.seq,
               problem: lecturer.problem };
    }""")
    assert got == {"step": 4, "ownSeq": 2, "state": 2, "problem": None}
    assert sent == [{"key": "K" * 43, "type": "application/json", "action": "step", "step": 4}]


def test_a_refusal_says_why_and_an_ended_class_is_over(page, server):
    _, answer = server
    page.evaluate(PAGE, {})
    answer["status"] = 403
    got = page.evaluate("""async () => {
      const status = await cls.post(lecturer, { action: "touch" }).catch((e) => e.status);
      return { status, problem: lecturer.problem, overs: lecturer.overs };
    }""")
    assert got == {"status": 403, "problem": "This page no longer drives the class.",
                   "overs": 0}
    # 410: the class ended; 404: its store lost it, which is not an end (it is given back)
    for status, overs, lost in ((410, 1, False), (404, 0, True)):
        answer["status"] = status
        page.evaluate(PAGE, {})
        got = page.evaluate("""async () => {
          const status = await cls.post(lecturer, { action: "touch" }).catch((e) => e.status);
          return { status, overs: lecturer.overs, lost: Boolean(lecturer.lost) };
        }""")
        assert got == {"status": status, "overs": overs, "lost": lost}


def test_steps_go_one_request_at_a_time_and_the_class_ends_where_the_lecturer_stopped(
        page, server):
    sent, _ = server
    page.evaluate(PAGE, {})
    # presses while a request is on its way: only the newest goes next
    page.evaluate("""() => {
      for (const k of [1, 2, 3]) { lecturer.k = k; cls.pushStep(lecturer); }
    }""")
    page.wait_for_function("() => !lecturer.posting && lecturer.sentK === 3")
    assert [s["step"] for s in sent] == [1, 3]
    page.evaluate("() => cls.pushStep(lecturer)")  # nothing new: nothing sent
    assert len(sent) == 2


def test_a_question_is_on_the_projectors_next_step_with_the_class_there_first(page, server):
    sent, _ = server
    page.evaluate(PAGE, {"k": 0, "sentK": 0})
    page.evaluate(STEPPER, [5, 9])
    heard = page.evaluate("""async () => {
      const heard = [];
      const on = (event) => heard.push(event.detail);
      window.addEventListener("pl-class", on);
      cls.ask(lecturer, "mistake");
      for (let i = 0; i < 100 && heard.length === 0; i += 1) {
        await new Promise((done) => setTimeout(done, 20));
      }
      window.removeEventListener("pl-class", on);
      return heard;
    }""")
    assert [(s["action"], s.get("step")) for s in sent] == [("step", 5), ("ask", 6)]
    assert heard[0]["question"]["step"] == 6 and heard[0]["lecturer"] is True
    # at the last step there is no next one to ask about
    page.evaluate(PAGE, {})
    page.evaluate(STEPPER, [9, 9])
    page.evaluate("() => cls.ask(lecturer, 'mistake')")
    assert len(sent) == 2


def test_after_a_run_the_class_goes_where_the_projector_stands(page, server):
    sent, _ = server
    # the class at step 2 (seq 1, the made-up server's next answer is seq 2)
    page.evaluate(PAGE, {"state": {"seq": 1, "view_seq": 1, "step": 2, "question": None}})
    page.evaluate(STEPPER, [7, 9])
    page.evaluate("() => cls.catchUp(lecturer)")
    page.wait_for_function("() => lecturer.sentK === 7 && !lecturer.posting")
    assert [s["step"] for s in sent] == [7]
    page.evaluate("() => cls.catchUp(lecturer)")  # the class is there: nothing more
    assert len(sent) == 1


def test_a_turn_question_where_w_cannot_turn_is_asked_as_mistake_or_not(page, server):
    # the stepper's class layer marks the next step: a mistake that leaves w with no way to
    # turn (from or to w = 0, a half turn) has no true answer among the turn's choices
    sent, _ = server
    for askable, kind in (("false", "mistake"), ("true", "turn")):
        page.evaluate(PAGE, {"k": 3, "sentK": 3, "state": {"seq": 1, "view_seq": 1, "step": 3,
                                                            "question": None}})
        page.evaluate(STEPPER, [3, 9])
        page.evaluate("(v) => { document.querySelector('.pl-stepper').dataset.turnAskable = v; "
                      "cls.ask(lecturer, 'turn'); }", askable)
        page.wait_for_function("() => !lecturer.posting && !lecturer.busy")
        assert (sent[-1]["action"], sent[-1]["kind"], sent[-1]["step"]) == ("ask", kind, 4)


@pytest.fixture
def clocked(browser):
    """A page of its own whose timers are Playwright's fake clock, and a made-up lecturer
    route that counts what it is sent and answers ``answer["status"]``, or ``answer[<the
    path's last part>]`` where set (no JSON unless 200, as nginx refuses)."""
    page = open_class_page(browser)
    page.clock.install()
    sent = []
    answer = {"status": 503, "seq": 1}

    def handle(route):
        body = json.loads(route.request.post_data or "{}")
        path = route.request.url.split("/class/")[1]
        sent.append({"path": path, **body})
        if answer.get(path.rsplit("/", 1)[-1], answer["status"]) != 200:
            route.fulfill(status=answer["status"], content_type="text/html",
                          body="<html><body>429 Too Many Requests</body></html>")
            return
        answer["seq"] += 1
        route.fulfill(status=200, content_type="application/json", body=json.dumps(
            {"state": {"seq": answer["seq"], "view_seq": 1, "step": body.get("step", 0),
                       "question": None}}))

    page.route(f"{ORIGIN}/class/**", handle)
    yield page, sent, answer
    page.context.close()


def settle(page, ms: int) -> None:
    """Move the fake clock ``ms`` on, a little at a time, letting each fetch answer."""
    for _ in range(ms // 100):
        page.clock.run_for(100)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def test_a_failing_send_waits_longer_each_time_and_sends_only_the_latest_step(clocked):
    page, sent, answer = clocked
    page.evaluate(PAGE, {})
    page.evaluate("() => { lecturer.k = 1; cls.pushStep(lecturer); }")
    for k in range(2, 40):  # presses go on while the class is away: each is the page's at once
        settle(page, 500)
        page.evaluate("(k) => { lecturer.k = k; cls.pushStep(lecturer); }", k)
    settle(page, 30_000 - 39 * 500)
    # about one a second at most while failing, 0.5 s doubling to 10 s: 0.25+0.5+1+2+4+8
    # (halved by jitter at worst) and then one every 5 to 10 s
    assert 4 <= len(sent) <= 12, len(sent)
    assert all(s["path"].endswith("/lecturer") for s in sent)
    text = page.evaluate("() => { cls.render(lecturer); return lecturer.ui.text.textContent; }")
    assert "reconnecting" in text and "503" not in text
    # back: the latest press reaches the class, once, within the longest wait
    answer["status"] = 200
    before = len(sent)
    settle(page, 10_500)
    assert [s["step"] for s in sent[before:]] == [39]
    assert page.evaluate("() => [lecturer.sentK, lecturer.failures, lecturer.away]") \
        == [39, 0, False]


def test_slow_down_from_the_proxy_is_said_in_words_and_backs_off(clocked):
    page, sent, answer = clocked
    answer["status"] = 429
    page.evaluate(PAGE, {})
    page.evaluate("() => { lecturer.k = 5; cls.pushStep(lecturer); }")
    settle(page, 30_000)
    assert len(sent) <= 12
    problem = page.evaluate("() => { cls.render(lecturer); "
                            "return lecturer.ui.problem.textContent; }")
    assert "slow down" in problem and not any(ch.isdigit() for ch in problem)


def test_a_class_its_store_lost_is_given_back_at_the_pages_step(clocked):
    page, sent, answer = clocked
    page.evaluate(PAGE, {"charter": "C" * 76, "view": "data=xor", "ownSeq": 7,
                         "state": {"seq": 7, "view_seq": 3, "step": 2, "question": None}})
    # the store lost the class: a step is refused, its charter given back is taken (whenever
    # the page sends it: a busy machine's answers come late on the fake clock)
    answer["status"], answer["restore"] = 404, 200
    page.evaluate("() => { lecturer.k = 4; cls.pushStep(lecturer); }")
    settle(page, 2_200)
    assert sent[0] == {"path": "ABCDEFGH/lecturer", "action": "step", "step": 4}
    assert sent[1] == {"path": "ABCDEFGH/restore", "charter": "C" * 76, "view": "data=xor",
                       "view_seq": 3, "seq": 7, "step": 4}
    assert len(sent) == 2, sent[2:]  # given back at the page's step: nothing more to send
    assert page.evaluate("() => [lecturer.lost, lecturer.sentK, lecturer.overs]") \
        == [False, 4, 0]
    # a page with no charter cannot give it back: the class is over for it
    page.evaluate(PAGE, {})
    answer["status"] = 404
    del answer["restore"]
    page.evaluate("() => { lecturer.k = 4; cls.pushStep(lecturer); }")
    settle(page, 1_000)
    assert page.evaluate("() => lecturer.overs") == 1
