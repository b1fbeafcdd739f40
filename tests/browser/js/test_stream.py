"""ui/classroom_assets/stream.js: what a page does with the class's state: a follower takes
the class's step and question, an explorer nothing, a newer view asks for one run."""

from __future__ import annotations

import pytest

from classroom.hub import HEARTBEAT_FRAME
from tests.browser.js.conftest import ORIGIN, open_class_page

pytestmark = pytest.mark.browser

SYNC = """(c) => {
  const heard = [];
  const onClass = (event) => heard.push(["class", event.detail]);
  const onRerun = (event) => heard.push(["rerun", event.detail.view_seq ?? null]);
  window.addEventListener("pl-class", onClass);
  window.addEventListener("pl-class-rerun", onRerun);
  cls.sync({ answers: {}, ownSeq: 0, posting: false, ended: false, ...c }, false);
  window.removeEventListener("pl-class", onClass);
  window.removeEventListener("pl-class-rerun", onRerun);
  return heard;
}"""
QUESTION = {"id": 7, "step": 3, "kind": "mistake", "revealed": False,
            "choices": ["mistake", "no_mistake"]}


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def test_a_follower_takes_the_step_and_the_question(page):
    state = {"seq": 5, "view_seq": 2, "step": 2, "question": QUESTION}
    heard = page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                 "state": state})
    assert heard == [["class", {"question": QUESTION, "lecturer": False, "answered": None,
                                "canAnswer": True, "k": 2}]]
    heard = page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                 "state": state, "answers": {"7": "mistake"}})
    assert heard[0][1]["answered"] == "mistake" and heard[0][1]["canAnswer"] is False


def test_an_explorer_hears_nothing_and_a_newer_view_asks_for_one_run(page):
    state = {"seq": 5, "view_seq": 3, "step": 2, "question": None}
    assert page.evaluate(SYNC, {"role": "student", "mode": "explore", "viewSeq": 3,
                                "state": state}) == []
    assert page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                "state": state}) == [["rerun", 3]]
    assert page.evaluate(SYNC, {"role": "student", "mode": "explore", "viewSeq": 2,
                                "state": state}) == []


def test_a_lecturers_own_steps_are_not_sent_back(page):
    state = {"seq": 5, "view_seq": 2, "step": 4, "question": None}
    heard = page.evaluate(SYNC, {"role": "lecturer", "mode": "follow", "viewSeq": 2,
                                 "state": state, "ownSeq": 5})
    assert heard == [["class", {"question": None, "lecturer": True, "answered": None,
                                "canAnswer": False}]]
    heard = page.evaluate(SYNC, {"role": "lecturer", "mode": "follow", "viewSeq": 2,
                                 "state": state, "ownSeq": 4})  # another device moved it
    assert heard[0][1]["k"] == 4


PRESS = """(state) => {
  const heard = [];
  const onClass = (event) => heard.push(event.detail);
  window.addEventListener("pl-class", onClass);
  // a page that took the class's view, whose stepper was told the step before it drew
  const c = { role: "lecturer", mode: "follow", viewSeq: 2, answers: {}, ownSeq: 0,
              ended: false, resuming: true, k: 0, sentK: 0, state,
              posting: true };  // a step of its own is on its way (pushStep sends no other)
  cls.stepped(c, 3);  // three presses: the newest k is what the page sends next
  c.state = { ...state, seq: state.seq + 1, step: 1 };  // the class heard its first press
  cls.sync(c, false);
  window.removeEventListener("pl-class", onClass);
  return { heard, k: c.k, resuming: c.resuming };
}"""


def test_a_resumed_lecturers_press_is_not_moved_back_by_its_own_first_step(page):
    state = {"seq": 5, "view_seq": 2, "step": 0, "question": None}
    got = page.evaluate(PRESS, state)
    assert got == {"heard": [{"question": None, "lecturer": True, "answered": None,
                              "canAnswer": False}], "k": 3, "resuming": False}


SILENCE = """async (silentMs) => {
  const made = [];
  const Real = window.EventSource;
  window.EventSource = class {  // a stream that connects and then hears what the test says
    static CLOSED = 2;
    constructor(url) { this.url = url; this.on = {}; made.push(this); }
    addEventListener(type, listener) { this.on[type] = listener; }
    close() { this.closed = true; }
  };
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    document.body.replaceChildren();
    const c = { code: "ABCDEFGH", display: "ABCD-EFGH", role: "student", mode: "follow",
                identified: true,  // its identity made (work.js)
                ended: false, answers: {}, silentMs, ui: cls.build(document.body),
                state: { seq: 4, view_seq: 1, step: 2, question: null } };
    cls.connect(c);
    made[0].on.open();
    for (let beat = 0; beat < 4; beat++) {  // beats, each well within the silence
      await wait(silentMs / 2);
      made[0].on.beat();
      cls.checkSilence(c);
    }
    const kept = made.length;
    await wait(silentMs * 1.5);  // then nothing
    cls.checkSilence(c);
    const text = c.ui.text.textContent;
    made.at(-1).on.open?.();
    return { kept, made: made.length, closed: Boolean(made[0].closed), url: made.at(-1).url,
             text, after: c.ui.text.textContent };
  } finally {
    window.EventSource = Real;
  }
}"""


