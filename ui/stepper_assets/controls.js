// @uses dom.js overlay.js keys.js ids.js
// @provides NARROW, buildControls, showMore, placeControls, advertiseKeys, showPosition, keyAction,
// @provides Player, listenMore, listenControls, markRun
// The controls over the chart (Back, Step, Next mistake, Reset, Play at a speed, the Predict
// toggle, the slider), the keys that press them, and Play.

const SPEEDS = [1, 2, 5, 10, 30];
const KEYS = { ArrowRight: "step", ArrowLeft: "back", n: "next", N: "next", Home: "reset" };

// Icons drawn as paths: a glyph such as the pause sign is missing from many fonts (an empty
// box on a projector's machine, or in the exported page)
const ICONS = {
  back: "M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z",
  step: "M4 11h12.2l-5.6-5.6L12 4l8 8-8 8-1.4-1.4 5.6-5.6H4z",
  next: "M5 18l8.5-6L5 6v12zM16 6v12h2.5V6H16z",
  reset: "M12 5V1L7 6l5 5V7c3.3 0 6 2.7 6 6s-2.7 6-6 6-6-2.7-6-6H4c0 4.4 3.6 8 8 8s8-3.6 8-8-3.6-8-8-8z",
  play: "M8 5v14l11-7z",
  pause: "M6 19h4V5H6v14zm8-14v14h4V5h-4z",
  more: "M6 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4z",
};

// A phone (the page's own width, ui/theme.py's PHONE): the chart first, one row of controls
export const NARROW = "(max-width: 640px)";

function icon(name) {
  const svg = el("svg", { class: "pl-icon", viewBox: "0 0 24 24", "aria-hidden": "true" });
  el("path", { d: ICONS[name] }, svg);
  return svg;
}

function labelButton(button, name, label) {
  // the icon and a word; the word may be hidden (lecture layout) but the name stays
  button.textContent = "";
  button.appendChild(icon(name));
  html("span", { class: "pl-label" }, button, label);
  button.setAttribute("aria-label", label);
  button.title = label;
}

export function buildControls(box) {
  // the toolbar, appended to box; its parts by name
  const bar = html("div", { class: "pl-controls", role: "toolbar", "aria-label": "Step controls" }, box);
  const button = (name, label, key, keyName, primary = false) => {
    const b = html("button", { type: "button", class: `pl-button pl-${name}${primary ? " pl-primary" : ""}`,
                               "data-action": name }, bar);
    labelButton(b, name, label);
    // its key, advertised only while this stepper owns the keys (advertiseKeys)
    if (key) Object.assign(b.dataset, { key, keyName, label });
    return b;
  };
  const ui = {};
  ui.back = button("back", "Back", "ArrowLeft", "\u2190");
  ui.step = button("step", "Step", "ArrowRight", "\u2192", true);
  ui.next = button("next", "Next mistake", "N", "N");
  ui.reset = button("reset", "Reset", "Home", "Home");
  ui.play = button("play", "Play", null, null);
  // on a phone the speed and Predict wait behind More (stepper.css), a disclosure
  const id = newId("pl-more");
  ui.more = html("button", { type: "button", class: "pl-button pl-more", "aria-expanded": "false",
                             "aria-controls": `${id}-speed ${id}-predict` }, bar);
  labelButton(ui.more, "more", "More controls");
  ui.more.title = "More controls: the speed of Play, Predict";
  ui.speed = html("select", { class: "pl-speed pl-extra", id: `${id}-speed`,
                              "aria-label": "Play speed (steps per second)",
                              title: "Play speed (steps per second)" }, bar);
  SPEEDS.forEach((v) => html("option", { value: String(v) }, ui.speed, `${v} / s`));
  ui.speed.value = "5";
  const predictLabel = html("label", { class: "pl-toggle pl-extra", id: `${id}-predict`,
                                       title: "Predict each step before it is shown" }, bar);
  ui.predictLabel = predictLabel;
  ui.predict = html("input", { type: "checkbox", "data-action": "predict" }, predictLabel);
  predictLabel.appendChild(document.createTextNode(" Predict"));
  ui.slider = html("input", { type: "range", class: "pl-slider", min: "0", value: "0",
                              "aria-label": "Step" }, bar);
  ui.bar = bar;
  return ui;
}

export function showMore(ui, open) {
  // More's disclosure open or shut (it shows only on a phone: stepper.css)
  ui.more.setAttribute("aria-expanded", String(open));
  if (open) ui.bar.dataset.more = "open";
  else delete ui.bar.dataset.more;
}

export function placeControls(ui, narrow) {
  // A phone: the chart first, the status line under it, then the slider, one row of the main
  // controls and Predict's score, then the maths. Elsewhere the controls with their slider,
  // the status and the score over the chart. The elements move (not only their look), so
  // that the keyboard's order is the order on screen. Returns whether anything moved.
  const { bar, slider, status, score, announce, planeHost } = ui;
  if (narrow === (slider.parentElement !== bar)) return false;
  const focused = document.activeElement;
  if (narrow) planeHost.after(status, slider, bar, score);
  else {
    bar.append(slider);
    announce.before(bar, status);
    announce.after(score);
  }
  if (focused instanceof HTMLElement && focused !== document.activeElement) focused.focus();
  return true;
}

