// The stepper: one recorded run, stepped through in the page. The run arrives once as bytes
// (a JSON header, then typed columns); a press changes k and redraws a few SVG elements over
// a Plotly chart drawn once. The server hears k only after the student stops, and at most
// once every few seconds however the student presses (sync.js).
// ui/stepper.py joins the modules before this one ahead of it (JS_MODULES): num() comes from
// format.js, unpack() and row() from wire.js, the plane's lines and margins from geometry.js,
// the maths of a step from maths.js, drawing over a chart from overlay.js, the kernel's and
// the votes' grid from grid.js, the status line from status.js, the controls, the keys and
// Play from controls.js, Predict from predict.js.

let plotlyLoading = null;

// ------------------------------------------------------------------ Plotly, loaded once

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyLoading) {
    plotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      // a module from a Blob URL has no base for relative imports: resolve against the page
      script.src = new URL(window.__perceptronPlotlyUrl || "app/static/plotly.min.js",
                           location.href).href;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { plotlyLoading = null; reject(new Error("plotly.min.js")); };
      document.head.appendChild(script);
    });
  }
  return plotlyLoading;
}

// ------------------------------------------------------------------ the stepper

function build(root) {
  // appended, not replacing: the parent also holds the component's <style>
  const box = html("div", { class: "pl-stepper" }, root);
  const ui = { box, ...buildControls(box) };
  ui.status = html("div", { class: "pl-status", role: "status", "aria-live": "polite" }, box);
  ui.score = html("div", { class: "pl-score", hidden: "" }, box);
  const body = html("div", { class: "pl-body" }, box);
  ui.planeHost = html("div", { class: "pl-chart pl-plane" }, body);
  ui.side = html("div", { class: "pl-side" }, body);
  ui.quiz = html("div", { class: "pl-quiz", hidden: "", role: "group",
                          "aria-label": "Predict the next step" }, ui.side);
  ui.explain = html("div", { class: "pl-explain" }, ui.side);
  ui.weightsHost = html("div", { class: "pl-chart pl-weights" }, ui.side);
  ui.planePlot = html("div", { class: "pl-plot" }, ui.planeHost);
  ui.weightsPlot = html("div", { class: "pl-plot" }, ui.weightsHost);
  return ui;
}

function create(root, component) {
  const s = {
    root, ui: build(root), k: 0, run: null, digest: null, runId: null, frame: 0,
    setStateValue: component.setStateValue,
  };
  s.player = new Player(s.ui.speed, () => {
    go(s, s.k + 1);
    if (s.k !== s.K) return false;
    schedule(s);
    return true;
  });
  s.predict = new Predict(s.ui.quiz, s.ui.score, s.ui.predict, (k) => go(s, k));
  s.sync = new Sync(() => (s.run ? { run: s.runId, k: s.k } : null),
                    (position) => s.setStateValue("position", position));
  s.planeOverlay = new Overlay(s.ui.planePlot, `pl-${Math.random().toString(36).slice(2)}`);
  s.weightsOverlay = new Overlay(s.ui.weightsPlot, `pl-${Math.random().toString(36).slice(2)}`);
  return s;
}

