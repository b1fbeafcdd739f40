// @uses dom.js ids.js overlay.js status.js sync.js controls.js predict.js plotly.js fit.js
// @uses figure.js scheme.js place.js actions.js
// @provides LAYERS, GLIDE_MS, Stepper
// The stepper: one recorded run, stepped through in the page. The run arrives once as bytes
// (wire.js); a press changes k at once and redraws, once per frame, the status line
// (status.js), the controls (controls.js, each doing what actions.js says) and every layer the
// run wants. The points are drawn once by Plotly; the layers draw the moving parts over them,
// fitted to where the stepper stands (place.js). The server hears k only after the student
// stops (sync.js). The component mounts a stepper on its element (mount.js); ui/stepper/
// joins the modules this one uses ahead of it, and the layers after it.

// A layer draws one part of the step, in a module of its own (layers/) that adds it here;
// ui/stepper/assets.py's JS_LAYERS says in which order they are built and drawn. A layer is
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

export class Stepper {
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
    const place = placeOf(this);
    const figure = planeFigure(this.run, place);
    firstPlane(this, figure.layout, place);
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
            // (a fitting's own drawing: the fitting goes on by itself, place.js)
            if (gd === this.ui.planePlot && !this.fitting) {
              setTimeout(() => fitPlaneHeight(this), 0);
            }
          });
          gd.on("plotly_relayout", () => this.draw());
        }
      }
      this.draw();
      return fitPlaneHeight(this);
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

  relayout() {
    // the stepper (or what it stands beside) changed size (place.js)
    refit(this);
  }

  planeHeightNow() {
    // the plane's height where it stands now (place.js), which the window's resize follows
    return planeHeightOf(this);
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

  act(action) {
    // a control pressed, or its key (controls.js): what it does is actions.js's
    perform(this, action);
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