export function advertiseKeys(box, owns) {
  // A stepper that does not own the keys (a second one on the page) names none: its
  // buttons' tooltips and aria-keyshortcuts would send a press elsewhere
  for (const b of box.querySelectorAll(".pl-controls [data-key]")) {
    b.title = owns ? `${b.dataset.label} (key: ${b.dataset.keyName})` : b.dataset.label;
    if (owns) b.setAttribute("aria-keyshortcuts", b.dataset.key);
    else b.removeAttribute("aria-keyshortcuts");
  }
}

export function showPosition(ui, k, K, playing) {
  // the controls at step k of K: what can be pressed, the slider, Play or Pause
  ui.slider.value = String(k);
  ui.slider.setAttribute("aria-valuetext", `Step ${k} of ${K}`);
  ui.back.disabled = k === 0;
  ui.reset.disabled = k === 0;
  ui.step.disabled = k === K;
  ui.next.disabled = k === K;
  if (playing !== (ui.play.dataset.playing === "1")) {
    ui.play.dataset.playing = playing ? "1" : "0";
    labelButton(ui.play, playing ? "pause" : "play", playing ? "Pause" : "Play");
  }
}

export function keyAction(event) {
  // the action a key press asks for, or null (one the page leaves alone: keys.js)
  const action = KEYS[event.key];
  return action && pageKey(event) ? action : null;
}

export class Player {
  // Play: one step every 1 / speed seconds, on animation frames, until the end or a stop;
  // step() moves on and says whether it is the last
  constructor(speed, step) {
    this.speed = speed;
    this.step = step;
    this.playing = null;
  }

  start() {
    const playing = { last: performance.now(), frame: 0 };
    this.playing = playing;
    const tick = (now) => {
      if (this.playing !== playing) return;
      const every = 1000 / Number(this.speed.value);
      if (now - playing.last >= every) {
        playing.last = now;
        if (this.step()) {
          this.stop();
          return;
        }
      }
      playing.frame = requestAnimationFrame(tick);
    };
    playing.frame = requestAnimationFrame(tick);
  }

  stop() {
    if (this.playing) cancelAnimationFrame(this.playing.frame);
    this.playing = null;
  }
}

export function listenMore(ui) {
  // More opens and shuts its disclosure; Escape shuts it and gives the focus back to More.
  // Returns what stops it listening.
  const onMore = () => showMore(ui, ui.more.getAttribute("aria-expanded") !== "true");
  const onBarKey = (event) => {
    if (event.key !== "Escape" || ui.more.getAttribute("aria-expanded") !== "true") return;
    event.preventDefault();
    showMore(ui, false);
    ui.more.focus();
  };
  ui.more.addEventListener("click", onMore);
  ui.bar.addEventListener("keydown", onBarKey);
  return () => {
    ui.more.removeEventListener("click", onMore);
    ui.bar.removeEventListener("keydown", onBarKey);
  };
}

export function listenControls(s, ownsKeys) {
  // A stepper's own controls: its buttons, slider and Predict box, its keys where it owns
  // them, More, and the controls' place when the window turns narrow or wide. ``s`` is the
  // stepper (its ui, act, go, player, predict). Returns what stops it listening.
  const { ui } = s;
  const onClick = (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action && action !== "predict") s.act(action);
  };
  const onSlider = () => {
    s.player.stop();
    s.predict.close();
    s.go(Number(ui.slider.value));
  };
  const onPredict = () => s.predict.toggled(s.ownsKeys);
  const onKey = (event) => {
    const action = keyAction(event);
    if (!action || !s.root.isConnected) return;
    event.preventDefault();
    event.stopPropagation();
    s.act(action);
  };
  // a phone turned wide, or a window narrowed to one: the controls take their place there
  const narrow = window.matchMedia(NARROW);
  const onNarrow = () => {
    if (!placeControls(ui, narrow.matches)) return;
    showMore(ui, false);
    s.relayout();
  };
  narrow.addEventListener("change", onNarrow);
  onNarrow();
  const stopMore = listenMore(ui);
  ui.box.addEventListener("click", onClick);
  ui.slider.addEventListener("input", onSlider);
  ui.predict.addEventListener("change", onPredict);
  if (ownsKeys) window.addEventListener("keydown", onKey, true);
  return () => {
    narrow.removeEventListener("change", onNarrow);
    stopMore();
    ui.box.removeEventListener("click", onClick);
    ui.slider.removeEventListener("input", onSlider);
    ui.predict.removeEventListener("change", onPredict);
    window.removeEventListener("keydown", onKey, true);
  };
}

export function markRun(root) {
  // The page's boxes that hold this stepper, each in its column of boxes: on a phone the page
  // puts the Keys and Share row and the lesson's settings drawn over the run under it
  // (stepper.css). Marks that Streamlit's own drawing of the page leaves alone.
  for (let node = root; node.parentElement; node = node.parentElement) {
    const up = node.parentElement;
    if (up.dataset.testid === "stMainBlockContainer") break;
    if (up.dataset.testid === "stVerticalBlock" && !("plRun" in node.dataset)) {
      node.dataset.plRun = "";
    }
  }
}