function load(s, run) {
  const { header: h } = run;
  const sameRun = s.runId === h.run;
  s.run = run;
  s.digest = h.digest;
  s.K = h.steps;
  s.k = sameRun ? Math.min(s.k, s.K) : Math.min(Math.max(h.start, 0), s.K);
  s.runId = h.run;
  if (!sameRun) s.sync.start(s.k);
  s.ui.box.classList.toggle("pl-lecture", Boolean(h.lecture));
  // two runs side by side (a leader and its follower): each chart over its own maths
  s.pair = Boolean(h.lead || h.follow);
  s.ui.box.classList.toggle("pl-pair", s.pair);
  // the page around a stepper on a projector gives it room (stepper.css); a class, not a
  // :has() rule, which would make every change of the page's DOM check the whole page
  document.documentElement.classList.toggle("pl-lecture-page", Boolean(h.lecture));
  s.ui.box.style.setProperty("--pl-boundary", h.palette.boundary);
  s.ui.box.style.setProperty("--pl-ghost", h.palette.ghost);
  s.ui.box.style.setProperty("--pl-visited", h.palette.visited);
  s.ui.box.style.setProperty("--pl-update", h.palette.update);
  s.ui.slider.max = String(s.K);
  // the status line's longest text sets its size: one line, as large as the width allows
  s.ui.box.style.setProperty("--pl-status-chars", String(longestStatus(run, s.pair) + 2));
  s.ui.weightsHost.hidden = !h.layers.includes("weights");
  s.ui.box.classList.toggle("pl-follower", Boolean(h.follow));
  if (h.lead) s.ui.box.dataset.plLead = h.lead;
  s.ui.explain.hidden = !h.layers.includes("explain");
  s.predict.load(h);
  s.player.stop();
  return loadPlotly().then((Plotly) => plotCharts(s, Plotly)).catch((error) => {
    s.ui.status.textContent = `The chart could not load (${error.message}); the steps still work.`;
    draw(s);
  });
}

function plotCharts(s, Plotly) {
  const { header: h, columns: c } = s.run;
  const figure = JSON.parse(JSON.stringify(h.figure));
  // the points come from the typed columns, split by class as the figure's traces are
  const X = c.X.values;
  const y = c.y.values;
  h.point_traces.forEach(([trace, label]) => {
    const xs = [];
    const ys = [];
    for (let i = 0; i < y.length; i++) {
      if (y[i] === label) {
        xs.push(X[2 * i]);
        ys.push(X[2 * i + 1]);
      }
    }
    figure.data[trace].x = xs;
    figure.data[trace].y = ys;
  });
  // Plotly's own default adds a modebar button that uploads the chart to its cloud: nothing
  // of a student's may leave the machine
  const config = { displaylogo: false, responsive: true, showSendToCloud: false,
                   plotlyServerURL: '' };
  if (h.lecture || s.pair) figure.layout.height = fitHeight(s, figure.layout.height);
  if (h.lecture) {
    const legend = figure.layout.legend;
    if (legend?.orientation === "h") {
      // under the axis title whatever the plot's height (a fraction of it would not be), and
      // as wide as the chart, not only its square plot: entries side by side, fewer rows
      Object.assign(legend, { yref: "container", y: 0, yanchor: "bottom", xref: "container",
                              x: 0, xanchor: "left" });
    }
  }
  s.planeHeight = figure.layout.height;
  const plots = [Plotly.react(s.ui.planePlot, figure.data, figure.layout, config)];
  if (h.layers.includes("weights")) {
    const weights = h.weights_figure;
    plots.push(Plotly.react(s.ui.weightsPlot, weights.data, weights.layout, config));
  }
  return Promise.all(plots).then(() => {
    for (const gd of [s.ui.planePlot, s.ui.weightsPlot]) {
      if (gd._fullLayout && !gd.__plListening) {
        gd.__plListening = true;
        gd.on("plotly_afterplot", () => draw(s));
        gd.on("plotly_relayout", () => draw(s));
      }
    }
    draw(s);
  });
}

