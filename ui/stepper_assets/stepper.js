// @uses dom.js wire.js overlay.js status.js sync.js controls.js predict.js plotly.js fit.js
// @uses figure.js scheme.js
// @provides LAYERS, GLIDE_MS, newId
// The stepper: one recorded run, stepped through in the page. The run arrives once as bytes
// (wire.js); a press changes k at once and redraws, once per frame, the status line
// (status.js), the controls (controls.js) and every layer the run wants. The points are drawn
// once by Plotly; the layers draw the moving parts over them. The server hears k only after
// the student stops (sync.js). ui/stepper.py joins the modules this one uses ahead of it, and
// the layers after it.

// A layer draws one part of the step, in a module of its own (layers/) that adds it here;
// ui/stepper.py's JS_LAYERS says in which order they are built and drawn. A layer is
//   { name, wants(header), build(ui), load(part, run), plot(part, run, Plotly, config),
//     draw(part, view), arrange(part, view), listen(part, view, stepper), stepped(part, view) }
// with all but name optional:
// - build(ui) makes the layer's own elements, once per stepper (ui: the stepper's parts, such
//   as ui.side beside the plane), and returns what the layer keeps: its part;
// - load(part, run) runs for every layer at each new run, to show or hide itself;
// - the others run only for a run the layer wants (wants(header), by default yes): plot draws
//   the layer's own chart (a promise; part.chart is then resized with the stepper); draw shows
//   step view.k (view: the run, k, pair, ownsKeys, glide, the milliseconds a move of the
//   boundary takes, 0 when the system asks for reduced motion, and plane, the plane's overlay
//   and axes, once it is drawn); arrange places the layer after a resize; listen returns what
//   stops it listening; stepped follows each move, before it is drawn.
export const LAYERS = [];
export const GLIDE_MS = 300;  // how long a move of the boundary takes (view.glide)

export const newId = () => `pl-${Math.random().toString(36).slice(2)}`;

class Stepper {
  constructor(root) {
    Object.assign(this, { root, k: 0, K: 0, run: null, digest: null, runId: null, frame: 0,
                          pair: false, ownsKeys: undefined, stop: null, active: [] });
    this.ui = this.build(root);
    this.still = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.overlay = new Overlay(this.ui.planePlot, newId());
    this.player = new Player(this.ui.speed, () => {
      this.go(this.k + 1);
      if (this.k !== this.K) return false;
      this.schedule();
      return true;
    });
    this.predict = new Predict(this.ui.quiz, this.ui.score, this.ui.predict, (k) => this.go(k), {
      announce: this.ui.announce,
      resume: () => [this.ui.step, this.ui.slider].find((control) => !control.disabled) });
    // a follower's step is its leader's: only the leader reports
    const position = () => (this.run && !this.run.header.follow
      ? { run: this.runId, k: this.k } : null);
    this.sync = new Sync(position, (where) => this.setStateValue("position", where));
  }

  build(root) {
    // appended, not replacing: the parent also holds the component's <style>
    const box = html("div", { class: "pl-stepper" }, root);
    const ui = { box, ...buildControls(box) };
    // the visible line says where the run is; a screen reader hears, from a live region of
    // its own, what each step means (announceText)
    ui.status = html("div", { class: "pl-status" }, box);
    ui.announce = html("div", { class: "pl-announce", role: "status", "aria-live": "polite" },
                       box);
    ui.score = html("div", { class: "pl-score", hidden: "" }, box);
    const body = html("div", { class: "pl-body" }, box);
    // the plane as a figure named by its words (describeBoundary), which follow every step; a
    // figure, not an img, since it holds the chart's toolbar, whose buttons a keyboard reaches
    ui.planeHost = html("div", { class: "pl-chart pl-plane", role: "figure" }, body);
    ui.side = html("div", { class: "pl-side" }, body);
    ui.quiz = html("div", { class: "pl-quiz", hidden: "", role: "group",
                            "aria-label": "Predict the next step" }, ui.side);
    ui.planePlot = html("div", { class: "pl-plot" }, ui.planeHost);
    this.parts = new Map(LAYERS.map((layer) => [layer, layer.build?.(ui) ?? {}]));
    placeControls(ui, window.matchMedia(NARROW).matches);
    return ui;
  }

