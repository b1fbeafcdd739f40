// @uses ../stepper_assets/keys.js
// @provides KEPT, clickerKey, decide, mainStepper, barText, placeStep, prepare, showPrepared,
// @provides pageDrawn, holds
// A lecture given from its plan (ui/lecture_plan/): a presenter's clicker, the slide bar,
// and the browser's own copy of the plan in progress. Every title and note is outside text,
// set as text, never as HTML.
//
// Keys: PageDown (and ".") forward, PageUp (and "b") back: the keys presenters' clickers send
// (the stepper takes the arrows, N and Home: controls.js; none of these is one of them);
// a modified key and a field's own are left alone, as the stepper leaves them (keys.js). On a
// slide that covers steps k to m, forward steps the run until m and then opens the next
// slide, as reveal.js goes through a slide's fragments; back steps down to k, then opens the
// slide before. A slide is opened by the server (a run of the page with the slide's view):
// the bar asks for it with its trigger "go" {slide}.

export const KEPT = "plab.lecture.plan";  // localStorage: the plan in progress, as its file
const FORWARD = new Set(["PageDown", "."]);
const BACK = new Set(["PageUp", "b"]);

export function clickerKey(event) {
  // "forward", "back" or null (one the page leaves alone: keys.js)
  if (!pageKey(event)) return null;
  if (FORWARD.has(event.key)) return "forward";
  if (BACK.has(event.key)) return "back";
  return null;
}

export function decide(way, slide, stepper) {
  // what a press does: {step: "step" | "back"} inside the slide's steps, {go: i} to another
  // slide, or null (the lecture's first or last). ``slide``: {at, count, steps: [k, m] | null};
  // ``stepper``: the page's stepper {k, K}, or null (a view with no stepper)
  const { at, count, steps } = slide;
  if (steps && stepper) {
    const [from, to] = steps;
    if (way === "forward" && stepper.k < Math.min(to, stepper.K)) return { step: "step" };
    if (way === "back" && stepper.k > from) return { step: "back" };
  }
  if (way === "forward") return at + 1 < count ? { go: at + 1 } : null;
  return at > 0 ? { go: at - 1 } : null;
}

export function mainStepper() {
  // the page's own stepper (a second one on the page follows it)
  const box = document.querySelector(".pl-stepper:not(.pl-follower)");
  if (!box || box.dataset.step === undefined) return null;
  const slider = box.querySelector(".pl-slider");
  return { box, k: Number(box.dataset.step), K: Number(slider?.max ?? 0) };
}

export function barText(slide) {
  // "slide 4 / 12 · its title"
  const head = `slide ${slide.at + 1} / ${slide.count}`;
  return slide.title ? `${head} \u00b7 ${slide.title}` : head;
}

function press(g, way) {
  const slide = g.data;
  if (!slide || slide.at === null || slide.at === undefined || g.going) return false;
  const stepper = mainStepper();
  const move = decide(way, slide, stepper);
  if (!move) return false;
  if (move.step) {
    // the stepper's own button: its class layer tells the class, as a key would
    stepper.box.querySelector(`.pl-controls .pl-${move.step}`)?.click();
  } else {
    const ahead = showPrepared(g, move.go) ? g.shown.ahead : null;
    g.going = true;  // one slide at a time: the next press waits for that slide's run
    g.bar?.setAttribute("aria-busy", "true");
    g.trigger("go", { slide: move.go, from: slide.at, at: Date.now(), ahead });
  }
  return true;
}

function button(bar, cls, label, way, g) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `pl-button pl-slide-${cls}`;
  b.textContent = label;
  b.addEventListener("click", () => press(g, way));
  bar.append(b);
  return b;
}

function drawBar(g) {
  const slide = g.data;
  if (slide.at === null || slide.at === undefined) {
    g.bar?.remove();
    g.bar = null;
    document.documentElement.style.removeProperty("--pl-slide-bar");
    return;
  }
  if (!g.bar || !g.bar.isConnected) {
    const bar = document.createElement("nav");
    bar.className = "pl-slide-bar";
    bar.setAttribute("aria-label", "Lecture");
    g.parts = {};
    g.parts.back = button(bar, "back", "Previous", "back", g);
    g.parts.text = document.createElement("span");
    g.parts.text.className = "pl-slide-text";
    g.parts.text.setAttribute("role", "status");
    bar.append(g.parts.text);
    g.parts.next = button(bar, "next", "Next", "forward", g);
    g.parts.notes = document.createElement("p");
    g.parts.notes.className = "pl-slide-notes";
    bar.append(g.parts.notes);
    document.body.append(bar);
    g.bar = bar;
    // the bar spans the main area, never the sidebar beside it (open on a laptop or a tablet)
    const main = document.querySelector('[data-testid="stMain"]');
    const place = () => {
      const left = main?.isConnected ? Math.max(0, main.getBoundingClientRect().left) : 0;
      bar.style.left = `${left}px`;
    };
    g.placeBar?.disconnect();
    if (main && typeof ResizeObserver !== "undefined") {
      g.placeBar = new ResizeObserver(place);
      g.placeBar.observe(main);
    }
    place();
  }
  g.bar.dataset.mode = slide.mode;  // "projector", "remote" (a phone), "laptop"
  g.bar.removeAttribute("aria-busy");
  g.parts.text.textContent = barText(slide);
  g.parts.back.disabled = slide.at === 0 && !slide.steps;
  g.parts.next.disabled = slide.at + 1 >= slide.count && !slide.steps;
  g.parts.notes.textContent = slide.notes || "";
  g.parts.notes.hidden = !slide.notes || slide.mode === "projector";
  document.documentElement.style.setProperty("--pl-slide-bar", `${g.bar.offsetHeight}px`);
}