function alignFollower(s) {
  // A follower stands beside its leader, which has the controls above it: the follower's
  // status line moves down level with the leader's, and the two charts start level (under the
  // taller status, or the leader's Predict score). The leader's controls reach across both
  // runs: one row, with a long slider.
  const lead = s.run?.header.follow;
  const leader = lead && document.querySelector(`[data-pl-lead="${lead}"]`);
  if (!leader) return;
  const margin = (node) => parseFloat(node.style.marginTop) || 0;
  const move = (node, by) => {
    const px = Math.max(0, Math.round(by));
    if (px !== margin(node)) node.style.marginTop = `${px}px`;
  };
  const top = (node) => node.getBoundingClientRect().top - margin(node);
  const box = s.ui.box;
  const plane = s.ui.planeHost;
  const leaderPlane = leader.querySelector(".pl-plane");
  const shift = leader.querySelector(".pl-status").getBoundingClientRect().top
    - (s.ui.status.getBoundingClientRect().top - margin(box));
  const ownPlane = top(plane) + (shift - margin(box));
  const level = Math.max(ownPlane, top(leaderPlane));
  move(box, shift);
  move(plane, level - ownPlane);
  move(leaderPlane, level - top(leaderPlane));
  const across = box.getBoundingClientRect().right - leader.getBoundingClientRect().left;
  leader.style.setProperty("--pl-pair-width", `${Math.round(across)}px`);
}

// Two runs side by side give their charts this share of the window under them, and their
// maths the rest: both on the first screen, the charts as large as that leaves.
const PAIR_CHART_SHARE = 0.58;

function fitHeight(s, height) {
  // On a projector the plane fills the first screen below the controls, whatever its size:
  // from the chart's top to the bottom of the window, between 400 px and the figure's own
  // height. Two runs side by side leave room under their charts for their maths.
  alignFollower(s);
  const top = s.ui.planeHost.getBoundingClientRect().top;
  if (!(top > 0 && top < window.innerHeight)) return height;  // scrolled away: keep it
  const room = window.innerHeight - top - 12;
  if (s.pair) return Math.round(Math.min(height, Math.max(260, room * PAIR_CHART_SHARE)));
  return Math.round(Math.min(height, Math.max(400, room)));
}

function drawPlane(s) {
  const gd = s.ui.planePlot;
  if (!gd._fullLayout || !gd._fullLayout.xaxis) return;
  const { header: h, columns: c } = s.run;
  const axes = axesOf(gd);
  const o = s.planeOverlay;
  o.place(axes);
  const k = s.k;
  if (h.layers.includes("kernel")) {
    drawKernel(s, o, axes);
    return;
  }
  const w = row(c.W, k);
  const b = row(c.b, k);
  const updated = k > 0 && row(c.updated, k) === 1;
  const scale = h.lecture ? 1.8 : 1;
  const ghost = o.line("ghost", { class: "pl-ghost", "stroke-width": 3 * scale, "stroke-dasharray": "8 6" });
  const line = o.line("boundary", { class: "pl-boundary", "stroke-width": 3 * scale });
  const normal = o.line("normal", { class: "pl-boundary", "stroke-width": 3 * scale,
                                    "marker-end": o.arrowHead(h.palette.boundary) });
  const band = o.shape("band", "polygon", { class: "pl-band" }, true);
  const reach = o.line("reach", { class: "pl-reach", "stroke-width": 2 * scale,
                                  "stroke-dasharray": "4 4" });
  visitedRing(o, s.run, k, axes, h.layers.includes("visited"));
  band.setAttribute("visibility", "hidden");
  reach.setAttribute("visibility", "hidden");
  if (h.layers.includes("band")) {
    const m = margins(c.X.values, c.y.values, w, b);
    if (Number.isFinite(m.margin)) {
      const half = m.margin * m.norm;  // |w.x + b| <= half is the band
      const [x0, x1] = axes.xr;
      const [y0, y1] = axes.yr;
      let poly = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
      poly = clipPolygon(poly, w, half - b);
      poly = clipPolygon(poly, [-w[0], -w[1]], half + b);
      if (poly.length > 2) {
        band.setAttribute("visibility", "visible");
        band.setAttribute("points", poly.map(([x, y]) => `${axes.px(x)},${axes.py(y)}`).join(" "));
      }
      const p = [c.X.values[2 * m.closest], c.X.values[2 * m.closest + 1]];
      const t = (w[0] * p[0] + w[1] * p[1] + b) / (m.norm * m.norm);
      setLine(reach, p, [p[0] - t * w[0], p[1] - t * w[1]], axes);
    }
  }
  if (updated) {
    const before = clipLine(row(c.W, k - 1), row(c.b, k - 1), axes.xr, axes.yr);
    setLine(ghost, before?.[0], before?.[1], axes);
  } else {
    setLine(ghost, null);
  }
  const seg = clipLine(w, b, axes.xr, axes.yr);
  setLine(line, seg?.[0], seg?.[1], axes);
  if (h.layers.includes("margins")) {
    for (const [name, shift] of [["upper", -1], ["lower", 1]]) {
      const part = o.line(name, { class: "pl-boundary", "stroke-width": 1.5 * scale,
                                  "stroke-dasharray": "6 4" });
      const lineAt = clipLine(w, b + shift, axes.xr, axes.yr);
      setLine(part, lineAt?.[0], lineAt?.[1], axes);
    }
  }
  if (h.layers.includes("averaged")) drawAveraged(s, o, axes, scale);
  // a boundary outside the view has no normal to draw here: an edge marker says where it is
  const away = seg ? null : offView(w, b, axes);
  const arrow = seg ? normalArrow(w, b, axes.xr, axes.yr) : null;
  setLine(normal, arrow?.[0], arrow?.[1], axes);
  drawOffView(o, away, scale, h.palette.boundary);
}