  load(run) {
    // on a dark page, the run's figures and colours made for it (figure.js's darkHeader)
    run.lightHeader ??= run.header;
    this.dark = darkPage(this.ui.box);
    run.header = this.dark ? darkHeader(run.lightHeader, themeOf(this.ui.box)) : run.lightHeader;
    const { header: h } = run;
    const { box } = this.ui;
    const sameRun = this.runId === h.run;
    this.run = run;
    this.digest = h.digest;
    this.K = h.steps;
    this.k = sameRun ? Math.min(this.k, this.K) : Math.min(Math.max(h.start, 0), this.K);
    this.runId = h.run;
    if (!sameRun) this.sync.start(this.k);
    box.classList.toggle("pl-lecture", Boolean(h.lecture));
    box.classList.toggle("pl-dark", this.dark);
    // two runs side by side (a leader and its follower): each chart over its own maths
    this.pair = Boolean(h.lead || h.follow);
    // the page around a stepper on a projector gives it room (stepper.css); a class, not a
    // :has() rule, which would make every change of the page's DOM check the whole page
    document.documentElement.classList.toggle("pl-lecture-page", Boolean(h.lecture));
    for (const name of ["boundary", "ghost", "visited", "update"]) {
      box.style.setProperty(`--pl-${name}`, h.palette[name]);
    }
    this.ui.slider.max = String(this.K);
    // a run with a companion words its status line as a pair does: its side is shared
    this.compact = this.pair || Boolean(run.companion);
    box.style.setProperty("--pl-status-chars", String(longestStatus(run, this.compact) + 2));
    this.active = LAYERS.filter((layer) => layer.wants?.(h) ?? true);
    for (const [layer, part] of this.parts) layer.load?.(part, run);
    this.predict.load(h);
    this.player.stop();
    this.ui.planeHost.querySelector(".pl-nochart")?.remove();
    return loadPlotly().then((Plotly) => this.plot(Plotly)).catch((error) => {
      // where the chart would be: the status line is the step's
      html("p", { class: "pl-nochart" }, this.ui.planeHost,
           `The chart could not load (${error.message}); the steps still work.`);
      this.draw();
    });
  }

  plot(Plotly) {
    const figure = planeFigure(this.run, this.place());
    this.planeHeight = figure.layout.height;
    const plots = [Plotly.react(this.ui.planePlot, figure.data, figure.layout, figure.config)];
    for (const layer of this.active) {
      if (layer.plot) {
        plots.push(layer.plot(this.parts.get(layer), this.run, Plotly, figure.config));
      }
    }
    return Promise.all(plots).then(() => {
      // the figure's name says what the drawing shows: a screen reader skips the drawing itself
      for (const svg of this.ui.planePlot.querySelectorAll("svg.main-svg")) {
        svg.setAttribute("aria-hidden", "true");
      }
      for (const gd of this.charts()) {
        if (gd._fullLayout && !gd.__plListening) {
          gd.__plListening = true;
          gd.on("plotly_afterplot", () => {
            this.draw();
            // Plotly makes room for the axes' labels and the legend after a change of size
            // (automargin), in a drawing of its own: the plane's height follows once it is done
            if (gd === this.ui.planePlot) setTimeout(() => this.fitPlaneHeight(), 0);
          });
          gd.on("plotly_relayout", () => this.draw());
        }
      }
      this.draw();
      return this.fitPlaneHeight();
    });
  }

  charts() {
    // the plane's chart and the layers' own
    return [this.ui.planePlot, ...[...this.parts.values()].map((part) => part.chart)
      .filter(Boolean)];
  }

  view() {
    // what a layer draws from
    return { run: this.run, k: this.k, pair: this.pair, ownsKeys: this.ownsKeys,
             glide: this.still.matches ? 0 : GLIDE_MS };
  }

