"""sync.js: when the page reports the step, against the hall benchmark's schedule of it."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench.load import sync_times

pytestmark = pytest.mark.browser

# presses at whole milliseconds on a clock of the test's own; a timer due at a press's very
# millisecond fires before it (as bench.load.sync_times breaks that tie)
SCHEDULE = """(presses) => {
  let now = 0;
  let timer = null;
  let k = 0;
  const sent = [];
  const clock = { now: () => now, later: (f, ms) => (timer = { f, at: now + ms }),
                  cancel: (t) => { if (t && t === timer) timer = null; } };
  const sync = new pl.Sync(() => ({ run: "r", k }), (p) => sent.push([now, p.k, p.run]), clock);
  sync.start(0);
  for (const t of [...presses, Infinity]) {
    while (timer && timer.at <= t) {
      const { f, at } = timer;
      now = at;
      timer = null;
      f();
    }
    if (t === Infinity) break;
    now = t;
    k += 1;
    sync.queue();
  }
  return sent;
}"""


@settings(max_examples=60, deadline=None)
@given(presses=st.lists(st.integers(0, 30_000), max_size=25, unique=True).map(sorted))
@example(presses=[0, 500])  # the second press lands on the first's idle limit
@example(presses=[0, 100, 200])
@example(presses=[0, 3000, 6000])
def test_reports_leave_when_the_benchmarks_students_send_them(js, presses):
    got = js.evaluate(SCHEDULE, presses)
    assert [(t, k) for t, k, _ in got] == [
        (round(t * 1000), k) for t, k in sync_times([p / 1000 for p in presses])]
    assert all(run == "r" for *_, run in got)


def test_a_report_goes_only_when_the_server_does_not_know_the_step(js):
    got = js.evaluate("""() => {
      let k = 3;
      let run = true;
      const sent = [];
      const sync = new pl.Sync(() => (run ? { run: "r", k } : null), (p) => sent.push(p.k));
      sync.start(3);
      sync.flush();          // the server opened the run at 3
      k = 4;
      sync.flush();
      sync.flush();          // sent already
      run = false;
      k = 5;
      sync.flush();          // no run, nothing to say
      return sent;
    }""")
    assert got == [4]


def test_leaving_hiding_or_clicking_elsewhere_reports_at_once(js):
    got = js.evaluate("""() => {
      let k = 0;
      const sent = [];
      const clock = { now: () => 0, later: () => "pending", cancel: () => {} };
      const sync = new pl.Sync(() => ({ run: "r", k }), (p) => sent.push(p.k), clock);
      sync.start(0);
      const box = pl.html("div", {}, document.body);
      const inside = pl.html("button", {}, box);
      const stop = sync.listen(box);
      const press = () => { k += 1; sync.queue(); };
      press();
      inside.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));  // its own
      press();
      document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
      press();
      window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
      press();
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
      delete document.visibilityState;
      press();
      stop();
      window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
      return sent;
    }""")
    assert got == [2, 3, 4]  # a click inside the stepper waits; after stop nothing listens