function drawOffView(o, away, scale, color) {
  const arrow = o.line("offview", { class: "pl-offview", "stroke-width": 3 * scale,
                                    "marker-end": o.arrowHead(color) });
  const label = o.shape("offviewText", "text", { class: "pl-offview-text" });
  arrow.setAttribute("visibility", away ? "visible" : "hidden");
  label.setAttribute("visibility", away ? "visible" : "hidden");
  if (!away) return;
  const [cx, cy] = away.corner;
  const inset = [away.left ? 1 : -1, away.top ? 1 : -1];
  const tip = [cx + inset[0] * 8 * scale, cy + inset[1] * 8 * scale];
  const tail = [tip[0] - away.way[0] * 44 * scale, tip[1] - away.way[1] * 44 * scale];
  Object.entries({ x1: tail[0], y1: tail[1], x2: tip[0], y2: tip[1] })
    .forEach(([key, value]) => arrow.setAttribute(key, value));
  // two short lines, so the words fit a narrow plot (side by side on a projector)
  const x = cx + inset[0] * 10 * scale;
  const lines = ["boundary ", `${num(away.distance)} away`];  // reads "boundary d away"
  label.replaceChildren(...lines.map((text, i) => {
    const span = document.createElementNS(label.namespaceURI, "tspan");
    span.setAttribute("x", x);
    if (i > 0) span.setAttribute("dy", "1.15em");
    span.textContent = text;
    return span;
  }));
  label.setAttribute("x", x);
  label.setAttribute("y", cy + inset[1] * (away.top ? 58 : 70) * scale);
  label.setAttribute("text-anchor", away.left ? "start" : "end");
  label.style.fontSize = `${scale > 1 ? 18 : 14}px`;  // the least on a projector, 18 px
}

function drawAveraged(s, o, axes, scale) {
  // the averaged weights mu after k visits (columns Wavg, bavg), dashed; none before a visit
  const c = s.run.columns;
  const line = o.line("averaged", { class: "pl-averaged", "stroke-width": 3 * scale,
                                    "stroke-dasharray": "10 6",
                                    stroke: s.run.header.palette.averaged });
  const seg = s.k > 0 ? clipLine(row(c.Wavg, s.k), row(c.bavg, s.k), axes.xr, axes.yr) : null;
  setLine(line, seg?.[0], seg?.[1], axes);
  if (s.run.header.layers.includes("voted")) {
    drawContour(o, "voted", s.k > 0 ? votedValues(s, axes).values : null, axes,
                { class: "pl-voted", "stroke-width": 4 * scale, "stroke-dasharray": "2 6",
                  "stroke-linecap": "round", stroke: s.run.header.palette.voted });
  }
}

