// @uses ../stepper_assets/dom.js strip.js lead.js
// @provides INCOMING_MS, CLOSE_WORDS, plural, readNumber, readPoint, planeOf, boxOf, clipped,
// @provides equation, through, drawLines, clearLines, buildQuestions, offerButtons, stepperRun,
// @provides rowOf, stepOffers, numberOffer, lineOffer
// Questions of every kind in the class strip (the kinds are classroom/state.py's KINDS; what a
// lecturer may ask on the page in view is ui/class_questions.py's): the lecturer's Ask
// buttons, a student's answer (a choice, a number, a line drawn on their own plane), and the
// reveal. "mistake" and "turn" stay in the stepper's box (layers/class.js); the others are
// asked here, on any page, stepping or not. A line question's answers come to the lecturer's
// devices as they arrive and are drawn faintly over its plane (never on a student's page);
// the reveal draws the true boundary over them, with how many were close.
// Uses strip.js (url, tell, mainStepper) and lead.js (lead, post); every outside text is set as
// text.

export const INCOMING_MS = 1500;  // how often a projector asks for the lines come since
const SVG_NS = "http://www.w3.org/2000/svg";
// "close" (classroom/state.py's agreement): the share of a 21 x 21 grid over the plane that a
// line puts on the same sides as the right boundary
export const CLOSE_WORDS = (close) => `a line is close when it puts at least `
  + `${Math.round(100 * (readNumber(close)?.value ?? 0.9))} % of a 21 \u00d7 21 grid over the `
  + "plane on the same sides as the boundary";

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// ------------------------------------------------------------------ numbers as typed

export function readNumber(text) {
  // a number as a student types it: "0.35", "0,35", "-7/20", "\u22122", "1.5e-3"; null if not
  const t = String(text ?? "").trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  if (/^[+-]?\d{1,30}\/\d{1,30}$/.test(t)) {
    const [p, q] = t.split("/").map(Number);
    return q === 0 ? null : { value: p / q, text: t };
  }
  const d = t.replace(",", ".");
  if (/^[+-]?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})([eE][+-]?\d{1,3})?$/.test(d)) {
    return { value: Number(d), text: d };
  }
  return null;
}

export function readPoint(text) {
  // "x, y" or "x y" or "(x; y)": two numbers, a decimal point (not a comma) in each
  const parts = String(text ?? "").replace(/[()]/g, " ").trim().split(/\s*[,;]\s*|\s+/);
  if (parts.length !== 2) return null;
  const xy = parts.map((p) => readNumber(p.replace(",", "_")));
  return xy.every(Boolean) ? xy.map((n) => n.value) : null;
}

// ------------------------------------------------------------------ the plane on the page

export function planeOf() {
  // the page's plane: the stepper's, else the first 2-D chart with equal scales
  const main = document.querySelector('[data-testid="stMain"]') ?? document;
  const own = ".pl-stepper:not(.pl-follower) .pl-plane .js-plotly-plot";
  const plots = [...main.querySelectorAll(own), ...main.querySelectorAll(".js-plotly-plot")];
  const gd = plots.find((p) => p._fullLayout?.xaxis && p._fullLayout?.yaxis?.scaleanchor === "x")
    ?? plots.find((p) => p._fullLayout?.xaxis?.range);
  if (!gd) return null;
  const xa = gd._fullLayout.xaxis;
  const ya = gd._fullLayout.yaxis;
  return {
    gd, xr: [...xa.range].sort((p, q) => p - q), yr: [...ya.range].sort((p, q) => p - q),
    px: (x) => xa._offset + xa.l2p(x), py: (y) => ya._offset + ya.l2p(y),
    x: (px) => xa.p2l(px - xa._offset), y: (py) => ya.p2l(py - ya._offset),
    area: [xa._offset, ya._offset, xa._length, ya._length],
  };
}

export function boxOf(plane) {
  return [...plane.xr, ...plane.yr].map((v) => String(Number(v.toPrecision(12))));
}

