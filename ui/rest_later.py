"""On a projector, a lesson's picture before the rest of its page.

The frontend builds every element a script sends before it draws the charts among them: a
lesson whose first part holds equations (KaTeX), a table's grid or a code listing kept its
picture waiting for them (bench/README.md, "A lesson opens"). So in lecture mode a page's first
run in a session ends once its first picture is sent (:func:`pending` says whether this run
does, :func:`end_here` ends it), with a small component that waits for the browser to draw
that picture and then asks for the whole page: the second run sends the rest, which the
frontend builds while the room already sees the picture. Later runs of the page (a step's
report, a setting) draw it whole at once. Elsewhere (a phone, a laptop) every run is whole,
but for a student's page that opens a class's link: its first run is the view's first screen
(ui.first_screen), and it asks for its rest the same way, at a random moment within a spread
the server gives it (:func:`ask`), sooner when its reader reaches for more.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable

import streamlit as st

from ui.lecture import lecture_mode

KEY = "pl-rest"
_DRAWN = "pl-rest.drawn"  # the pages whose first picture this session has drawn
# the rest is asked for this long after the component mounts, drawn or not, once the page is
# still (a picture that cannot be drawn never holds the page's rest back)
WAIT_MS = 4000
# and not before the page has been still this long: no run, no input (see the script)
QUIET_MS = 600
# nor while a request the page sent has had no run begin after it, for this long at most
ANSWER_MS = 8000
# The browser's side: once the main area shows a chart with its points (a stepper's plane or
# a page chart), one frame for the picture's paint, then the rest. Its mark (.pl-rest-pending)
# says to a test that more of the page is on its way, and window.plRest why it asked.
JS = """
export default function (component) {
  const { parentElement: box, setTriggerValue, data } = component;
  if (box.__plRest) return;
  const state = (box.__plRest = { asked: false });
  const mark = document.createElement("span");
  mark.className = "pl-rest-pending";
  mark.hidden = true;
  box.append(mark);
  const start = performance.now();
  const drawn = () => document.querySelector(
    '[data-testid="stMain"] .js-plotly-plot .scatterlayer .trace');
  // Asked only once the page has been still for QUIET_MS: no run under way or just ended, no
  // click, key or change. A request carries the page's widget values: sent while a run the
  // reader asked for (a button's) is on its way, or before the page has taken in the values
  // that run's callback set, it would have the server undo them (the notes' example's start
  // reverted); and the page says a run is under way only once the server has answered.
  // Nor while a request the page sent (a button's run, a widget's value) has had no run begin
  // after it: on a loaded server its answer comes after QUIET_MS, and until it does the
  // page's widget values are older than the server's (the notes' example's start was lost on
  // a projector pressed at once, at a load of 11 on 2 cores). Every message the page sends
  // over its sockets is a request for a run (Streamlit's heartbeat is a host's, asked by a
  // frame's parent); one that none follows holds the rest back ANSWER_MS at most.
  const sent = (window.__plSent ??= (() => {
    const last = { at: -Infinity };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (...args) {
      last.at = performance.now();
      return send.apply(this, args);
    };
    return last;
  })());
  let touched = performance.now();
  let began = -Infinity;  // when the page last saw a run begin
  const touch = () => { touched = performance.now(); };
  const inputs = ["pointerdown", "keydown", "change"];
  for (const name of inputs) document.addEventListener(name, touch, { capture: true });
  const app = document.querySelector('[data-testid="stApp"]');
  const runs = new MutationObserver(() => {
    touch();
    if (app.getAttribute("data-test-script-state") === "running") began = performance.now();
  });
  if (app) runs.observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
  // asked, or its page left: the listeners go and nothing more is asked
  const over = () => {
    if (!state.asked && box.isConnected) return false;
    for (const name of inputs) document.removeEventListener(name, touch, { capture: true });
    for (const name of reach) document.removeEventListener(name, hurry, { capture: true });
    runs.disconnect();
    return true;
  };
  const answered = () => began >= sent.at || performance.now() - sent.at > data.answer;
  const idle = () => performance.now() - touched > data.quiet && answered()
    && app?.getAttribute("data-test-script-state") === "notRunning";
  const ask = (why) => {
    if (over()) return;
    if (!idle()) return void setTimeout(() => ask(why), 50);
    state.asked = true;
    window.plRest = { page: data.page, why };
    setTriggerValue("drawn", data.page);
    over();
  };
  // a burst's pages ask at random moments over data.spread ms, so that their rests come
  // spread out; a page whose reader reaches for more (a tap, a key, a scroll) asks once still
  let later = Math.random() * (data.spread || 0);
  const hurry = () => { later = 0; };
  const reach = ["pointerdown", "keydown", "wheel", "scroll"];
  for (const name of reach) document.addEventListener(name, hurry, { capture: true, once: true });
  const after = (why) => {
    const at = performance.now() + later;
    const wait = () => {
      if (over()) return;
      if (later && performance.now() < at) return void setTimeout(wait, 100);
      ask(why);
    };
    wait();
  };
  const look = () => {
    if (over()) return;
    if (drawn()) requestAnimationFrame(() => setTimeout(() => after("drawn"), 0));
    else if (performance.now() - start > data.wait) after("waited");
    else setTimeout(look, 50);
  };
  look();
}
"""

_mount = st.components.v2.component("perceptron_lab.rest_later", js=JS, isolate_styles=False)


def pending(page: str) -> bool:
    """Whether this run of ``page`` ends at its first picture (lecture mode, its first run in
    this session: no picture of it drawn yet)."""
    return lecture_mode() and page not in st.session_state.get(_DRAWN, ())


def _on_drawn() -> None:
    page = (st.session_state.get(KEY) or {}).get("drawn")
    if isinstance(page, str):
        st.session_state[_DRAWN] = {*st.session_state.get(_DRAWN, ()), page}


def ask(page: str, spread_ms: int = 0) -> None:
    """Ask for the whole of ``page`` once the browser has drawn its first picture, and a random
    moment up to ``spread_ms`` later (a class's burst of first screens: ui.first_screen)."""
    _mount(key=KEY, data={"page": page, "wait": WAIT_MS, "quiet": QUIET_MS, "answer": ANSWER_MS,
                          "spread": max(0, int(spread_ms))},
           on_drawn_change=_on_drawn, height=0)


# what a run that ends at its picture does before it ends, set by what runs the page around it
# (ui/classroom/page.py: the class hears a lecturer's new view at once, not with the rest,
# which a busy page may ask for seconds later); a run once stopped can draw nothing more
BEFORE_END: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "pl_rest_before_end", default=None)


def end_here(page: str) -> None:
    """End this run of ``page`` here, its first picture sent, when :func:`pending`: the browser
    asks for the rest once it has drawn the picture (:data:`BEFORE_END` first)."""
    if not pending(page):
        return
    ask(page)
    before = BEFORE_END.get()
    if before is not None:
        before()
    st.stop()