function keep(component) {
  // the browser's copy of the plan in progress: written as the plan changes; read once a
  // session (``ask``), when the server has none, and sent back
  const { data, setStateValue } = component;
  try {
    if (data.ask) {
      const text = localStorage.getItem(KEPT);
      if (text) setStateValue("kept", { text, at: Date.now() });
    } else if (typeof data.text === "string") {
      localStorage.setItem(KEPT, data.text);
    } else if (data.text === null && data.forget) {
      localStorage.removeItem(KEPT);
    }
  } catch (error) { /* no storage: the plan lives as long as the session */ }
}

// A slide opens at its step. A new run opens there by itself (the link's step=); a slide whose
// view is the one before's (the worked example at step 0, then at step 2) keeps the page's
// run and its stepper where it was: once the slide's run is over, the stepper goes to the
// slide's step (its go(), as a press: a class follows).
export function placeStep(g, want) {
  const begin = performance.now();
  const check = () => {
    if (g.data?.run !== want.run) return;  // another slide opened since
    if (!pageStill(document)) {
      if (performance.now() - begin < 20000) setTimeout(check, 100);
      return;
    }
    const found = mainStepper();
    let root = found?.box;
    while (root && !root.__plStepper) root = root.parentElement;
    const s = root?.__plStepper;
    if (s && s.run && found.k !== want.step && want.step <= found.K) s.go(want.step);
  };
  setTimeout(check, 100);
}

// Preparing the next slide: once this slide's page is drawn and still, its address opens in
// a frame out of sight (ui/lecture_plan/opening.py's prepare_link): the server runs its page,
// and its cache keeps the run for the switch. Once its page is drawn the frame stays out of
// sight until the press that opens its slide shows it (showPrepared), or the next slide's
// replaces it.
const PREPARE_AFTER_MS = 1000;  // after this slide's page is still
// a busy server may take long over a slide of 1,000 points: the frame is waited for while its
// slide is the next (another press or the next slide's frame replaces it), two minutes at most
const PREPARE_AT_MOST_MS = 120000;

function pageStill(doc) {
  const app = doc.querySelector('[data-testid="stApp"]');
  return Boolean(app) && app.getAttribute("data-test-script-state") === "notRunning"
    && !doc.querySelector(".pl-rest-pending");
}

export function holds(frame, next) {
  // whether the frame's page is still the slide it was opened on: its lesson, and every
  // parameter its address holds as the slide's link has it (a page drops its defaults from
  // its address, never its data); a page that went elsewhere is never shown as the next
  // slide (the server checks the key's offer by the same rule: opening.py's _is_slide)
  const want = new URL(next, location.href);
  const got = new URL(frame.contentWindow.location.href);
  if (want.pathname.replace(/\/$/, "") !== got.pathname.replace(/\/$/, "")) return false;
  for (const [name, value] of got.searchParams) {
    if (name !== "plan" && want.searchParams.has(name) && want.searchParams.get(name) !== value) return false;
  }
  return [...want.searchParams.keys()].filter((name) => name !== "plan" && name !== "step")
    .every((name) => got.searchParams.has(name) || !["data", "dseed", "pts", "n"].includes(name));
}

