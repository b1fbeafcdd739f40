// @uses ../format.js ../exact.js ../wire.js ../geometry.js ../overlay.js ../grid.js ../stepper.js
// @provides drawOffView, marginLines, glidePath, glided
// The plane's moving parts, each drawn only when the run's layers name it: the boundary
// w.x + b = 0 ("boundary") with its normal w ("normal"), the boundary before an update as a
// ghost ("ghost"), the visited example's ring ("visited"), the margin band of the boundary
// and its closest point ("band"), the lines w.x + b = +-1 ("margins"), the averaged and
// voted perceptrons ("averaged", "voted"). A boundary outside the view is shown by an arrow
// at the view's edge that says how far it is.
//
// When a step moves the boundary, it glides there from where it was and its normal turns,
// so that the room sees which way it went (glidePath).

export function drawOffView(o, away, scale, color, { name = "offview", word = "boundary",
                                                       nudge = 0, own = false } = {}) {
  // the overlay's parts ``name`` and ``name``Text; ``nudge`` px further in from the corner and
  // ``own`` colour, not the theme's boundary (a companion's, beside the run's)
  const arrow = o.line(name, { class: "pl-offview", "stroke-width": 3 * scale,
                               "marker-end": o.arrowHead(color) });
  const label = o.shape(`${name}Text`, "text", { class: "pl-offview-text" });
  if (own) {
    arrow.style.stroke = color;
    label.style.fill = color;
  }
  arrow.setAttribute("visibility", away ? "visible" : "hidden");
  label.setAttribute("visibility", away ? "visible" : "hidden");
  if (!away) return [arrow, label];
  const [cx, cy] = away.corner;
  const inset = [away.left ? 1 : -1, away.top ? 1 : -1];
  const tip = [cx + inset[0] * (8 + nudge) * scale, cy + inset[1] * (8 + nudge) * scale];
  const tail = [tip[0] - away.way[0] * 44 * scale, tip[1] - away.way[1] * 44 * scale];
  Object.entries({ x1: tail[0], y1: tail[1], x2: tip[0], y2: tip[1] })
    .forEach(([key, value]) => arrow.setAttribute(key, value));
  // two short lines, so the words fit a narrow plot (side by side on a projector)
  const x = cx + inset[0] * (10 + nudge) * scale;
  // reads "boundary d away"; a distance is a quotient by |w|, so mostly rounded: "≈ d" then
  // (format.js's written, the one rule)
  const lines = [`${word} `, `${written(away.distance)} away`];
  label.replaceChildren(...lines.map((text, i) => {
    const span = document.createElementNS(label.namespaceURI, "tspan");
    span.setAttribute("x", x);
    if (i > 0) span.setAttribute("dy", "1.15em");
    span.textContent = text;
    return span;
  }));
  label.setAttribute("x", x);
  label.setAttribute("y", cy + inset[1] * ((away.top ? 58 : 70) + nudge) * scale);
  label.setAttribute("text-anchor", away.left ? "start" : "end");
  return [arrow, label];
}