// ------------------------------------------------------------------ kernel regions

function kernelOf(p) {
  if (p.name === "rbf") {
    const g = 1 / (2 * p.width * p.width);
    return (a0, a1, b0, b1) => Math.exp(-((a0 - b0) ** 2 + (a1 - b1) ** 2) * g);
  }
  if (p.name === "polynomial") return (a0, a1, b0, b1) => (a0 * b0 + a1 * b1 + p.offset) ** p.degree;
  return (a0, a1, b0, b1) => a0 * b0 + a1 * b1;
}

function kernelValues(s, axes) {
  // s(g) = sum_j alpha_j y_j (K(x_j, g) + bias): each update adds eta y_i (K(x_i, g) + bias)
  // to the grid and eta to alpha_i
  const { header: h, columns: c } = s.run;
  const X = c.X.values;
  const y = c.y.values;
  const K = kernelOf(h.kernel);
  const bias = h.bias ? 1 : 0;
  s.grids = s.grids ?? {};
  s.grids.kernel = gridSums(s.grids.kernel, `${s.runId}:${axes.xr}:${axes.yr}`, axes.xr, axes.yr,
                            y.length, s.k, (cache, t, sign) => {
    if (row(c.updated, t) !== 1) return;
    const { gx, gy, values } = cache;
    const i = row(c.index, t);
    const a0 = X[2 * i];
    const a1 = X[2 * i + 1];
    const coef = sign * h.eta * y[i];
    for (let j = 0; j < values.length; j++) values[j] += coef * (K(a0, a1, gx[j], gy[j]) + bias);
    cache.alpha[i] += sign * h.eta;
  });
  return s.grids.kernel;
}

function votedValues(s, axes) {
  // sum_k c_k sign(w_k.g + b_k) after t visits: each visit adds one vote to the weights in
  // force after it (core.variants.Voted; sign(0) = 0 as numpy's)
  const c = s.run.columns;
  s.grids = s.grids ?? {};
  s.grids.voted = gridSums(s.grids.voted, `${s.runId}:${axes.xr}:${axes.yr}`, axes.xr, axes.yr,
                           c.y.values.length, s.k, (cache, t, sign) => {
    const { gx, gy, values } = cache;
    const [w0, w1] = row(c.W, t);
    const b = row(c.b, t);
    for (let j = 0; j < values.length; j++) values[j] += sign * Math.sign(w0 * gx[j] + w1 * gy[j] + b);
  });
  return s.grids.voted;
}

function drawAlpha(s, o, axes, alpha) {
  // each example's alpha as the area of a disc round it, as the server's figure sized its
  // markers (viz.variants.alpha_sizes: 6 px for the least, 22 px for the largest alpha)
  const { header: h, columns: c } = s.run;
  const X = c.X.values;
  const y = c.y.values;
  const top = Math.max(0, ...alpha);
  const scale = h.lecture ? 1.6 : 1;
  o.discs = o.discs ?? [];
  for (let i = 0; i < alpha.length; i++) {
    if (!o.discs[i] && alpha[i] > 0) {
      const color = h.palette.classes[y[i] < 0 ? 0 : 1];
      o.discs[i] = el("circle", { class: "pl-alpha", fill: color, stroke: color });
      o.layer.insertBefore(o.discs[i], o.layer.firstChild);
    }
    const disc = o.discs[i];
    if (!disc) continue;
    disc.setAttribute("visibility", alpha[i] > 0 ? "visible" : "hidden");
    if (alpha[i] <= 0) continue;
    const size = (6 + 16 * Math.sqrt(alpha[i] / top)) * scale;
    disc.setAttribute("r", size / 2);
    disc.setAttribute("cx", axes.px(X[2 * i]));
    disc.setAttribute("cy", axes.py(X[2 * i + 1]));
  }
}

