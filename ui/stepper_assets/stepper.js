// The stepper: one recorded run, stepped through in the page. The run arrives once as bytes
// (a JSON header, then typed columns); a press changes k and redraws a few SVG elements over
// a Plotly chart drawn once. The server hears k only after the student stops, and at most
// once every few seconds however the student presses (see queueSync).
// format.js is prepended to this file by ui/stepper.py: num() comes from there.

const SVG = "http://www.w3.org/2000/svg";
const SYNC_IDLE_MS = 500;     // a report goes out this long after the last press...
const SYNC_EVERY_MS = 5000;   // ...but never sooner than this after the previous one
const SPEEDS = [1, 2, 5, 10, 30];
const KEYS = { ArrowRight: "step", ArrowLeft: "back", n: "next", N: "next", Home: "reset" };
let plotlyLoading = null;

// ------------------------------------------------------------------ the run's bytes

function unpack(bytes) {
  // header length (uint32 LE), JSON header, then columns at 8-byte aligned offsets
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const headerLength = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerLength)));
  const types = { f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array,
                  i1: Int8Array, u1: Uint8Array };
  const columns = {};
  for (const [name, [dtype, offset, length, width]] of Object.entries(header.columns)) {
    columns[name] = { values: new types[dtype](buffer, offset, length), width };
  }
  // what the server left out, rebuilt as ui/stepper.py's unpack does
  const K = header.steps;
  if (columns.updated) {
    const updated = columns.updated.values;
    // after k steps: the updates so far (the start's count added for mistakes)
    const moves = new Int32Array(K + 1);
    for (let k = 1; k <= K; k++) moves[k] = moves[k - 1] + (updated[k] === 1 ? 1 : 0);
    if (!columns.mistakes) {
      const start = columns.mistakes0 ? columns.mistakes0.values[0] : 0;
      columns.mistakes = { values: moves.map((m) => start + m), width: 1 };
    }
    for (const name of header.held ?? []) {
      // rows sent only at the start and at updates: row k is the one in force after k steps
      const { values, width } = columns[name];
      const full = new Float64Array((K + 1) * width);
      for (let k = 0; k <= K; k++) {
        full.set(values.subarray(moves[k] * width, (moves[k] + 1) * width), k * width);
      }
      columns[name] = { values: full, width };
    }
  }
  if (header.descent) descend(header, columns);
  if (columns.afix) {
    // a = w.x + b before each step, computed here from the weights (as ui/stepper.py's
    // _page_activation does); the server sent the steps where the run's own a differs
    const { values: W, width: D } = columns.W;
    const b = columns.b.values;
    const X = columns.X.values;
    const index = columns.index.values;
    const a = new Float64Array(K + 1).fill(NaN);
    for (let k = 1; k <= K; k++) {
      const i = index[k];
      if (i < 0) continue;
      let sum = W[(k - 1) * D] * X[i * D];
      for (let j = 1; j < D; j++) sum = sum + W[(k - 1) * D + j] * X[i * D + j];
      a[k] = sum + b[k - 1];
    }
    const at = columns.afix_k.values;
    at.forEach((k, j) => { a[k] = columns.afix.values[j]; });
    columns.activation = { values: a, width: 1 };
  }
  if (header.epoch_every) {  // an epoch is that many visits
    const epoch = new Int32Array(K + 1);
    const t0 = header.t0 ?? 0;
    const index = columns.index.values;
    for (let k = 1; k <= K; k++) {
      // a padded step (after a run that ended before its neighbour) keeps the last epoch
      epoch[k] = index[k] < 0 ? epoch[k - 1] : Math.floor((t0 + k - 1) / header.epoch_every) + 1;
    }
    columns.epoch = { values: epoch, width: 1 };
  }
  if (header.averaged) {
    // mu / k, the mean of the weights after each of the first k visits, summed in order as
    // numpy's cumsum does: the same doubles as core.variants.running_average
    const W = columns.W.values;
    const b = columns.b.values;
    const Wavg = new Float64Array(W.length);
    const bavg = new Float64Array(b.length);
    let s0 = 0;
    let s1 = 0;
    let sb = 0;
    for (let k = 1; k <= K; k++) {
      s0 += W[2 * k];
      s1 += W[2 * k + 1];
      sb += b[k];
      Wavg[2 * k] = s0 / k;
      Wavg[2 * k + 1] = s1 / k;
      bavg[k] = sb / k;
    }
    columns.Wavg = { values: Wavg, width: 2 };
    columns.bavg = { values: bavg, width: 1 };
  }
  return { header, columns };
}

function descend(header, columns) {
  // The SVM's W and b after every step, from their first row, as core/descent.py takes each
  // step, operation for operation (the server checked that this gives its numbers bit for
  // bit, ui/stepper.py's _descent_steps): eta_t = eta0 / sqrt(t); w <- (1 - eta_t lam) w;
  // on a hinge step w <- w + eta_t (x y), b <- b + eta_b y (eta_b = eta_t with a bias, else
  // 0). A padded step (index -1) keeps them.
  const K = header.steps;
  const { lam, eta0 } = header.svm;
  const t0 = header.t0 ?? 0;
  const D = columns.W.width;
  const X = columns.X.values;
  const y = columns.y.values;
  const index = columns.index.values;
  const updated = columns.updated.values;
  const W = new Float64Array((K + 1) * D);
  const b = new Float64Array(K + 1);
  W.set(columns.W.values.subarray(0, D));
  b[0] = columns.b.values[0];
  for (let k = 1; k <= K; k++) {
    const i = index[k];
    const from = (k - 1) * D;
    const to = k * D;
    let bias = b[k - 1];
    for (let j = 0; j < D; j++) W[to + j] = W[from + j];
    if (i >= 0) {
      const eta = eta0 / Math.sqrt(t0 + k);
      if (lam) {
        const shrink = 1.0 - eta * lam;
        for (let j = 0; j < D; j++) W[to + j] = shrink * W[to + j];
      }
      if (updated[k] === 1) {
        for (let j = 0; j < D; j++) W[to + j] = W[to + j] + eta * (X[i * D + j] * y[i]);
        bias = bias + (header.bias ? eta : 0.0) * y[i];
      }
    }
    b[k] = bias;
  }
  columns.W = { values: W, width: D };
  columns.b = { values: b, width: 1 };
}