export function clipped(w1, w2, b, xr, yr) {
  // the segment of w1 x + w2 y + b = 0 inside the box, or null
  const points = [];
  for (const x of xr) if (w2 !== 0) points.push([x, -(w1 * x + b) / w2]);
  for (const y of yr) if (w1 !== 0) points.push([-(w2 * y + b) / w1, y]);
  const e = 1e-9 * Math.max(1, ...xr.map(Math.abs), ...yr.map(Math.abs));
  const inside = points.filter(([x, y]) => x >= xr[0] - e && x <= xr[1] + e
                                          && y >= yr[0] - e && y <= yr[1] + e);
  if (inside.length < 2) return null;
  inside.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return [inside[0], inside[inside.length - 1]];
}

export function equation(w1, w2, b) {
  // "w1 x₁ + w2 x₂ + b = 0" as a reader writes it, "−x₁ − 2 x₂ − 1 = 0" (numbers as sent)
  const terms = [];
  for (const [value, name] of [[w1, "x\u2081"], [w2, "x\u2082"], [b, ""]]) {
    const text = String(value).trim();
    if (Number(text.split("/")[0]) === 0) continue;
    const negative = text.startsWith("-");
    const size = negative ? text.slice(1) : text;
    const body = name ? (size === "1" ? name : `${size} ${name}`) : size;
    const sign = negative ? "\u2212" : "";
    terms.push(terms.length ? `${sign || "+"} ${body}` : `${sign}${body}`);
  }
  return `${terms.join(" ") || "0"} = 0`;
}

export function through(x1, y1, x2, y2) {
  // (w1, w2, b) of the line through two points (state.line_through)
  const w1 = y2 - y1;
  const w2 = -(x2 - x1);
  return [w1, w2, -(w1 * x1 + w2 * y1)];
}

function layer(plane, capture) {
  // the class's layer over the plane: lines drawn (and, for a student, taps taken)
  const host = plane.gd;
  let svg = host.querySelector(":scope > svg.pl-class-lines");
  if (!svg) {
    svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "pl-class-lines");
    svg.setAttribute("aria-hidden", "true");
    host.appendChild(svg);
  }
  svg.setAttribute("width", plane.gd._fullLayout.width);
  svg.setAttribute("height", plane.gd._fullLayout.height);
  svg.classList.toggle("pl-class-capture", Boolean(capture));
  return svg;
}

export function drawLines(plane, lines, { capture = false } = {}) {
  // lines: [{w: [w1, w2], b, kind: "room" | "truth" | "own"}], each clipped to the plane
  const svg = layer(plane, capture);
  svg.replaceChildren();
  const [ax, ay, aw, ah] = plane.area;
  if (capture) {
    const rect = document.createElementNS(SVG_NS, "rect");
    Object.entries({ x: ax, y: ay, width: aw, height: ah, class: "pl-class-tap" })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    svg.appendChild(rect);
  }
  for (const line of lines) {
    const seg = clipped(Number(line.w[0]), Number(line.w[1]), Number(line.b), plane.xr, plane.yr);
    if (!seg) continue;
    const el = document.createElementNS(SVG_NS, "line");
    const [[x1, y1], [x2, y2]] = seg;
    Object.entries({ x1: plane.px(x1), y1: plane.py(y1), x2: plane.px(x2), y2: plane.py(y2),
                     class: `pl-class-line pl-line-${line.kind}` })
      .forEach(([k, v]) => el.setAttribute(k, v));
    svg.appendChild(el);
  }
  for (const [x, y] of lines.flatMap((l) => l.points ?? [])) {
    const dot = document.createElementNS(SVG_NS, "circle");
    Object.entries({ cx: plane.px(x), cy: plane.py(y), r: 7, class: "pl-class-point" })
      .forEach(([k, v]) => dot.setAttribute(k, v));
    svg.appendChild(dot);
  }
  return svg;
}

export function clearLines() {
  for (const svg of document.querySelectorAll("svg.pl-class-lines")) svg.remove();
}

// ------------------------------------------------------------------ the strip's part

export function buildQuestions(ui) {
  // the lecturer's questions in one disclosure: the strip keeps its one row on a projector
  ui.more = html("details", { class: "pl-class-more" }, ui.box);
  ui.moreSummary = html("summary", { class: "pl-button pl-class-ask" }, ui.more, "Questions");
  ui.offers = html("div", { class: "pl-class-offers" }, ui.more);
  ui.quiz = html("div", { class: "pl-class-quiz", role: "group",
                          "aria-label": "The class's question" }, ui.box);
  ui.quiz.hidden = true;
}