function drawBand(o, run, w, b, axes, band, reach) {
  // the band |w.x + b| <= the margin, and the distance from the closest point to the boundary
  const c = run.columns;
  band.setAttribute("visibility", "hidden");
  reach.setAttribute("visibility", "hidden");
  const m = margins(c.X.values, c.y.values, w, b, exactScores(run, w, b));
  if (!Number.isFinite(m.margin)) return;
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

function votedValues(part, run, k, axes) {
  // sum_k c_k sign(w_k.g + b_k) after k visits: each visit adds one vote to the weights in
  // force after it (core.variants.Voted; sign(0) = 0 as numpy's)
  const c = run.columns;
  part.voted = gridSums(part.voted, `${run.header.run}:${axes.xr}:${axes.yr}`, axes.xr, axes.yr,
                        c.y.values.length, k, (cache, t, sign) => {
    const { gx, gy, values } = cache;
    const [w0, w1] = row(c.W, t);
    const b = row(c.b, t);
    for (let j = 0; j < values.length; j++) values[j] += sign * Math.sign(w0 * gx[j] + w1 * gy[j] + b);
  });
  return part.voted;
}

function drawAveraged(part, o, run, k, axes, scale) {
  // the averaged weights mu after k visits (columns Wavg, bavg), dashed; none before a visit;
  // and the voted perceptron's boundary, dotted
  const { header: h, columns: c } = run;
  const line = o.line("averaged", { class: "pl-averaged", "stroke-width": 3 * scale,
                                    "stroke-dasharray": "10 6", stroke: h.palette.averaged });
  const seg = k > 0 ? clipLine(row(c.Wavg, k), row(c.bavg, k), axes.xr, axes.yr) : null;
  setLine(line, seg?.[0], seg?.[1], axes);
  if (h.layers.includes("voted")) {
    drawContour(o, "voted", k > 0 ? votedValues(part, run, k, axes).values : null, axes,
                { class: "pl-voted", "stroke-width": 4 * scale, "stroke-dasharray": "2 6",
                  "stroke-linecap": "round", stroke: h.palette.voted });
  }
}

export function marginLines(o, [upper, lower], w, b, axes, attrs) {
  // the lines w.x + b = 1 and w.x + b = -1 (the hinge's margins) as the overlay's parts of
  // these names, hidden where w is null
  return [[upper, -1], [lower, 1]].map(([name, shift]) => {
    const edge = o.line(name, attrs);
    const at = w ? clipLine(w, b + shift, axes.xr, axes.yr) : null;
    setLine(edge, at?.[0], at?.[1], axes);
    return edge;
  });
}

export function glidePath([w0, b0], [w1, b1]) {
  // The lines from w0.x + b0 = 0 to w1.x + b1 = 0, as a function of t in [0, 1]: their
  // functions, each divided by its |w|, mixed as (1 - s) f0 + s f1 (s eases t). That vanishes
  // only where f0 and f1 have opposite signs (or both vanish): every line lies between the two,
  // turning about the point where they cross, or moving parallel between them. null when
  // there is nothing to glide: either has w = 0 (no line), the line stays, or w turns so near
  // half a turn that a line on the way would have w ~ 0 (the two are nearly the same line
  // with opposite sides, or parallel with w flipped).
  const n0 = Math.hypot(w0[0], w0[1]);
  const n1 = Math.hypot(w1[0], w1[1]);
  if (!(n0 > 1e-12 && n1 > 1e-12)) return null;
  const u0 = [w0[0] / n0, w0[1] / n0, b0 / n0];
  const u1 = [w1[0] / n1, w1[1] / n1, b1 / n1];
  if (u0.every((v, i) => Math.abs(v - u1[i]) < 1e-12)) return null;
  // |w| is least half way, cos(turn / 2): under 0.1 is a turn of more than about 170 degrees
  if (Math.hypot(u0[0] + u1[0], u0[1] + u1[1]) / 2 < 0.1) return null;
  return (t) => {
    const s = 1 - (1 - Math.min(Math.max(t, 0), 1)) ** 3;  // quick off the mark, soft landing
    const mix = (i) => (1 - s) * u0[i] + s * u1[i];
    return [[mix(0), mix(1)], mix(2)];
  };
}

export function glided(part, run, w, b, view, redraw) {
  // the boundary to draw now: (w, b), or a line on the way to it while it glides, ``redraw``
  // (view) drawing the next frame. A move glides only from a boundary at rest: a new step
  // during a glide shows its own at once, so a quick stepper or Play never waits;
  // view.glide = 0 (reduced motion) never glides.
  const now = performance.now();
  const same = (p, q) => p[1] === q[1] && p[0][0] === q[0][0] && p[0][1] === q[0][1];
  const last = part.last;
  const target = [w, b];
  part.last = { run, target };
  if (part.glide && (part.glide.run !== run || !same(part.glide.target, target))) {
    part.glide = null;
  } else if (!part.glide && last && last.run === run && !same(last.target, target)
             && view.glide > 0) {
    const path = glidePath(last.target, target);
    if (path) part.glide = { run, target, path, start: now, ms: view.glide };
  }
  const glide = part.glide;
  const t = glide ? (now - glide.start) / glide.ms : 1;
  if (t >= 1) {
    part.glide = null;
    return target;
  }
  part.view = view;
  if (!part.frame) {
    part.frame = requestAnimationFrame(() => {
      part.frame = 0;
      if (part.glide) redraw(part.view);
    });
  }
  return glide.path(t);
}

const PLANE = {
  name: "plane",
  wants: (header) => !header.layers.includes("kernel"),
  draw(part, view) {
    const { run, k, plane } = view;
    if (!plane) return;
    const { overlay: o, axes } = plane;
    const { header: h, columns: c } = run;
    // the boundary drawn now, with its band, margins and normal: step k's, or on its way there
    const [w, b] = glided(part, run, row(c.W, k), row(c.b, k), view,
                          (next) => PLANE.draw(part, next));
    if (part.glide) o.svg.dataset.gliding = "";
    else delete o.svg.dataset.gliding;
    const updated = k > 0 && row(c.updated, k) === 1;
    const scale = h.lecture ? 1.8 : 1;
    // made in this order, which is the order they are drawn in (the band under them all)
    const ghost = o.line("ghost", { class: "pl-ghost", "stroke-width": 3 * scale, "stroke-dasharray": "8 6" });
    const line = o.line("boundary", { class: "pl-boundary", "stroke-width": 3 * scale });
    const normal = o.line("normal", { class: "pl-boundary", "stroke-width": 3 * scale,
                                      "marker-end": o.arrowHead(h.palette.boundary) });
    const band = o.shape("band", "polygon", { class: "pl-band" }, true);
    const reach = o.line("reach", { class: "pl-reach", "stroke-width": 2 * scale,
                                    "stroke-dasharray": "4 4" });
    visitedRing(o, run, k, axes, h.layers.includes("visited"));
    if (h.layers.includes("band")) drawBand(o, run, w, b, axes, band, reach);
    else {
      band.setAttribute("visibility", "hidden");
      reach.setAttribute("visibility", "hidden");
    }
    if (updated && h.layers.includes("ghost")) {
      const before = clipLine(row(c.W, k - 1), row(c.b, k - 1), axes.xr, axes.yr);
      setLine(ghost, before?.[0], before?.[1], axes);
    } else {
      setLine(ghost, null);
    }
    // the boundary, its normal and the arrow that says where it lies off the view: each
    // drawn only when the run's layers name it
    const seg = h.layers.includes("boundary") ? clipLine(w, b, axes.xr, axes.yr) : null;
    setLine(line, seg?.[0], seg?.[1], axes);
    if (h.layers.includes("margins")) {
      marginLines(o, ["upper", "lower"], w, b, axes,
                  { class: "pl-boundary", "stroke-width": 1.5 * scale, "stroke-dasharray": "6 4" });
    }
    if (h.layers.includes("averaged")) drawAveraged(part, o, run, k, axes, scale);
    // a boundary outside the view has no normal to draw here: an edge marker says where it is
    const away = seg || !h.layers.includes("boundary") ? null : offView(w, b, axes);
    const arrow = seg && h.layers.includes("normal") ? normalArrow(w, b, axes.xr, axes.yr) : null;
    setLine(normal, arrow?.[0], arrow?.[1], axes);
    drawOffView(o, away, scale, h.palette.boundary, { word: h.words?.boundary ?? "boundary" });
  },
};
LAYERS.push(PLANE);