function drawKernel(s, o, axes) {
  // the regions sign s(x) on a canvas under the points, their boundary s(x) = 0, each
  // example's alpha, and the visited example's ring
  const h = s.run.header;
  const gd = s.ui.planePlot;
  if (!s.kernelCanvas) {
    s.kernelCanvas = html("canvas", { class: "pl-regions", "aria-hidden": "true" });
    s.kernelCanvas.style.position = "absolute";
    s.kernelCanvas.style.pointerEvents = "none";
  }
  const canvas = s.kernelCanvas;
  if (canvas.parentNode !== gd || gd.firstChild !== canvas) gd.insertBefore(canvas, gd.firstChild);
  const [left, top, width, height] = axes.clip;
  Object.assign(canvas.style, { left: `${left}px`, top: `${top}px`, width: `${width}px`,
                                height: `${height}px` });
  const n = KERNEL_GRID;
  canvas.width = n;
  canvas.height = n;
  const { values, alpha } = kernelValues(s, axes);
  const context = canvas.getContext("2d");
  const image = context.createImageData(n, n);
  const [neg, pos] = h.palette.tint;
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    const tint = v > 1e-9 ? pos : v < -1e-9 ? neg : null;
    if (tint) image.data.set(tint, 4 * j);
  }
  context.putImageData(image, 0, 0);
  const scale = h.lecture ? 1.8 : 1;
  drawAlpha(s, o, axes, alpha);
  drawContour(o, "kernelBoundary", s.k > 0 ? values : null, axes,
              { class: "pl-boundary", "stroke-width": 3 * scale });
  visitedRing(o, s.run, s.k, axes, true);
}

function drawWeights(s) {
  const gd = s.ui.weightsPlot;
  if (s.ui.weightsHost.hidden || !gd._fullLayout || !gd._fullLayout.xaxis) return;
  const { header: h, columns: c } = s.run;
  const axes = axesOf(gd);
  const o = s.weightsOverlay;
  o.place(axes);
  const k = s.k;
  const scale = h.lecture ? 1.8 : 1;
  const before = o.line("before", { class: "pl-ghost", "stroke-width": 3 * scale,
                                    "marker-end": o.arrowHead(h.palette.ghost) });
  const step = o.line("step", { class: "pl-update", "stroke-width": 3 * scale,
                                "marker-end": o.arrowHead(h.palette.update) });
  const after = o.line("after", { class: "pl-boundary", "stroke-width": 3 * scale,
                                  "marker-end": o.arrowHead(h.palette.boundary) });
  const wa = row(c.W, k);
  const origin = [0, 0];
  if (k > 0 && row(c.updated, k) === 1) {
    const wb = row(c.W, k - 1);
    setLine(before, origin, wb, axes);
    setLine(step, wb, wa, axes);
  } else {
    setLine(before, null);
    setLine(step, null);
  }
  setLine(after, origin, wa, axes);
}