def test_a_stream_that_goes_silent_is_replaced_from_the_last_event(page):
    got = page.evaluate(SILENCE, 300)
    assert got["kept"] == 1  # beats keep the stream
    assert got["made"] == 2 and got["closed"]  # silence: a new one, the old one closed
    assert "mode=follow" in got["url"] and "after=4" in got["url"]
    assert "reconnecting" in got["text"] and "reconnecting" not in got["after"]


def test_the_servers_beat_is_an_event_a_browser_hands_the_page(page):
    # a comment (": ") would keep a proxy's connection but never reach the page's listener
    page.route(f"{ORIGIN}/beat", lambda route: route.fulfill(
        body=HEARTBEAT_FRAME, headers={"content-type": "text/event-stream"}))
    assert page.evaluate("""() => new Promise((resolve) => {
      const es = new EventSource("/beat");
      const done = (heard) => { es.close(); resolve(heard); };
      es.addEventListener("beat", () => done(true));
      setTimeout(() => done(false), 5000);
    })""")


FAULTS = """async ({ role, status }) => {
  const made = [];
  const Real = window.EventSource;
  window.EventSource = class {  // a stream that hears what the test says
    static CLOSED = 2;
    constructor(url) { this.url = url; this.on = {}; made.push(this); }
    addEventListener(type, listener) { this.on[type] = listener; }
    close() { this.closed = true; }
  };
  const asked = [];
  const realFetch = window.fetch;
  window.fetch = (url, options) => {  // the class's answer: ``status`` to every request
    asked.push(String(url).split("/class/")[1]);
    return Promise.resolve(new Response(JSON.stringify({ error: "x" }), { status }));
  };
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    document.body.replaceChildren();
    const c = { code: "ABCDEFGH", display: "ABCD-EFGH", role, mode: "follow", link: "L",
                identified: true,  // its identity made (work.js)
                key: "K".repeat(43), charter: "C", view: "v", ended: false, answers: {},
                silentMs: 60000, ui: cls.build(document.body), k: 2, sentK: 2, ownSeq: 4,
                over: () => { c.ended = true; },
                state: { seq: 4, view_seq: 1, step: 2, question: null } };
    c.over = () => { c.ended = true; };
    const said = [];
    cls.connect(c);
    made[0].on.open();
    made[0].on.store({ data: '{"ok":false}' });  // the store is away
    said.push(c.ui.text.textContent);
    made[0].on.store({ data: '{"ok":true}' });  // and back, without the class?
    await wait(50);
    said.push(c.ui.text.textContent);
    made[0].on.lead({ data: '{"here":false}' });
    said.push(c.ui.text.textContent);
    made[0].on.state({ data: JSON.stringify({ seq: 9, view_seq: 1, step: 3, question: null,
                                              ended: false }) });
    said.push(c.ui.text.textContent);
    clearInterval(c.touchTimer);
    return { said, asked, ended: c.ended };
  } finally {
    window.EventSource = Real;
    window.fetch = realFetch;
  }
}"""


def test_a_page_says_its_class_reconnects_and_a_lost_class_is_given_back_not_ended(page):
    got = page.evaluate(FAULTS, {"role": "student", "status": 404})
    assert got["said"] == ["The class ABCD-EFGH is reconnecting\u2026",
                           "Following the class ABCD-EFGH",
                           "The lecturer is reconnecting\u2026 This page goes on from their "
                           "step.",
                           "Following the class ABCD-EFGH"]  # a change is the lecturer's word
    assert got["asked"] == [] and not got["ended"]  # a student's page asks nothing
    # the lecturer's page looks, when the store is back, and gives a lost class back
    got = page.evaluate(FAULTS, {"role": "lecturer", "status": 404})
    assert "The class is reconnecting" in got["said"][0]
    assert got["asked"][:2] == ["ABCDEFGH", "ABCDEFGH/restore"] and not got["ended"]
    # one that ended is over
    got = page.evaluate(FAULTS, {"role": "lecturer", "status": 410})
    assert got["asked"] == ["ABCDEFGH"] and got["ended"]