export function prepare(g) {
  const next = g.data?.next;
  if (!next || g.prepared === next || window.plNoPrepare) return;
  g.prepared = next;
  clearTimeout(g.prepareTimer);
  const begin = performance.now();
  const wait = () => {
    if (g.prepared !== next) return;
    if (!pageStill(document)) {
      g.prepareTimer = setTimeout(wait, 250);
      return;
    }
    g.prepareTimer = setTimeout(() => {
      if (g.prepared !== next) return;
      g.frame?.remove();
      g.ready = null;
      const frame = document.createElement("iframe");
      frame.className = "pl-prepare";
      // laid out at the window's size, as the slide will be: shown, it is the slide's picture
      frame.style.width = `${innerWidth}px`;
      frame.style.height = `${innerHeight}px`;
      frame.setAttribute("aria-hidden", "true");
      frame.tabIndex = -1;
      frame.title = "The next slide, prepared";
      frame.src = new URL(next, location.href).href;
      document.body.append(frame);
      g.frame = frame;
      const opened = performance.now();
      const done = () => {
        if (g.frame !== frame) return;
        let drawn = false;
        try {
          const doc = frame.contentDocument;
          // its picture drawn (the rest of its page may still come, under the picture)
          drawn = Boolean(doc?.querySelector(".js-plotly-plot .scatterlayer .trace"))
            && doc.querySelector('[data-testid="stApp"]')
              ?.getAttribute("data-test-script-state") === "notRunning";
        } catch (error) { drawn = true; }  // not ours to read: nothing more to wait for
        if (drawn || performance.now() - opened > PREPARE_AT_MOST_MS) {
          window.plPrepared = { next, ms: Math.round(performance.now() - opened),
                                drawn, waited: Math.round(opened - begin) };
          if (drawn && frame.contentDocument && holds(frame, next)) {
            g.ready = next;  // kept, out of sight, to be shown by the press that opens it
          } else {
            frame.remove();
            g.frame = null;
          }
        } else setTimeout(done, 250);
      };
      setTimeout(done, 500);
    }, PREPARE_AFTER_MS);
  };
  wait();
}

// Showing the prepared slide: the press that opens the slide the frame holds brings the
// frame over the page at once (the picture is the slide's own, drawn by the server's run of
// it), while the page runs the slide; the frame goes once the page's own picture is drawn
// and still. Only the bar stays over it; presses wait for the page, as they do for any switch.
const SHOWN_AT_MOST_MS = 30000;

export function showPrepared(g, at) {
  const frame = g.frame;
  if (!frame || !g.ready || g.ready !== g.data?.next || at !== g.data.at + 1) return false;
  if (!holds(frame, g.ready)) {  // its page went elsewhere since: never shown as this slide
    frame.remove();
    g.frame = g.ready = null;
    return false;
  }
  g.frame = null;
  g.ready = null;
  frame.classList.add("pl-prepare-shown");
  const pressed = performance.now();
  requestAnimationFrame(() => {
    window.plShown = { at, ms: Math.round(performance.now() - pressed) };
  });
  g.shown?.frame.remove();
  // what the frame's page offers the class (its view and kept run: stream.js), sent with the
  // key so that the class hears the slide at once
  let ahead = null;
  try {
    ahead = frame.contentWindow.__plAhead ?? null;
  } catch (error) { ahead = null; }
  g.shown = { frame, at, since: pressed, ahead };
  setTimeout(() => unshow(g, frame), SHOWN_AT_MOST_MS);
  return true;
}

function unshow(g, frame) {
  frame.remove();
  if (g.shown?.frame === frame) g.shown = null;
}

export function pageDrawn(doc, step) {
  // the page's own picture: its run done (the rest of a projector's page may still be on its
  // way, under the picture: ui/rest_later.py), its stepper at the slide's step and drawn, or,
  // on a view with no stepper, every chart laid out
  const app = doc.querySelector('[data-testid="stApp"]');
  if (app?.getAttribute("data-test-script-state") !== "notRunning") return false;
  const box = doc.querySelector(".pl-stepper:not(.pl-follower)");
  const laid = (gd) => Boolean(gd._fullLayout) && Boolean(gd.querySelector(".scatterlayer, .heatmaplayer, .barlayer, .contourlayer, .main-svg"));
  if (box) {
    return Number(box.dataset.step) === step && laid(box.querySelector(".js-plotly-plot") ?? {});
  }
  return [...doc.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')].every(laid);
}

function unshowOnceDrawn(g, want) {
  const shown = g.shown;
  if (!shown || shown.at !== want.at) return;
  const check = () => {
    if (g.shown !== shown) return;
    if (pageDrawn(document, want.step)) {
      // two frames: the page's picture painted under the frame before the frame goes
      requestAnimationFrame(() => requestAnimationFrame(() => unshow(g, shown.frame)));
    } else setTimeout(check, 100);
  };
  setTimeout(check, 100);
}

export default function (component) {
  const { data } = component;
  const box = component.parentElement;
  if (box) box.__plBar = true;  // its code has run (a page is drawn only then)
  if (data.keep) {
    keep(component);
    return;
  }
  const g = (window.__plPlan ??= { bar: null, data: null, going: false });
  const fresh = !g.data || g.data.at !== data.at || g.data.run !== data.run;
  g.data = data;
  g.trigger = component.setTriggerValue;
  if (fresh) g.going = false;
  if (fresh && data.at !== null && data.at !== undefined) {
    placeStep(g, { run: data.run, step: data.step ?? 0 });
    unshowOnceDrawn(g, { at: data.at, step: data.step ?? 0 });
  }
  if (!g.listening) {
    g.listening = true;
    window.addEventListener("keydown", (event) => {
      const way = clickerKey(event);
      if (!way || !g.data || g.data.at === null || g.data.at === undefined) return;
      if (press(g, way) || event.key.startsWith("Page")) event.preventDefault();
    }, true);
  }
  drawBar(g);
  prepare(g);
}
