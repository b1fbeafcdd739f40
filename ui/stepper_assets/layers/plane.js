// The plane's moving parts: the boundary w.x + b = 0 with its normal w, the boundary before
// an update as a ghost, the visited example's ring; as the lesson asks, the margin band of
// the boundary and its closest point ("band"), the lines w.x + b = +-1 ("margins"), the
// averaged and voted perceptrons ("averaged", "voted"). A boundary outside the view is
// shown by an arrow at the view's edge that says how far it is.

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
  // reads "boundary d away"; a distance is a quotient by |w|, so mostly rounded: "≈ d" then
  const shown = num(away.distance);
  const rounded = Math.abs(Number(shown) - away.distance) > 1e-12 * Math.max(1, away.distance);
  const lines = ["boundary ", `${rounded ? "≈ " : ""}${shown} away`];
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

LAYERS.push({
  name: "plane",
  wants: (header) => !header.layers.includes("kernel"),
  draw(part, { run, k, plane }) {
    if (!plane) return;
    const { overlay: o, axes } = plane;
    const { header: h, columns: c } = run;
    const w = row(c.W, k);
    const b = row(c.b, k);
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
        const edge = o.line(name, { class: "pl-boundary", "stroke-width": 1.5 * scale,
                                    "stroke-dasharray": "6 4" });
        const lineAt = clipLine(w, b + shift, axes.xr, axes.yr);
        setLine(edge, lineAt?.[0], lineAt?.[1], axes);
      }
    }
    if (h.layers.includes("averaged")) drawAveraged(part, o, run, k, axes, scale);
    // a boundary outside the view has no normal to draw here: an edge marker says where it is
    const away = seg ? null : offView(w, b, axes);
    const arrow = seg ? normalArrow(w, b, axes.xr, axes.yr) : null;
    setLine(normal, arrow?.[0], arrow?.[1], axes);
    drawOffView(o, away, scale, h.palette.boundary);
  },
});