  each(hook, ...args) {
    // a hook of every layer the run wants, in their order
    return this.active.filter((layer) => layer[hook])
      .map((layer) => layer[hook](this.parts.get(layer), ...args));
  }

  place() {
    // where the plane stands, once the layers are placed: what fit.js sizes it by
    const lecture = Boolean(this.run.header.lecture);
    // a wide window out of lecture mode lays one run out as a projector does (.pl-wide), and
    // its page gives the steps the height (.pl-wide-page): a class, as .pl-lecture-page is
    const wide = wideLayout(lecture, this.pair, this.ui.box.clientWidth, window.innerWidth);
    const pairs = widePair(lecture, this.pair, window.innerWidth);
    this.ui.box.classList.toggle("pl-wide", wide);
    document.documentElement.classList.toggle("pl-wide-page", wide || pairs);
    document.documentElement.classList.toggle("pl-wide-one", wide);
    this.each("arrange", this.view());
    const host = this.ui.planeHost;
    const narrow = window.matchMedia(NARROW).matches;
    // a plot that may grow taller than its box (fit.js's chartHeight), but not on a phone,
    // whose plane leaves the status line under it on the first screen
    const tall = !narrow && this.run.header.figure.layout.yaxis?.constrain === "range";
    return { lecture, pair: this.pair, wide, widePair: pairs, tall,
             width: host.clientWidth, top: pageTop(host),
             windowWidth: window.innerWidth, narrow,
             // a lecture's slide bar (ui/lecture_plan_assets) holds the window's foot
             windowHeight: window.innerHeight
               - (document.querySelector(".pl-slide-bar")?.offsetHeight ?? 0) };
  }

  relayout() {
    // the stepper (or what it stands beside) changed size: place the layers, size the charts
    if (!this.run) return;  // (no layer to place either)
    const legend = legendFor(this.run.header.figure.layout.legend, this.place());
    if (!window.Plotly) return;
    const fitted = this.charts().filter((gd) => gd._fullLayout)
      .map((gd) => (gd === this.ui.planePlot
        ? fitWidth(gd, window.Plotly, legend, ownRanges(this.run.header.figure.layout))
        : fitWidth(gd, window.Plotly)));
    // the overlay follows the new axes
    Promise.all(fitted).then(() => this.fitPlaneHeight()).then(() => this.schedule());
  }

  planeHeightNow() {
    // the one height both the plane's drawing and the window's resize follow (fit.js)
    return planeHeightFor(this.ui.planePlot, this.run.header.figure.layout.height, this.place(),
                          this.squares ??= {});
  }

  fitPlaneHeight(passes = 3) {
    // one run out of lecture mode: its plane at planeHeightNow, its toolbar's row made
    const gd = this.ui.planePlot;
    if (this.run.header.lecture || this.pair || !gd._fullLayout?._size || !window.Plotly) return null;
    const height = this.planeHeightNow();
    const change = planeChange(gd, this.run.header.figure.layout, height,
                               window.matchMedia(NARROW).matches);
    if (!change) return null;
    if (change.height) this.planeHeight = height;
    // again once Plotly has made room for the labels at the new height (automargin)
    return window.Plotly.relayout(gd, change)
      .then(() => (passes > 1 ? this.fitPlaneHeight(passes - 1) : null));
  }

  draw() {
    // the whole view at this.k: status, controls, layers
    if (!this.run) return;
    const k = this.k;
    this.ui.status.textContent = statusText(this.run, k, this.compact);
    // said once a step, and not while Play runs through them (only its follower's leader speaks)
    const said = this.player.playing || this.run.header.follow ? "" : announceText(this.run, k);
    // (a question said since, Predict's or the class's, stays until the step moves)
    if (said && this.said !== said) this.ui.announce.textContent = this.said = said;
    showPosition(this.ui, k, this.K, Boolean(this.player.playing));
    this.ui.box.dataset.step = String(k);
    const alt = planeWords(this.run, k);
    if (this.ui.planeHost.getAttribute("aria-label") !== alt) {
      this.ui.planeHost.setAttribute("aria-label", alt);
    }
    const view = this.view();
    const gd = this.ui.planePlot;
    if (gd._fullLayout && gd._fullLayout.xaxis) {
      const axes = axesOf(gd);
      this.overlay.place(axes);
      view.plane = { overlay: this.overlay, axes, chart: gd };
    }
    this.each("draw", view);
  }