function drawExplanation(s) {
  const { header: h, columns: c } = s.run;
  const box = s.ui.explain;
  const k = s.k;
  box.textContent = "";
  if (k === 0) {
    html("p", {}, box).innerHTML = "<strong>Before the first step.</strong> The boundary is";
    const w = row(c.W, 0);
    const b = row(c.b, 0);
    const formula = html("div", { class: "pl-math" }, box);
    formula.innerHTML = w[0] !== 0 || w[1] !== 0 ? boundaryMath(w, b) : noBoundaryMath(b);
    html("p", {}, box, `Press Step${s.ownsKeys ? " (\u2192)" : ""} to visit the first example.`);
    return;
  }
  if (row(c.index, k) < 0) {
    // a run shorter than its lesson's clock: past its end nothing is visited
    let last = k;
    while (last > 0 && row(c.index, last) < 0) last -= 1;
    html("p", {}, box, `This run ended at step ${(h.t0 ?? 0) + last}: `
         + (h.svm ? "no example was left inside the margin."
           : "it converged (an epoch without a mistake) or reached its last epoch."));
    return;
  }
  const m = h.svm ? svmStepMath(s.run, k, s.pair) : stepMath(s.run, k);
  const head = html("p", { class: "pl-head" }, box);
  const example = `example ${m.i} x = (${num(m.x[0])}, ${num(m.x[1])}), y = ${num(m.y)} (${h.classes[m.y < 0 ? 0 : 1]})`;
  if (s.pair) {
    // the status line over the chart has the step and the epoch
    head.textContent = example.charAt(0).toUpperCase() + example.slice(1);
  } else {
    html("strong", {}, head, `Step ${(h.t0 ?? 0) + k}, epoch ${row(c.epoch, k)}`);
    head.appendChild(document.createTextNode(`: ${example}`));
  }
  const formulas = html("div", { class: "pl-math" }, box);
  formulas.innerHTML = m.lines.join("");
  html("p", { class: m.updated ? "pl-verdict pl-mistake" : "pl-verdict" }, box, m.verdict
       ?? (m.updated ? "y\u00b7a \u2264 0: a mistake, so the weights move."
         : "y\u00b7a > 0: correct, no update."));
  const w = row(c.W, k);
  // beside another run every row counts: the boundary's line only when the lines above do
  // not already show w and b after the step (the SVM's b when the hinge took no step)
  const shown = s.pair && (m.updated || !h.svm);
  if ((w[0] !== 0 || w[1] !== 0) && !shown) {
    const words = h.svm ? "Boundary now:" : m.updated ? "New boundary:" : "Boundary (unchanged):";
    // two runs side by side have no height to spare: the words and the line in one row
    const where = s.pair ? html("div", { class: "pl-math pl-boundary-now" }, box) : box;
    html(s.pair ? "span" : "p", {}, where, words);
    html("div", { class: "pl-math" }, where).innerHTML = boundaryMath(w, row(c.b, k));
  }
}

function draw(s) {
  // the whole view at s.k: status, controls, overlays, maths
  if (!s.run) return;
  const k = s.k;
  s.ui.status.textContent = statusText(s.run, k, s.pair);
  showPosition(s.ui, k, s.K, Boolean(s.player.playing));
  s.ui.box.dataset.step = String(k);
  drawPlane(s);
  drawWeights(s);
  if (!s.ui.explain.hidden) drawExplanation(s);
}

function schedule(s) {
  // one redraw per frame however fast the presses come; k itself changes at once
  if (!s.frame) {
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      draw(s);
    });
  }
}

function go(s, k) {
  k = Math.min(Math.max(k, 0), s.K);
  if (k === s.k) return;
  s.k = k;
  schedule(s);
  const h = s.run.header;
  if (h.lead) window.dispatchEvent(new CustomEvent("pl-lead", { detail: { group: h.lead, k } }));
  if (!h.follow) s.sync.queue();  // a follower's step is its leader's: only the leader reports
}

function nextMistake(s) {
  // "stops" when a lesson's clock stops at more than this run's own updates
  const updated = (s.run.columns.stops ?? s.run.columns.updated).values;
  for (let k = s.k + 1; k <= s.K; k++) if (updated[k] === 1) return k;
  return s.K;
}

// ------------------------------------------------------------------ input

function act(s, action) {
  if (!s.run) return;
  if (action !== "play" && s.player.playing) s.player.stop();
  if (action === "step") {
    if (s.predict.on && s.k < s.K && row(s.run.columns.index, s.k + 1) >= 0) {
      if (!s.predict.quiz) s.predict.ask(s.run, s.k + 1);
      return;
    }
    go(s, s.k + 1);
  } else if (action === "back") {
    s.predict.close();
    go(s, s.k - 1);
  } else if (action === "next") {
    s.predict.close();
    go(s, nextMistake(s));
  } else if (action === "reset") {
    s.predict.close();
    go(s, 0);
  } else if (action === "play") {
    s.predict.close();
    if (s.player.playing) s.player.stop();
    else {
      if (s.k === s.K) go(s, 0);
      s.player.start();
    }
  }
  schedule(s);
}

