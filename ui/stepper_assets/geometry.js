// @uses format.js
// @provides clipLine, normalArrow, clipPolygon, margins, offView, equationWords, describeBoundary
// Lines, polygons and margins in the plane, in the data's coordinates: the shapes that
// viz/shapes.py cuts to a view and core/geometry.py measures on the server, computed here
// for every step. A view is its two ranges, xr = [x0, x1] and yr = [y0, y1].

export function clipLine(w, b, [x0, x1], [y0, y1]) {
  // the part of w.x + b = 0 inside the view as its two ends, or null (viz.shapes.segment)
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

export function normalArrow(w, b, xr, yr) {
  // from the boundary point nearest the view's centre, along w, 0.18 of the view's width
  // (viz.shapes.normal_arrow)
  const norm = Math.hypot(w[0], w[1]);
  if (norm < 1e-12) return null;
  const c = [(xr[0] + xr[1]) / 2, (yr[0] + yr[1]) / 2];
  const s = (w[0] * c[0] + w[1] * c[1] + b) / (norm * norm);
  const foot = [c[0] - s * w[0], c[1] - s * w[1]];
  const length = 0.18 * (xr[1] - xr[0]);
  return [foot, [foot[0] + (length * w[0]) / norm, foot[1] + (length * w[1]) / norm]];
}

export function clipPolygon(points, a, c) {
  // the part of a polygon where a.p <= c (one step of Sutherland-Hodgman, viz.shapes.clip)
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

export function margins(X, y, w, b, exact = null) {
  // the geometric margin of (w, b) on the data (-Infinity if it errs, as
  // core.geometry.geometric_margin), its closest row, and how many rows it gets wrong
  // (y a <= 0 counts as wrong, as in the rule); X holds the rows' two coordinates in turn.
  // With exact (exact.js's exactScores: a_i's integer, and its unit) every comparison is the
  // integers', and only the margin's value, a length, is a float.
  const norm = Math.hypot(w[0], w[1]);
  let low = Infinity;
  let closest = -1;
  let wrong = 0;
  for (let i = 0; i < y.length; i++) {
    let m;
    if (exact) {
      const a = exact.a(i);
      m = y[i] > 0 ? a : -a;
    } else {
      m = y[i] * (w[0] * X[2 * i] + w[1] * X[2 * i + 1] + b);
    }
    if (m <= 0) wrong += 1;
    if (m < low) {
      low = m;
      closest = i;
    }
  }
  const lowest = exact && closest >= 0 ? Number(low) / exact.unit : low;
  const margin = norm > 0 && low > 0 ? lowest / norm : -Infinity;
  return { margin, closest, wrong, norm, exact: Boolean(exact) };
}

export function offView(w, b, axes) {
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

// A boundary in words, as viz.describe.boundary says it: its equation, the points on each side
// and its margin (for the plane's text alternative)
const said = (value) => num(value).replace("-", "\u2212");
const count = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

export function equationWords(w, b) {
  // viz.describe.equation: "0.3 x₁ + 0 x₂ − 0.1 = 0", "≈ 0" where a number written is rounded
  const terms = [`${said(w[0])} x\u2081`];
  for (const [value, name] of [[w[1], " x\u2082"], [b, ""]]) {
    terms.push(`${value < 0 ? "\u2212 " : "+ "}${num(Math.abs(value))}${name}`);
  }
  return `${terms.join(" ")} ${eqSign([w[0], w[1], b])} 0`;
}

export function describeBoundary(X, y, w, b, name = "The boundary", exact = null) {
  if (w[0] === 0 && w[1] === 0) {
    return `${name}: w = 0, so there is no line; every point has a ${eqSign(b)} ${num(b)}.`;
  }
  const tally = { 1: [0, 0], [-1]: [0, 0] };
  let on = 0;
  let wrong = 0;
  for (let i = 0; i < y.length; i++) {
    // which side: the integers' sign on an exact run (exact.js), else the float's
    const a = exact ? exact.a(i) : X[2 * i] * w[0] + X[2 * i + 1] * w[1] + b;
    if (a > 0) tally[1] = [tally[1][0] + 1, tally[1][1] + (y[i] === 1)];
    else if (a < 0) tally[-1] = [tally[-1][0] + 1, tally[-1][1] + (y[i] === -1)];
    else on += 1;
    if (y[i] > 0 ? a <= 0 : a >= 0) wrong += 1;
  }
  const parts = [[1, "On its positive side (a > 0)", "+1"], [-1, "On its negative side", "\u22121"]]
    .map(([label, where, sign]) => {
      const [n, own] = tally[label];
      return `${where}: ${count(n, "point")}${n ? `, ${own.toLocaleString("en-US")} of class ${sign}` : ""}.`;
    });
  if (on) parts.push(`On the line: ${count(on, "point")}.`);
  parts.push(wrong ? `${count(wrong, "point")} ${wrong === 1 ? "is" : "are"} on the wrong side or `
    + "on the line." : "Every point is on its own class's side.");
  let text = `${name}: ${equationWords(w, b)}. ${parts.join(" ")}`;
  const { margin } = margins(X, y, w, b, exact);
  if (Number.isFinite(margin) && margin > 0) text += ` Margin ${written(margin, true, 4)}.`;
  return text;
}