function row(column, k) {
  // row k of a column: a number for a 1-D column, an array for a 2-D one
  const { values, width } = column;
  return width === 1 ? values[k] : Array.from(values.subarray(k * width, (k + 1) * width));
}

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

// ------------------------------------------------------------------ geometry

function clipLine(w, b, [x0, x1], [y0, y1]) {
  // the part of w.x + b = 0 inside the box, or null (as viz.plane.boundary_segment)
  const [w1, w2] = w;
  const points = [];
  if (Math.abs(w2) > 1e-12) {
    for (const x of [x0, x1]) {
      const y = -(w1 * x + b) / w2;
      if (y >= y0 && y <= y1) points.push([x, y]);
    }
  }
  if (Math.abs(w1) > 1e-12) {
    for (const y of [y0, y1]) {
      const x = -(w2 * y + b) / w1;
      if (x >= x0 && x <= x1) points.push([x, y]);
    }
  }
  if (points.length < 2) return null;
  points.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return [points[0], points[points.length - 1]];
}

function normalArrow(w, b, xr, yr) {
  // from the boundary point nearest the view's centre, along w, 0.18 of the view's width
  const norm = Math.hypot(w[0], w[1]);
  if (norm < 1e-12) return null;
  const c = [(xr[0] + xr[1]) / 2, (yr[0] + yr[1]) / 2];
  const s = (w[0] * c[0] + w[1] * c[1] + b) / (norm * norm);
  const foot = [c[0] - s * w[0], c[1] - s * w[1]];
  const length = 0.18 * (xr[1] - xr[0]);
  return [foot, [foot[0] + (length * w[0]) / norm, foot[1] + (length * w[1]) / norm]];
}