function listen(s, ownsKeys) {
  const onClick = (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action && action !== "predict") act(s, action);
  };
  const onSlider = () => {
    s.player.stop();
    s.predict.close();
    go(s, Number(s.ui.slider.value));
  };
  const onPredict = () => s.predict.toggled(s.ownsKeys);
  const onKey = (event) => {
    const action = keyAction(event);
    if (!action || !s.root.isConnected) return;
    event.preventDefault();
    event.stopPropagation();
    act(s, action);
  };
  const onLead = (event) => {
    const h = s.run?.header;
    if (h && h.follow && event.detail.group === h.follow) go(s, event.detail.k);
  };
  window.addEventListener("pl-lead", onLead);
  const resize = new ResizeObserver(() => {
    alignFollower(s);
    for (const gd of [s.ui.planePlot, s.ui.weightsPlot]) {
      if (gd._fullLayout && window.Plotly) window.Plotly.Plots.resize(gd);
    }
  });
  resize.observe(s.ui.box);
  const lead = s.run?.header.follow;
  const leader = lead && document.querySelector(`[data-pl-lead="${lead}"]`);
  if (leader) resize.observe(leader);
  const onWindow = () => {
    // the window or what is above the chart changed height: the plane follows (lecture mode, a pair)
    const gd = s.ui.planePlot;
    if (!(s.run?.header.lecture || s.pair) || !gd._fullLayout || !window.Plotly) return;
    const height = fitHeight(s, s.run.header.figure.layout.height);
    if (Math.abs(height - s.planeHeight) > 8) {
      s.planeHeight = height;
      window.Plotly.relayout(gd, { height });
    }
  };
  window.addEventListener("resize", onWindow);
  // what is above the chart can still grow after it is drawn (type loaded late, a message)
  const above = new ResizeObserver(onWindow);
  above.observe(s.root.closest('[data-testid="stMainBlockContainer"]') || document.body);
  s.ui.box.addEventListener("click", onClick);
  s.ui.slider.addEventListener("input", onSlider);
  s.ui.predict.addEventListener("change", onPredict);
  if (ownsKeys) window.addEventListener("keydown", onKey, true);
  const stopSync = s.sync.listen(s.ui.box);
  return () => {
    s.ui.box.removeEventListener("click", onClick);
    s.ui.slider.removeEventListener("input", onSlider);
    s.ui.predict.removeEventListener("change", onPredict);
    window.removeEventListener("keydown", onKey, true);
    stopSync();
    window.removeEventListener("pl-lead", onLead);
    resize.disconnect();
    window.removeEventListener("resize", onWindow);
    above.disconnect();
  };
}

export default function (component) {
  const { parentElement: root, data } = component;
  let s = root.__plStepper;
  if (!s) {
    s = create(root, component);
    root.__plStepper = s;
  }
  s.setStateValue = component.setStateValue;
  if (data && data.byteLength) {
    const run = unpack(data);
    if (run.header.digest !== s.digest) load(s, run);
  }
  const ownsKeys = !root.closest("[data-pl-keys=off]") && (s.run?.header.keys ?? true);
  // Streamlit calls this again for every re-sent element without cleaning up in between:
  // drop the previous listeners first, so that one press is one step
  if (s.stop) s.stop();
  const changed = s.ownsKeys !== ownsKeys;
  s.ownsKeys = ownsKeys;
  advertiseKeys(s.ui.box, ownsKeys);
  if (changed && s.run) schedule(s);  // the hints in the maths follow
  const stop = listen(s, ownsKeys);
  s.stop = stop;
  return () => {
    stop();
    if (s.stop === stop) s.stop = null;
    if (!root.isConnected) {
      s.sync.flush();
      s.player.stop();
      document.documentElement.classList.remove("pl-lecture-page");
    }
  };
}
