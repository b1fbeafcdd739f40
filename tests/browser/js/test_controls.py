"""controls.js: the toolbar, what each key asks for, the controls at a step, and Play."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

BUILD = """() => {
  const box = pl.html("div", { class: "pl-stepper" }, document.body);
  const ui = pl.buildControls(box);
  window.controls = { box, ui };
  const bar = box.querySelector(".pl-controls");
  return { parts: Array.from(bar.children, (n) => n.getAttribute("class") || n.tagName),
           actions: Array.from(bar.querySelectorAll("[data-action]"), (n) => n.dataset.action),
           labels: Array.from(bar.querySelectorAll("button"), (n) => n.getAttribute("aria-label")),
           speeds: Array.from(ui.speed.options, (o) => o.value), speed: ui.speed.value,
           names: Object.keys(ui) };
}"""


def test_the_toolbar(js):
    got = js.evaluate(BUILD)
    assert got["parts"] == ["pl-button pl-back", "pl-button pl-step pl-primary",
                            "pl-button pl-next", "pl-button pl-reset", "pl-button pl-play",
                            "pl-button pl-more", "pl-speed pl-extra", "pl-toggle pl-extra",
                            "pl-slider"]
    assert got["actions"] == ["back", "step", "next", "reset", "play", "predict"]
    assert got["labels"] == ["Back", "Step", "Next mistake", "Reset", "Play", "More controls"]
    assert got["speeds"] == ["1", "2", "5", "10", "30"] and got["speed"] == "5"
    assert got["names"] == ["back", "step", "next", "reset", "play", "more", "speed",
                            "predictLabel", "predict", "slider", "bar"]


def test_keys_are_named_only_by_the_stepper_that_owns_them(js):
    js.evaluate(BUILD)
    got = js.evaluate("""() => {
      const read = () => Array.from(controls.box.querySelectorAll(".pl-controls button"),
        (b) => [b.title, b.getAttribute("aria-keyshortcuts")]);
      pl.advertiseKeys(controls.box, true);
      const owned = read();
      pl.advertiseKeys(controls.box, false);
      return [owned, read()];
    }""")
    assert got == [
        [["Back (key: ←)", "ArrowLeft"], ["Step (key: →)", "ArrowRight"],
         ["Next mistake (key: N)", "N"], ["Reset (key: Home)", "Home"], ["Play", None],
         ["More controls: the speed of Play, Predict", None]],
        [["Back", None], ["Step", None], ["Next mistake", None], ["Reset", None],
         ["Play", None], ["More controls: the speed of Play, Predict", None]]]


@pytest.mark.parametrize(("k", "playing", "disabled", "play"), [
    (0, False, ["back", "reset"], "Play"), (4, True, [], "Pause"),
    (10, False, ["step", "next"], "Play")])
def test_the_controls_at_a_step(js, k, playing, disabled, play):
    js.evaluate(BUILD)
    got = js.evaluate("""([k, playing]) => {
      const { ui } = controls;
      pl.showPosition(ui, k, 10, playing);
      return { disabled: ["back", "step", "next", "reset"].filter((n) => ui[n].disabled),
               slider: [ui.slider.value, ui.slider.getAttribute("aria-valuetext")],
               play: [ui.play.getAttribute("aria-label"), ui.play.textContent,
                      ui.play.querySelector("path").getAttribute("d").slice(0, 6)] };
    }""", [k, playing])
    assert got["disabled"] == disabled
    assert got["slider"] == [str(k), f"Step {k} of 10"]
    assert got["play"] == [play, play, "M6 19h" if playing else "M8 5v1"]


KEY = """([key, modifier, where]) => {
  document.body.replaceChildren();
  const box = pl.html("div", { class: "pl-stepper" }, document.body);
  const targets = {
    page: document.body,
    slider: pl.buildControls(box).slider,
    checkbox: box.querySelector("input[type=checkbox]"),
    text: pl.html("input", { type: "text" }, document.body),
    number: pl.html("input", { type: "number" }, document.body),
    area: pl.html("textarea", {}, document.body),
    select: pl.html("select", {}, document.body),
    widget: pl.html("div", { role: "slider", tabindex: "0" }, document.body),
    editable: pl.html("div", { contenteditable: "true" }, document.body),
    range: pl.html("input", { type: "range" }, document.body),
  };
  let action;
  window.addEventListener("keydown", (event) => { action = pl.keyAction(event); }, { once: true });
  targets[where].dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true,
                                                              [modifier]: Boolean(modifier) }));
  return action;
}"""


@pytest.mark.parametrize(("key", "action"), [
    ("ArrowRight", "step"), ("ArrowLeft", "back"), ("n", "next"), ("N", "next"),
    ("Home", "reset"), ("End", None), ("x", None), (" ", None)])
def test_each_key_asks_for_its_action(js, key, action):
    assert js.evaluate(KEY, [key, "", "page"]) == action


@pytest.mark.parametrize(("modifier", "where", "action"), [
    ("ctrlKey", "page", None), ("metaKey", "page", None), ("altKey", "page", None),
    ("shiftKey", "page", "step"), ("", "slider", "step"), ("", "checkbox", "step"),
    ("", "range", "step"), ("", "text", None), ("", "number", None), ("", "area", None),
    ("", "select", None), ("", "widget", None), ("", "editable", None)])
def test_a_key_typed_in_a_field_or_with_a_modifier_is_left_alone(js, modifier, where, action):
    assert js.evaluate(KEY, ["ArrowRight", modifier, where]) == action


def test_play_steps_at_its_speed_until_the_last_step_or_a_stop(js):
    got = js.evaluate("""async () => {
      const speed = pl.html("select", {}, document.body);
      pl.html("option", { value: "30" }, speed, "30");
      const frames = (n) => new Promise((done) => {
        const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
        next(n);
      });
      let k = 0;
      const ended = new pl.Player(speed, () => (k += 1) === 3);
      ended.start();
      const until = performance.now() + 5000;
      while (ended.playing && performance.now() < until) await frames(1);
      const atEnd = [k, ended.playing];
      let m = 0;
      const stopped = new pl.Player(speed, () => { m += 1; return false; });
      stopped.start();
      while (m < 2 && performance.now() < until) await frames(1);
      stopped.stop();
      const atStop = m;
      await frames(10);
      return [atEnd, atStop, m, stopped.playing];
    }""")
    assert got[0] == [3, None]  # three steps, the last one ends it
    assert got[1] >= 2 and got[2] == got[1] and got[3] is None  # no step after a stop


def test_more_opens_and_shuts_and_the_controls_take_their_place_on_a_phone(js):
    """More's disclosure says whether it is open; on a phone the slider, the status line and the
    controls follow the chart, in the page's order (the keyboard's), and come back."""
    js.evaluate(BUILD)
    got = js.evaluate("""() => {
      const { box, ui } = controls;
      Object.assign(ui, { box, status: pl.html("div", { class: "pl-status" }, box),
                          announce: pl.html("div", { class: "pl-announce" }, box),
                          score: pl.html("div", { class: "pl-score" }, box) });
      const body = pl.html("div", { class: "pl-body" }, box);
      ui.planeHost = pl.html("div", { class: "pl-plane" }, body);
      pl.html("div", { class: "pl-side" }, body);
      const order = () => Array.from(box.querySelectorAll("*"))
        .map((n) => String(n.getAttribute("class")).split(" ")[0])
        .filter((name) => ["pl-controls", "pl-slider", "pl-status", "pl-score", "pl-body",
                           "pl-plane", "pl-side"].includes(name));
      const wide = order();
      const moved = [pl.placeControls(ui, true), pl.placeControls(ui, true)];
      const narrow = order();
      pl.showMore(ui, true);
      const open = [ui.more.getAttribute("aria-expanded"), ui.bar.dataset.more];
      pl.showMore(ui, false);
      const shut = [ui.more.getAttribute("aria-expanded"), ui.bar.dataset.more ?? null];
      pl.placeControls(ui, false);
      return { wide, moved, narrow, open, shut, back: order(),
               controls: ui.more.getAttribute("aria-controls").split(" ")
                 .map((id) => document.getElementById(id).className) };
    }""")
    assert got["wide"] == ["pl-controls", "pl-slider", "pl-status", "pl-score", "pl-body",
                           "pl-plane", "pl-side"]
    assert got["moved"] == [True, False]
    assert got["narrow"] == ["pl-body", "pl-plane", "pl-status", "pl-slider", "pl-controls",
                             "pl-score", "pl-side"]
    assert got["open"] == ["true", "open"] and got["shut"] == ["false", None]
    assert got["back"] == got["wide"]
    assert got["controls"] == ["pl-speed pl-extra", "pl-toggle pl-extra"]


# a toolbar listened to for a stand-in stepper that notes what it is asked (listenControls)
LISTEN = """(owns) => {
  document.querySelector("#listened")?.remove();
  const box = pl.html("div", { class: "pl-stepper", id: "listened" }, document.body);
  const ui = pl.buildControls(box);
  Object.assign(ui, { box, status: pl.html("div", { class: "pl-status" }, box),
                      score: pl.html("div", { class: "pl-score" }, box) });
  ui.planeHost = pl.html("div", { class: "pl-plane" },
                         pl.html("div", { class: "pl-body" }, box));
  const calls = [];
  const note = (...call) => calls.push(call.join(" "));
  const s = { ui, root: box, ownsKeys: owns, act: (a) => note("act", a),
              go: (k) => note("go", k), relayout: () => note("relayout"),
              player: { stop: () => note("stop") },
              predict: { close: () => note("close"), toggled: (o) => note("toggled", o) } };
  window.listened = { calls, stop: pl.listenControls(s, owns) };
}"""


@pytest.mark.parametrize("owns", [True, False])
def test_the_controls_and_the_keys_ask_the_stepper_until_it_stops_listening(js, owns):
    js.evaluate(LISTEN, owns)
    js.click("#listened .pl-step")
    js.click("#listened .pl-next")
    js.click("#listened .pl-more")  # More opens its disclosure; it asks the stepper nothing
    js.click("#listened .pl-toggle input")
    js.evaluate("""() => { const slider = document.querySelector("#listened .pl-slider");
                           slider.value = "0"; slider.dispatchEvent(new Event("input")); }""")
    js.keyboard.press("ArrowRight")
    calls = js.evaluate("() => listened.calls.splice(0)")
    assert calls == ["act step", "act next", f"toggled {str(owns).lower()}", "stop", "close",
                     "go 0", *(["act step"] if owns else [])]

    js.evaluate("() => listened.stop()")
    js.click("#listened .pl-step")
    js.keyboard.press("ArrowRight")
    assert js.evaluate("() => listened.calls") == []
