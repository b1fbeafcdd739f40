// @uses ../dom.js ../wire.js ../overlay.js ../grid.js ../stepper.js
// The kernel perceptron in its dual form: the regions sign s(x) painted on a canvas under the
// points, their boundary s(x) = 0, each example's alpha as the area of a disc round it, and
// the visited example's ring. s(x) = sum_j alpha_j y_j (K(x_j, x) + bias) is kept on a grid
// over the view (grid.js): each update adds eta y_i (K(x_i, g) + bias) to it.

function kernelOf(p) {
  // K(a, b) for the run's kernel (core.kernel's linear, polynomial and RBF)
  if (p.name === "rbf") {
    const g = 1 / (2 * p.width * p.width);
    return (a0, a1, b0, b1) => Math.exp(-((a0 - b0) ** 2 + (a1 - b1) ** 2) * g);
  }
  if (p.name === "polynomial") return (a0, a1, b0, b1) => (a0 * b0 + a1 * b1 + p.offset) ** p.degree;
  return (a0, a1, b0, b1) => a0 * b0 + a1 * b1;
}

function kernelValues(part, run, k, axes) {
  // s on the grid, and every alpha, after k steps
  const { header: h, columns: c } = run;
  const X = c.X.values;
  const y = c.y.values;
  const K = kernelOf(h.kernel);
  const bias = h.bias ? 1 : 0;
  part.grid = gridSums(part.grid, `${h.run}:${axes.xr}:${axes.yr}`, axes.xr, axes.yr, y.length, k,
                       (cache, t, sign) => {
    if (row(c.updated, t) !== 1) return;
    const { gx, gy, values } = cache;
    const i = row(c.index, t);
    const a0 = X[2 * i];
    const a1 = X[2 * i + 1];
    const coef = sign * h.eta * y[i];
    for (let j = 0; j < values.length; j++) values[j] += coef * (K(a0, a1, gx[j], gy[j]) + bias);
    cache.alpha[i] += sign * h.eta;
  });
  return part.grid;
}

function drawAlpha(part, o, run, axes, alpha) {
  // each example's alpha as the area of a disc round it, as the server's figure sized its
  // markers (lessons.variants.figures.alpha_sizes: 6 px for the least, 22 px for the largest alpha)
  const { header: h, columns: c } = run;
  const X = c.X.values;
  const y = c.y.values;
  const top = Math.max(0, ...alpha);
  const scale = h.lecture ? 1.6 : 1;
  for (let i = 0; i < alpha.length; i++) {
    if (!part.discs[i] && alpha[i] > 0) {
      const color = h.palette.classes[y[i] < 0 ? 0 : 1];
      part.discs[i] = el("circle", { class: "pl-alpha", fill: color, stroke: color });
      o.layer.insertBefore(part.discs[i], o.layer.firstChild);
    }
    const disc = part.discs[i];
    if (!disc) continue;
    disc.setAttribute("visibility", alpha[i] > 0 ? "visible" : "hidden");
    if (alpha[i] <= 0) continue;
    const size = (6 + 16 * Math.sqrt(alpha[i] / top)) * scale;
    disc.setAttribute("r", size / 2);
    disc.setAttribute("cx", axes.px(X[2 * i]));
    disc.setAttribute("cy", axes.py(X[2 * i + 1]));
  }
}

function paintRegions(canvas, values, tints) {
  // one pixel per grid cell, tinted by the sign of s there (none where s is 0)
  const n = KERNEL_GRID;
  canvas.width = n;
  canvas.height = n;
  const context = canvas.getContext("2d");
  const image = context.createImageData(n, n);
  const [neg, pos] = tints;
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    const tint = v > 1e-9 ? pos : v < -1e-9 ? neg : null;
    if (tint) image.data.set(tint, 4 * j);
  }
  context.putImageData(image, 0, 0);
}

LAYERS.push({
  name: "kernel",
  wants: (header) => header.layers.includes("kernel"),
  // beside the steps, what paints the regions (the kernel, in the server's words)
  build: (ui) => ({ canvas: null, grid: null, discs: [],
                    note: html("p", { class: "pl-kernel-note", hidden: "" }, ui.side) }),
  load(part, run) {
    const kernel = run.header.layers.includes("kernel") ? run.header.kernel : null;
    part.note.hidden = !kernel;
    part.note.textContent = kernel ? `Regions: sign s(x), ${kernel.describe}.` : "";
  },
  draw(part, { run, k, plane }) {
    if (!plane) return;
    const { overlay: o, axes, chart: gd } = plane;
    const h = run.header;
    if (!part.canvas) {
      part.canvas = html("canvas", { class: "pl-regions", "aria-hidden": "true" });
      part.canvas.style.position = "absolute";
      part.canvas.style.pointerEvents = "none";
    }
    const canvas = part.canvas;
    if (canvas.parentNode !== gd || gd.firstChild !== canvas) gd.insertBefore(canvas, gd.firstChild);
    const [left, top, width, height] = axes.clip;
    Object.assign(canvas.style, { left: `${left}px`, top: `${top}px`, width: `${width}px`,
                                  height: `${height}px` });
    const { values, alpha } = kernelValues(part, run, k, axes);
    paintRegions(canvas, values, h.palette.tint);
    const scale = h.lecture ? 1.8 : 1;
    drawAlpha(part, o, run, axes, alpha);
    drawContour(o, "kernelBoundary", k > 0 ? values : null, axes,
                { class: "pl-boundary", "stroke-width": 3 * scale });
    visitedRing(o, run, k, axes, true);
  },
});