  schedule() {
    // one redraw per frame however fast the presses come; k itself changes at once
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.draw();
      });
    }
  }

  go(k) {
    k = Math.min(Math.max(k, 0), this.K);
    if (k === this.k) return;
    this.k = k;
    this.schedule();
    this.each("stepped", this.view());
    this.sync.queue();
  }

  nextMistake() {
    // "stops" when a lesson's clock stops at more than this run's own updates
    const updated = (this.run.columns.stops ?? this.run.columns.updated).values;
    for (let k = this.k + 1; k <= this.K; k++) if (updated[k] === 1) return k;
    return this.K;
  }

  act(action) {
    if (!this.run) return;
    if (action !== "play" && this.player.playing) this.player.stop();
    if (action === "step") {
      if (this.predict.on && this.k < this.K && row(this.run.columns.index, this.k + 1) >= 0) {
        if (!this.predict.quiz) this.predict.ask(this.run, this.k + 1);
        return;
      }
      this.go(this.k + 1);
    } else if (action === "back") {
      this.predict.close();
      this.go(this.k - 1);
    } else if (action === "next") {
      this.predict.close();
      this.go(this.nextMistake());
    } else if (action === "reset") {
      this.predict.close();
      this.go(0);
    } else if (action === "play") {
      this.predict.close();
      if (this.player.playing) this.player.stop();
      else {
        if (this.k === this.K) this.go(0);
        this.player.start();
      }
    }
    this.schedule();
  }

  listen(ownsKeys) {
    // every listener of this stepper; returns what removes them all
    const { ui } = this;
    const resize = new ResizeObserver(() => this.relayout());
    resize.observe(ui.box);
    const stopWindow = followWindow(this, this.root);
    // the page's theme follows the browser's: so does the chart, drawn again in its colours
    const stopScheme = followScheme(
      () => Boolean(this.run) && ui.box.isConnected && darkPage(ui.box) !== this.dark,
      () => this.load(this.run));
    const stops = [listenControls(this, ownsKeys), this.sync.listen(ui.box),
                   ...this.each("listen", this.view(), this)];
    return () => {
      resize.disconnect();
      stopScheme();
      stopWindow();
      stops.forEach((stop) => stop());
    };
  }
}

export default function (component) {
  const { parentElement: root, data } = component;
  let s = root.__plStepper;
  if (!s) {
    s = new Stepper(root);
    root.__plStepper = s;
  }
  s.setStateValue = component.setStateValue;
  markRun(root);
  if (data && data.byteLength) {
    const run = unpack(data);
    if (run.header.digest !== s.digest) s.load(run);
  }
  const ownsKeys = !root.closest("[data-pl-keys=off]") && (s.run?.header.keys ?? true);
  // Streamlit calls this again for every re-sent element without cleaning up in between:
  // drop the previous listeners first, so that one press is one step
  if (s.stop) s.stop();
  const changed = s.ownsKeys !== ownsKeys;
  s.ownsKeys = ownsKeys;
  advertiseKeys(s.ui.box, ownsKeys);
  if (changed && s.run) s.schedule();  // the hints in the maths follow
  const stop = s.listen(ownsKeys);
  s.stop = stop;
  return () => {
    stop();
    if (s.stop === stop) s.stop = null;
    if (!root.isConnected) {
      s.sync.flush();
      s.player.stop();
      // the page's classes (.pl-lecture-page, the wide ones) are the steppers': a view's new
      // stepper mounts before the old one goes, and the page stays as the new one laid it out
      if (!document.querySelector(".pl-stepper")) {
        document.documentElement.classList.remove("pl-lecture-page", "pl-wide-page",
                                                  "pl-wide-one");
      }
    }
  };
}