export function offerButtons(c, open) {
  const { ui } = c;
  const key = JSON.stringify([c.offers ?? [], open, Boolean(c.busy), stepNow()]);
  if (ui.offers.dataset.key === key) return;
  ui.offers.dataset.key = key;
  ui.offers.replaceChildren();
  const offers = open ? [] : [...(c.offers ?? []), ...stepOffers()];
  ui.more.hidden = offers.length === 0;
  ui.moreSummary.textContent = `Questions (${offers.length})`;
  if (!offers.length) ui.more.open = false;
  for (const offer of offers) {
    if (offer.problem) {
      html("span", { class: "pl-class-offer-problem" }, ui.offers, offer.problem);
      continue;
    }
    const b = html("button", { type: "button", class: "pl-button pl-class-ask pl-class-offer" },
                   ui.offers, offer.label);
    b.disabled = Boolean(c.busy);
    b.addEventListener("click", () => {
      ui.more.open = false;
      askOffer(c, offer);
    });
  }
}

function stepNow() {
  const box = mainStepper();
  return box?.dataset.step ?? null;
}

export function stepperRun() {
  // the page's own stepper's run, when it has a w (not a kernel's alphas)
  let el = mainStepper();
  while (el && !el.__plStepper) el = el.parentElement;
  return el?.__plStepper?.run ?? null;
}

export function rowOf(column, k) {
  // row k of a stepper's column (wire.js's row): a number, or an array for a 2-D column
  const { values, width } = column;
  return width === 1 ? values[k] : Array.from(values.subarray(k * width, (k + 1) * width));
}

export function stepOffers() {
  // a stepping view's quick questions beside its two built-in ones (strip.js's ASKS)
  return [numberOffer(), lineOffer()].filter(Boolean);
}

export function numberOffer() {
  // how many mistakes after the next step: a count of the run's updates, exact
  const run = stepperRun();
  const at = stepperAt();
  // (a window of a longer run, t0 > 0, has not the mistakes made before it)
  if (!run || run.header.t0 || !at || at.k >= at.K) return null;
  const k = at.k + 1;
  let mistakes = 0;
  for (let j = 1; j <= k; j += 1) mistakes += rowOf(run.columns.updated, j) === 1 ? 1 : 0;
  const text = `How many mistakes will the run have made after step ${(run.header.t0 ?? 0) + k}?`;
  return { label: "Ask: mistakes after the next step",
           body: { kind: "number", step: k, slide: 0,
                   spec: { text, answer: String(mistakes), tolerance: "0" } } };
}

export function lineOffer() {
  // on a stepping view: where will the boundary be after the next step (its w from the run)
  const run = stepperRun();
  const at = stepperAt();
  if (!run || !at || at.k >= at.K || !run.columns.W || run.header.layers.includes("kernel")) {
    return null;
  }
  const k = at.k + 1;
  const [w1, w2] = rowOf(run.columns.W, k);
  if (w1 === 0 && w2 === 0) return null;  // no boundary to draw after it
  // a boundary off the plane could not be drawn on it: not offered
  const plane = planeOf();
  if (!plane || !clipped(w1, w2, rowOf(run.columns.b, k), plane.xr, plane.yr)) return null;
  const text = `Where will the boundary be after step ${(run.header.t0 ?? 0) + k}? `
    + "Draw it on your plane.";
  return { label: "Ask: draw the boundary after the next step",
           body: { kind: "line", step: k, slide: 0,
                   spec: { text, w: [String(w1), String(w2)], b: String(rowOf(run.columns.b, k)),
                           box: null } } };
}

function askOffer(c, offer) {
  const body = structuredClone(offer.body);
  if (body.kind === "line") {
    const plane = planeOf();
    if (!plane) {
      c.problem = "This page has no plane to draw a line on.";
      render(c);
      return;
    }
    body.spec.box = boxOf(plane);
  }
  c.incoming = [];
  c.incomingAfter = 0;
  lead(c, "ask", body);
}

extensions.build.push(buildQuestions);