function clipPolygon(points, a, c) {
  // the part of a polygon where a.p <= c (one step of Sutherland-Hodgman)
  const out = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const q = points[(i + 1) % points.length];
    const fp = a[0] * p[0] + a[1] * p[1] - c;
    const fq = a[0] * q[0] + a[1] * q[1] - c;
    if (fp <= 0) out.push(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const t = fp / (fp - fq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

function margins(s, w, b) {
  // the geometric margin of (w, b) on the data (-Infinity if it errs), its closest row,
  // and how many rows it gets wrong (y a <= 0 counts as wrong, as in the rule)
  const X = s.run.columns.X.values;
  const y = s.run.columns.y.values;
  const norm = Math.hypot(w[0], w[1]);
  let low = Infinity;
  let closest = -1;
  let wrong = 0;
  for (let i = 0; i < y.length; i++) {
    const m = y[i] * (w[0] * X[2 * i] + w[1] * X[2 * i + 1] + b);
    if (m <= 0) wrong += 1;
    if (m < low) {
      low = m;
      closest = i;
    }
  }
  const margin = norm > 0 && low > 0 ? low / norm : -Infinity;
  return { margin, closest, wrong, norm };
}

function axesOf(gd) {
  const layout = gd._fullLayout;
  const xa = layout.xaxis;
  const ya = layout.yaxis;
  return {
    px: (x) => xa._offset + xa.l2p(x),
    py: (y) => ya._offset + ya.l2p(y),
    xr: [...xa.range].sort((p, q) => p - q),
    yr: [...ya.range].sort((p, q) => p - q),
    width: layout.width,
    height: layout.height,
    clip: [xa._offset, ya._offset, xa._length, ya._length],
  };
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function setLine(line, a, b, axes) {
  if (!a) {
    line.setAttribute("visibility", "hidden");
    return;
  }
  line.setAttribute("visibility", "visible");
  line.setAttribute("x1", axes.px(a[0]));
  line.setAttribute("y1", axes.py(a[1]));
  line.setAttribute("x2", axes.px(b[0]));
  line.setAttribute("y2", axes.py(b[1]));
}

// ------------------------------------------------------------------ overlays

class Overlay {
  // an SVG layer over one Plotly chart, placed in pixels through its axes
  constructor(host, id) {
    this.svg = el("svg", { class: "pl-overlay", "aria-hidden": "true" }, host);
    const defs = el("defs", {}, this.svg);
    this.clipId = `${id}-clip`;
    this.clipRect = el("rect", {}, el("clipPath", { id: this.clipId }, defs));
    this.markers = {};
    this.defs = defs;
    this.layer = el("g", { "clip-path": `url(#${this.clipId})` }, this.svg);
    this.parts = {};
    this.id = id;
  }

  arrowHead(color) {
    if (!this.markers[color]) {
      const id = `${this.id}-head-${Object.keys(this.markers).length}`;
      const marker = el("marker", { id, viewBox: "0 0 10 10", refX: "8", refY: "5",
                                    markerWidth: "5", markerHeight: "5",
                                    orient: "auto-start-reverse" }, this.defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: color }, marker);
      this.markers[color] = `url(#${id})`;
    }
    return this.markers[color];
  }

  line(name, attrs) {
    if (!this.parts[name]) this.parts[name] = el("line", attrs, this.layer);
    return this.parts[name];
  }

  shape(name, tag, attrs, under = false) {
    if (!this.parts[name]) {
      this.parts[name] = el(tag, attrs, this.layer);
      if (under) this.layer.insertBefore(this.parts[name], this.layer.firstChild);
    }
    return this.parts[name];
  }

  place(axes) {
    this.svg.setAttribute("width", axes.width);
    this.svg.setAttribute("height", axes.height);
    const [x, y, w, h] = axes.clip;
    Object.entries({ x, y, width: w, height: h }).forEach(([k, v]) => this.clipRect.setAttribute(k, v));
  }
}

// ------------------------------------------------------------------ maths in MathML

const mn = (value) => `<mn>${num(value).replace("-", "\u2212")}</mn>`;
// MathML Core has no mathvariant="bold": bold letters are their own code points
const BOLD = { w: "\u{1D430}", x: "\u{1D431}", 0: "\u{1D7CE}" };
const mi = (name, bold = false) => `<mi>${bold ? BOLD[name] : name}</mi>`;
const mo = (op) => `<mo>${op}</mo>`;
const paren = (inner) => `${mo("(")}${inner}${mo(")")}`;
const vec = (values) => paren(values.map(mn).join(mo(",")));
const signed = (value) => (value < 0 ? `${mo("\u2212")}${mn(-value)}` : `${mo("+")}${mn(value)}`);
// A line of maths is a row of chunks, each its own <math>, that break between them, before
// an "=" or an arrow, as a typesetter breaks a long display (MathML itself never wraps);
// continued rows hang indented. A chunk that would still be wider than the column is set
// smaller: its width estimated from its characters (--pl-chunk, in em), the column's from
// CSS container units, so that a step costs no measuring.
const chunkEm = (chunk) => (0.62 * chunk.replace(/<[^>]*>/g, "").replace(/&[a-z]+;/g, "x")
  .length).toFixed(1);
const math = (...chunks) => `<div class="pl-line">${
  chunks.map((chunk) => `<math style="--pl-chunk: ${chunkEm(chunk)}"><mrow>${chunk}</mrow></math>`)
    .join(" ")}</div>`;
const sub = (name, i) => `<msub>${mi(name)}<mn class="pl-sub">${i}</mn></msub>`;

function boundaryMath(w, b) {
  return math(`${mn(w[0])}${sub("x", 1)}${signed(w[1])}${sub("x", 2)}${signed(b)}`, `${mo("=")}<mn>0</mn>`);
}

function stepMath(s, k) {
  // the lines of viz.maths.step_lines, with the same numbers
  const { header: h, columns: c } = s.run;
  const i = row(c.index, k);
  const x = row(c.X, i);
  const y = row(c.y, i);
  const wb = row(c.W, k - 1);
  const bb = row(c.b, k - 1);
  const wa = row(c.W, k);
  const ba = row(c.b, k);
  const a = row(c.activation, k);
  const updated = row(c.updated, k) === 1;
  const eta = h.eta;
  // the sum's terms are chunks of their own: a narrow column breaks the line between them
  const terms = wb.map((wi, j) => `${j ? mo("+") : mo("=")}${paren(mn(wi))}${paren(mn(x[j]))}`);
  if (h.bias) terms.push(signed(bb));
  const lines = [
    math(`${mi("a")}${mo("=")}${mi("w", true)}${mo("\u00b7")}${mi("x", true)}${mo("+")}${mi("b")}`,
         ...terms, `${mo("=")}${mn(a)}`),
    math(`${mi("y")}${mi("a")}${mo("=")}${paren(mn(y))}${paren(mn(a))}`,
         `${mo("=")}${mn(y * a)}${updated ? mo("\u2264") : mo("&gt;")}<mn>0</mn>`),
  ];
  if (updated) {
    lines.push(math(`${mi("w", true)}${mo("\u2190")}${mi("w", true)}${mo("+")}${mi("\u03b7")}${mi("y")}${mi("x", true)}`,
                    `${mo("=")}${vec(wb)}`, `${mo("+")}${paren(mn(eta))}${paren(mn(y))}${vec(x)}`,
                    `${mo("=")}${vec(wa)}`));
    if (h.bias) {
      lines.push(math(`${mi("b")}${mo("\u2190")}${mi("b")}${mo("+")}${mi("\u03b7")}${mi("y")}`,
                      `${mo("=")}${mn(bb)}${signed(eta * y)}`, `${mo("=")}${mn(ba)}`));
    }
  }
  return { i, x, y, updated, lines };
}

function round4(value) {
  // numpy's np.round(value, 4): scale, round half to even, scale back
  const scaled = value * 1e4;
  const floor = Math.floor(scaled);
  const rest = scaled - floor;
  const whole = rest > 0.5 || (rest === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return whole / 1e4;
}

function svmStepMath(s, k) {
  // the lines of viz.svm.svm_step_lines (numbers rounded to 4 places as it rounds them): the
  // hinge's subgradient step with step size eta_t = eta_0 / sqrt(t) and the penalty's shrink
  const { header: h, columns: c } = s.run;
  const { lam, eta0 } = h.svm;
  const i = row(c.index, k);
  const x = row(c.X, i);
  const y = row(c.y, i);
  const wb = row(c.W, k - 1).map(round4);
  const wa = row(c.W, k).map(round4);
  const bb = round4(row(c.b, k - 1));
  const ba = round4(row(c.b, k));
  const a = row(c.activation, k);
  const updated = row(c.updated, k) === 1;
  const eta = eta0 / Math.sqrt(k);
  const shrink = paren(mn(round4(1 - eta * lam)));
  const w = mi("w", true);
  const etaT = `<msub>${mi("\u03b7")}${mi("t")}</msub>`;
  const activation = [
    `${mi("a")}${mo("=")}<msup>${w}${mi("\u22a4")}</msup>${mi("x", true)}${mo("+")}${mi("b")}`,
    `${mo("=")}${mn(round4(a))}`];
  const margin = [`${mi("y")}${mi("a")}${mo("=")}${paren(mn(y))}${paren(mn(round4(a)))}`,
                  `${mo("=")}${mn(round4(y * a))}${updated ? mo("&lt;") : mo("\u2265")}<mn>1</mn>`];
  // beside another run, both short lines in one row
  activation[1] += s.pair ? mo(",") : "";
  const lines = [
    ...(s.pair ? [math(...activation, ...margin)] : [math(...activation), math(...margin)]),
    math(`${etaT}${mo("=")}<msub>${mi("\u03b7")}<mn class="pl-sub">0</mn></msub>${mo("/")}`
         + `<msqrt>${mi("t")}</msqrt>`,
         `${mo("=")}${mn(eta0)}${mo("/")}<msqrt>${mn(k)}</msqrt>`, `${mo("=")}${mn(round4(eta))}`),
  ];
  const decay = `${w}${mo("\u2190")}${paren(`<mn>1</mn>${mo("\u2212")}${etaT}${mi("\u03bb")}`)}${w}`;
  if (updated) {
    lines.push(math(`${decay}${mo("+")}${etaT}${mi("y")}${mi("x", true)}`,
                    `${mo("=")}${shrink}${vec(wb)}`,
                    `${mo("+")}${paren(mn(round4(eta)))}${paren(mn(y))}${vec(x)}`,
                    `${mo("=")}${vec(wa)}`));
    if (h.bias) {
      lines.push(math(`${mi("b")}${mo("\u2190")}${mi("b")}${mo("+")}${etaT}${mi("y")}`,
                      `${mo("=")}${mn(bb)}${signed(round4(eta * y))}`, `${mo("=")}${mn(ba)}`));
    }
  } else {
    lines.push(math(decay, `${mo("=")}${shrink}${vec(wb)}`, `${mo("=")}${vec(wa)}`));
  }
  const verdict = updated ? "y\u00b7a < 1: the margin is violated, a hinge step."
    : "y\u00b7a \u2265 1: beyond the margin, only the penalty shrinks w.";
  return { i, x, y, updated, lines, verdict };
}

// ------------------------------------------------------------------ the stepper

// Icons drawn as paths: a glyph such as the pause sign is missing from many fonts (an empty
// box on a projector's machine, or in the exported page)
const ICONS = {
  back: "M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z",
  step: "M4 11h12.2l-5.6-5.6L12 4l8 8-8 8-1.4-1.4 5.6-5.6H4z",
  next: "M5 18l8.5-6L5 6v12zM16 6v12h2.5V6H16z",
  reset: "M12 5V1L7 6l5 5V7c3.3 0 6 2.7 6 6s-2.7 6-6 6-6-2.7-6-6H4c0 4.4 3.6 8 8 8s8-3.6 8-8-3.6-8-8-8z",
  play: "M8 5v14l11-7z",
  pause: "M6 19h4V5H6v14zm8-14v14h4V5h-4z",
};

function icon(name) {
  const svg = el("svg", { class: "pl-icon", viewBox: "0 0 24 24", "aria-hidden": "true" });
  el("path", { d: ICONS[name] }, svg);
  return svg;
}

function labelButton(button, name, label, key) {
  // the icon and a word; the word may be hidden (lecture layout) but the name stays
  button.textContent = "";
  button.appendChild(icon(name));
  html("span", { class: "pl-label" }, button, label);
  button.setAttribute("aria-label", label);
  button.title = key ? `${label} (key: ${key})` : label;
}

function advertiseKeys(s, owns) {
  // A stepper that does not own the keys (a second one on the page) names none: its
  // buttons' tooltips and aria-keyshortcuts, and its hints, would send a press elsewhere
  s.ownsKeys = owns;
  for (const b of s.ui.box.querySelectorAll(".pl-controls [data-key]")) {
    b.title = owns ? `${b.dataset.label} (key: ${b.dataset.keyName})` : b.dataset.label;
    if (owns) b.setAttribute("aria-keyshortcuts", b.dataset.key);
    else b.removeAttribute("aria-keyshortcuts");
  }
}

function build(root) {
  // appended, not replacing: the parent also holds the component's <style>
  const box = html("div", { class: "pl-stepper" }, root);
  const bar = html("div", { class: "pl-controls", role: "toolbar", "aria-label": "Step controls" }, box);
  const button = (name, label, key, keyName, primary = false) => {
    const b = html("button", { type: "button", class: `pl-button pl-${name}${primary ? " pl-primary" : ""}`,
                               "data-action": name }, bar);
    labelButton(b, name, label, null);
    // its key, advertised only while this stepper owns the keys (advertiseKeys)
    if (key) Object.assign(b.dataset, { key, keyName, label });
    return b;
  };
  const ui = { box };
  ui.back = button("back", "Back", "ArrowLeft", "\u2190");
  ui.step = button("step", "Step", "ArrowRight", "\u2192", true);
  ui.next = button("next", "Next mistake", "N", "N");
  ui.reset = button("reset", "Reset", "Home", "Home");
  ui.play = button("play", "Play", null, null);
  ui.speed = html("select", { class: "pl-speed", "aria-label": "Play speed (steps per second)",
                              title: "Play speed (steps per second)" }, bar);
  SPEEDS.forEach((v) => html("option", { value: String(v) }, ui.speed, `${v} / s`));
  ui.speed.value = "5";
  const predictLabel = html("label", { class: "pl-toggle",
                                       title: "Predict each step before it is shown" }, bar);
  ui.predictLabel = predictLabel;
  ui.predict = html("input", { type: "checkbox", "data-action": "predict" }, predictLabel);
  predictLabel.appendChild(document.createTextNode(" Predict"));
  ui.slider = html("input", { type: "range", class: "pl-slider", min: "0", value: "0",
                              "aria-label": "Step" }, bar);
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
    root, ui: build(root), k: 0, run: null, digest: null, runId: null, timer: null,
    playing: null, quiz: null, score: { right: 0, asked: 0 }, pending: null, frame: 0,
    setStateValue: component.setStateValue, synced: null, sentAt: null, unsynced: null,
  };
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
  s.synced = sameRun ? s.synced : s.k;
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
  const longest = Math.max(...[0, s.K].map((k) => status({ ...s, k }).length));
  s.ui.box.style.setProperty("--pl-status-chars", String(longest + 2));
  s.ui.weightsHost.hidden = !h.layers.includes("weights");
  s.ui.box.classList.toggle("pl-follower", Boolean(h.follow));
  if (h.lead) s.ui.box.dataset.plLead = h.lead;
  s.ui.explain.hidden = !h.layers.includes("explain");
  s.ui.predictLabel.hidden = h.layers.includes("kernel");  // Predict asks how w turns
  stopPlay(s);
  closeQuiz(s);
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

function status(s) {
  const { header: h, columns: c } = s.run;
  const k = s.k;
  const epoch = k ? row(c.epoch, k) : 0;
  const mistakes = row(c.mistakes, k);
  // beside another run the line has half the width: it says how the run ends, at its end
  let end = s.pair ? "" : "still learning";
  if (k === s.K) end = h.result.converged ? "converged" : "not converged";
  let extra = "";
  if (h.layers.includes("band") || h.layers.includes("errors")) {
    const m = margins(s, row(c.W, k), row(c.b, k));
    if (h.layers.includes("errors")) extra += ` \u00b7 ${m.wrong} / ${c.y.values.length} training errors`;
    if (h.layers.includes("band")) {
      extra += ` \u00b7 margin ${Number.isFinite(m.margin) ? num(m.margin) : "\u2212\u221e"}`;
    }
  }
  const word = h.words?.mistakes ?? "mistake";
  // a window of a longer run (e.g. one period of a cycle) counts steps as the run does, t
  const where = h.t0 ? `Step ${h.t0 + k} (${k} / ${s.K} ${h.words?.window ?? "shown"})`
    : `Step ${k} / ${s.K}`;
  return `${where} \u00b7 epoch ${epoch} \u00b7 ${mistakes} ${word}${mistakes === 1 ? "" : "s"}${extra}`
    + (end ? ` \u00b7 ${end}` : "");
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
  const ring = o.shape("visited", "circle", { class: "pl-visited", r: 13 * (h.lecture ? 1.6 : 1),
                                              "stroke-width": 4 * scale });
  band.setAttribute("visibility", "hidden");
  reach.setAttribute("visibility", "hidden");
  if (h.layers.includes("band")) {
    const m = margins(s, w, b);
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
  placeRing(ring, c, k, axes, h.layers.includes("visited"));
}

function offView(w, b, axes) {
  // where a boundary outside the view lies: the view's corner nearest to it (a line missing a
  // box is nearest to one of its corners), the way to it on screen, and how far it is
  const norm = Math.hypot(w[0], w[1]);
  if (norm < 1e-12) return null;  // w = 0: no boundary at all
  let best = null;
  for (const x of axes.xr) {
    for (const y of axes.yr) {
      const f = (w[0] * x + w[1] * y + b) / norm;
      if (!best || Math.abs(f) < Math.abs(best.f)) best = { x, y, f };
    }
  }
  const sign = best.f > 0 ? -1 : 1;  // toward the line
  const dx = axes.px(best.x + sign * w[0]) - axes.px(best.x);
  const dy = axes.py(best.y + sign * w[1]) - axes.py(best.y);
  const length = Math.hypot(dx, dy);
  return { corner: [axes.px(best.x), axes.py(best.y)], way: [dx / length, dy / length],
           distance: Math.abs(best.f), left: best.x === axes.xr[0], top: best.y === axes.yr[1] };
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

const KERNEL_GRID = 64;  // cells per side of the regions painted in the browser

function kernelOf(p) {
  if (p.name === "rbf") {
    const g = 1 / (2 * p.width * p.width);
    return (a0, a1, b0, b1) => Math.exp(-((a0 - b0) ** 2 + (a1 - b1) ** 2) * g);
  }
  if (p.name === "polynomial") return (a0, a1, b0, b1) => (a0 * b0 + a1 * b1 + p.offset) ** p.degree;
  return (a0, a1, b0, b1) => a0 * b0 + a1 * b1;
}

function gridValues(s, axes, name, add) {
  // Values on the view's grid after k steps, kept per layer: add(cache, t, sign) adds (or
  // with sign -1 removes) step t's share; moved from the last k drawn, or rebuilt from 0 when
  // that is nearer. Cell centres, row 0 at the top (as the canvas's rows).
  const key = `${s.runId}:${axes.xr}:${axes.yr}`;
  s.grids = s.grids ?? {};
  let cache = s.grids[name];
  if (!cache || cache.key !== key) {
    const n = KERNEL_GRID;
    const gx = new Float64Array(n * n);
    const gy = new Float64Array(n * n);
    const [x0, x1] = axes.xr;
    const [y0, y1] = axes.yr;
    for (let r = 0; r < n; r++) {
      for (let q = 0; q < n; q++) {
        gx[r * n + q] = x0 + ((q + 0.5) * (x1 - x0)) / n;
        gy[r * n + q] = y1 - ((r + 0.5) * (y1 - y0)) / n;
      }
    }
    cache = { key, gx, gy, values: new Float64Array(n * n), k: 0,
              alpha: new Float64Array(s.run.columns.y.values.length) };
    s.grids[name] = cache;
  }
  if (s.k < Math.abs(s.k - cache.k)) {
    cache.values.fill(0);
    cache.alpha.fill(0);
    cache.k = 0;
  }
  while (cache.k < s.k) add(cache, ++cache.k, 1);
  while (cache.k > s.k) add(cache, cache.k--, -1);
  return cache;
}

function kernelValues(s, axes) {
  // s(g) = sum_j alpha_j y_j (K(x_j, g) + bias): each update adds eta y_i (K(x_i, g) + bias)
  // to the grid and eta to alpha_i
  const { header: h, columns: c } = s.run;
  const X = c.X.values;
  const y = c.y.values;
  const K = kernelOf(h.kernel);
  const bias = h.bias ? 1 : 0;
  return gridValues(s, axes, "kernel", (cache, t, sign) => {
    if (row(c.updated, t) !== 1) return;
    const { gx, gy, values } = cache;
    const i = row(c.index, t);
    const a0 = X[2 * i];
    const a1 = X[2 * i + 1];
    const coef = sign * h.eta * y[i];
    for (let j = 0; j < values.length; j++) values[j] += coef * (K(a0, a1, gx[j], gy[j]) + bias);
    cache.alpha[i] += sign * h.eta;
  });
}

function votedValues(s, axes) {
  // sum_k c_k sign(w_k.g + b_k) after t visits: each visit adds one vote to the weights in
  // force after it (core.variants.Voted; sign(0) = 0 as numpy's)
  const c = s.run.columns;
  return gridValues(s, axes, "voted", (cache, t, sign) => {
    const { gx, gy, values } = cache;
    const [w0, w1] = row(c.W, t);
    const b = row(c.b, t);
    for (let j = 0; j < values.length; j++) values[j] += sign * Math.sign(w0 * gx[j] + w1 * gy[j] + b);
  });
}

function zeroContour(values, axes) {
  // the path where the grid's values cross 0 (marching squares between cell centres, the
  // crossing placed linearly), in the overlay's pixels
  const n = KERNEL_GRID;
  const [left, top, width, height] = axes.clip;
  const at = (q, r) => [left + ((q + 0.5) * width) / n, top + ((r + 0.5) * height) / n];
  const v = (q, r) => values[r * n + q];
  const cross = (q0, r0, q1, r1) => {
    const a = v(q0, r0);
    const b = v(q1, r1);
    const t = a / (a - b);
    const [x0, y0] = at(q0, r0);
    const [x1, y1] = at(q1, r1);
    return [x0 + t * (x1 - x0), y0 + t * (y1 - y0)];
  };
  const parts = [];
  for (let r = 0; r + 1 < n; r++) {
    for (let q = 0; q + 1 < n; q++) {
      const corners = [[q, r], [q + 1, r], [q + 1, r + 1], [q, r + 1]];
      const side = corners.map(([a, b]) => v(a, b) > 0);
      const hits = [];
      for (let e = 0; e < 4; e++) {
        const [p0, p1] = [corners[e], corners[(e + 1) % 4]];
        if (side[e] !== side[(e + 1) % 4]) hits.push(cross(p0[0], p0[1], p1[0], p1[1]));
      }
      if (hits.length === 4) {
        // a saddle: the centre's sign says which pairs of crossings join
        const centre = corners.reduce((sum, [a, b]) => sum + v(a, b), 0) > 0;
        const pairs = centre === side[0] ? [[0, 3], [1, 2]] : [[0, 1], [2, 3]];
        for (const [i, j] of pairs) parts.push(hits[i], hits[j]);
      } else if (hits.length === 2) {
        parts.push(hits[0], hits[1]);
      }
    }
  }
  let d = "";
  for (let i = 0; i < parts.length; i += 2) {
    d += `M${parts[i][0].toFixed(1)},${parts[i][1].toFixed(1)}L${parts[i + 1][0].toFixed(1)},${parts[i + 1][1].toFixed(1)}`;
  }
  return d;
}

function drawContour(o, name, values, axes, attrs) {
  const path = o.shape(name, "path", { fill: "none", ...attrs });
  const d = values ? zeroContour(values, axes) : "";
  path.setAttribute("d", d);
  path.setAttribute("visibility", d ? "visible" : "hidden");
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
  const { header: h, columns: c } = s.run;
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
  const ring = o.shape("visited", "circle", { class: "pl-visited", r: 13 * (h.lecture ? 1.6 : 1),
                                              "stroke-width": 4 * scale });
  placeRing(ring, c, s.k, axes, true);
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
    if (w[0] !== 0 || w[1] !== 0) formula.innerHTML = boundaryMath(w, b);
    else {
      // words in running text, not in <mtext>: they wrap
      formula.innerHTML = `<math>${mi("w", true)}${mo("=")}${mi("0", true)}</math>: no boundary `
        + `yet (every <math>${mi("a")}${mo("=")}${mn(b)}</math>)`;
    }
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
  const m = h.svm ? svmStepMath(s, k) : stepMath(s, k);
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
  s.ui.status.textContent = status(s);
  s.ui.slider.value = String(k);
  s.ui.slider.setAttribute("aria-valuetext", `Step ${k} of ${s.K}`);
  s.ui.back.disabled = k === 0;
  s.ui.reset.disabled = k === 0;
  s.ui.step.disabled = k === s.K;
  s.ui.next.disabled = k === s.K;
  if (Boolean(s.playing) !== (s.ui.play.dataset.playing === "1")) {
    s.ui.play.dataset.playing = s.playing ? "1" : "0";
    labelButton(s.ui.play, s.playing ? "pause" : "play", s.playing ? "Pause" : "Play", null);
  }
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

function queueSync(s) {
  // One report per student at most every SYNC_EVERY_MS: a hall of 300 pressing every few
  // seconds would otherwise keep the server busy with reruns. The report leaves
  // SYNC_IDLE_MS after the last press, or, for a student who keeps pressing,
  // SYNC_EVERY_MS after the first press it has not reported; in both cases no sooner than
  // SYNC_EVERY_MS after the previous report. Leaving the page or the tab reports at once.
  const now = performance.now();
  if (s.unsynced === null) s.unsynced = now;
  const due = Math.max(Math.min(now + SYNC_IDLE_MS, s.unsynced + SYNC_EVERY_MS),
                       s.sentAt === null ? -Infinity : s.sentAt + SYNC_EVERY_MS);
  clearTimeout(s.timer);
  s.timer = setTimeout(() => flush(s), Math.max(0, due - now));
}

function flush(s) {
  clearTimeout(s.timer);
  s.timer = null;
  s.unsynced = null;
  if (!s.run || s.synced === s.k) return;
  s.synced = s.k;
  s.sentAt = performance.now();
  s.setStateValue("position", { run: s.runId, k: s.k });
}

function go(s, k) {
  k = Math.min(Math.max(k, 0), s.K);
  if (k === s.k) return;
  s.k = k;
  schedule(s);
  const h = s.run.header;
  if (h.lead) window.dispatchEvent(new CustomEvent("pl-lead", { detail: { group: h.lead, k } }));
  classPress(s, k);  // a class hears of a press here (stepper_class.js)
  if (!h.follow) queueSync(s);  // a follower's step is its leader's: only the leader reports
}

function nextMistake(s) {
  // "stops" when a lesson's clock stops at more than this run's own updates
  const updated = (s.run.columns.stops ?? s.run.columns.updated).values;
  for (let k = s.k + 1; k <= s.K; k++) if (updated[k] === 1) return k;
  return s.K;
}

// ------------------------------------------------------------------ Play

function stopPlay(s) {
  if (s.playing) cancelAnimationFrame(s.playing.frame);
  s.playing = null;
}

function startPlay(s) {
  if (s.k === s.K) go(s, 0);
  const playing = { last: performance.now(), frame: 0 };
  s.playing = playing;
  const tick = (now) => {
    if (s.playing !== playing) return;
    const every = 1000 / Number(s.ui.speed.value);
    if (now - playing.last >= every) {
      playing.last = now;
      go(s, s.k + 1);
      if (s.k === s.K) {
        stopPlay(s);
        schedule(s);
        return;
      }
    }
    playing.frame = requestAnimationFrame(tick);
  };
  playing.frame = requestAnimationFrame(tick);
  schedule(s);
}

// ------------------------------------------------------------------ Predict

function closeQuiz(s) {
  s.quiz = null;
  s.ui.quiz.hidden = true;
  s.ui.quiz.textContent = "";
}

function turn(wb, wa) {
  // +1 anticlockwise, -1 clockwise, 0 when w had no direction or kept it
  const cross = wb[0] * wa[1] - wb[1] * wa[0];
  if ((wb[0] === 0 && wb[1] === 0) || Math.abs(cross) < 1e-12) return 0;
  return cross > 0 ? 1 : -1;
}

function ask(s) {
  // before step k+1 is shown: mistake or not, and for a mistake, which way w turns
  const { header: h, columns: c } = s.run;
  const k = s.k + 1;
  const i = row(c.index, k);
  const x = row(c.X, i);
  const y = row(c.y, i);
  const quiz = { k, mistake: row(c.updated, k) === 1,
                 turn: turn(row(c.W, k - 1), row(c.W, k)), answer: null };
  s.quiz = quiz;
  const box = s.ui.quiz;
  box.textContent = "";
  box.hidden = false;
  html("p", {}, box, `Step ${(h.t0 ?? 0) + k} visits example ${i}: x = (${num(x[0])}, ${num(x[1])}), `
       + `y = ${num(y)} (${h.classes[y < 0 ? 0 : 1]}). Is it a mistake?`);
  const choices = html("div", { class: "pl-choices" }, box);
  const choice = (label, onClick) => {
    const b = html("button", { type: "button", class: "pl-button" }, choices, label);
    b.addEventListener("click", onClick);
    return b;
  };
  choice("Mistake", () => answerMistake(s, true));
  choice("No mistake", () => answerMistake(s, false));
  choices.querySelector("button").focus({ preventScroll: true });
}

function answerMistake(s, said) {
  const quiz = s.quiz;
  if (!quiz) return;
  if (said && quiz.mistake && quiz.turn !== 0) {
    quiz.answer = said;
    const box = s.ui.quiz;
    box.querySelector(".pl-choices").remove();
    html("p", {}, box, "Which way does w (and with it the boundary) turn?");
    const choices = html("div", { class: "pl-choices" }, box);
    for (const [label, value] of [["\u21ba anticlockwise", 1], ["\u21bb clockwise", -1]]) {
      const b = html("button", { type: "button", class: "pl-button" }, choices, label);
      b.addEventListener("click", () => reveal(s, quiz.turn === value, value));
    }
    choices.querySelector("button").focus({ preventScroll: true });
    return;
  }
  reveal(s, said === quiz.mistake, null);
}

function reveal(s, right, turned) {
  const quiz = s.quiz;
  s.score.asked += 1;
  if (right) s.score.right += 1;
  closeQuiz(s);
  go(s, quiz.k);
  const way = quiz.turn > 0 ? "anticlockwise" : "clockwise";
  let said;
  if (right) said = "Right";
  else if (turned !== null) said = `Not quite: it was a mistake, but w turns ${way}`;
  else said = quiz.mistake ? "Not quite: it was a mistake" : "Not quite: it was correct";
  s.ui.score.hidden = false;
  s.ui.score.textContent = `${said}. Predictions: ${s.score.right} / ${s.score.asked} right.`;
}

// ------------------------------------------------------------------ input

function act(s, action) {
  if (!s.run) return;
  if (action !== "play" && s.playing) stopPlay(s);
  if (action === "step") {
    if (s.ui.predict.checked && s.k < s.K && row(s.run.columns.index, s.k + 1) >= 0) {
      if (!s.quiz) ask(s);
      return;
    }
    go(s, s.k + 1);
  } else if (action === "back") {
    closeQuiz(s);
    go(s, s.k - 1);
  } else if (action === "next") {
    closeQuiz(s);
    go(s, nextMistake(s));
  } else if (action === "reset") {
    closeQuiz(s);
    go(s, 0);
  } else if (action === "play") {
    closeQuiz(s);
    if (s.playing) stopPlay(s);
    else startPlay(s);
  }
  schedule(s);
}

function typing(target) {
  // the student writes in a field (or works another widget's own arrows): leave the key alone
  if (!(target instanceof Element)) return false;
  if (target.closest(".pl-stepper") && target.classList.contains("pl-slider")) return false;
  if (target.isContentEditable || target.closest("textarea, select, [role=combobox], [role=listbox], [role=slider], [role=menu]")) return true;
  if (target.tagName === "INPUT") {
    const type = (target.getAttribute("type") || "text").toLowerCase();
    return !["checkbox", "radio", "button", "submit", "reset", "range"].includes(type);
  }
  return false;
}

function listen(s, ownsKeys) {
  const onClick = (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action && action !== "predict") act(s, action);
  };
  const onSlider = () => {
    stopPlay(s);
    closeQuiz(s);
    go(s, Number(s.ui.slider.value));
  };
  const onPredict = () => {
    closeQuiz(s);
    s.ui.score.hidden = !s.ui.predict.checked && s.score.asked === 0;
    if (s.ui.predict.checked && s.score.asked === 0) {
      s.ui.score.hidden = false;
      s.ui.score.textContent = `Predict: press Step${s.ownsKeys ? " (\u2192)" : ""} and answer `
        + "before the step is shown.";
    }
  };
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const action = KEYS[event.key];
    if (!action || typing(event.target) || !s.root.isConnected) return;
    event.preventDefault();
    event.stopPropagation();
    act(s, action);
  };
  const onLeave = () => flush(s);
  const onHidden = () => {
    if (document.visibilityState === "hidden") flush(s);
  };
  const onElsewhere = (event) => {
    // a click outside the stepper may change a setting or the page: the server hears k first
    if (s.timer !== null && !s.ui.box.contains(event.target)) flush(s);
  };
  const onLead = (event) => {
    const h = s.run?.header;
    if (h && h.follow && event.detail.group === h.follow) go(s, event.detail.k);
  };
  window.addEventListener("pl-lead", onLead);
  const onClass = (event) => classEvent(s, event.detail);  // a class drives it (stepper_class.js)
  window.addEventListener("pl-class", onClass);
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
  window.addEventListener("pagehide", onLeave);
  document.addEventListener("visibilitychange", onHidden);
  document.addEventListener("pointerdown", onElsewhere, true);
  return () => {
    s.ui.box.removeEventListener("click", onClick);
    s.ui.slider.removeEventListener("input", onSlider);
    s.ui.predict.removeEventListener("change", onPredict);
    window.removeEventListener("keydown", onKey, true);
    window.removeEventListener("pagehide", onLeave);
    document.removeEventListener("visibilitychange", onHidden);
    document.removeEventListener("pointerdown", onElsewhere, true);
    window.removeEventListener("pl-lead", onLead);
    window.removeEventListener("pl-class", onClass);
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
  advertiseKeys(s, ownsKeys);
  if (changed && s.run) schedule(s);  // the hints in the maths follow
  const stop = listen(s, ownsKeys);
  s.stop = stop;
  return () => {
    stop();
    if (s.stop === stop) s.stop = null;
    if (!root.isConnected) {
      flush(s);
      stopPlay(s);
      document.documentElement.classList.remove("pl-lecture-page");
    }
  };
}

// The ring round the example visited at step k (hidden at the start or when not drawn).
function placeRing(ring, c, k, axes, drawn) {
  const i = k > 0 && drawn ? row(c.index, k) : -1;
  ring.setAttribute("visibility", i >= 0 ? "visible" : "hidden");
  if (i >= 0) {
    ring.setAttribute("cx", axes.px(c.X.values[2 * i]));
    ring.setAttribute("cy", axes.py(c.X.values[2 * i + 1]));
  }
}
