// @provides KERNEL_GRID, gridSums, zeroContour, drawContour
// Values on a grid over the view, kept step by step: the kernel perceptron's scores s(x) and
// the voted perceptron's votes. Moving from step k to k + 1 adds one step's share to every
// cell rather than summing the whole run again; the zero contour of the values is the
// boundary, drawn between cell centres.

export const KERNEL_GRID = 64;  // cells per side of the regions painted in the browser

export function gridSums(cache, key, [x0, x1], [y0, y1], rows, k, add) {
  // The grid's values after k steps: add(cache, t, sign) adds (or with sign -1 removes) step
  // t's share; moved from the last k asked for, or rebuilt from 0 when that is nearer. A new
  // key (another run or view) starts a new cache. Cell centres, row 0 at the top (as a
  // canvas's rows); alpha has one entry per row of the data.
  if (!cache || cache.key !== key) {
    const n = KERNEL_GRID;
    const gx = new Float64Array(n * n);
    const gy = new Float64Array(n * n);
    for (let r = 0; r < n; r++) {
      for (let q = 0; q < n; q++) {
        gx[r * n + q] = x0 + ((q + 0.5) * (x1 - x0)) / n;
        gy[r * n + q] = y1 - ((r + 0.5) * (y1 - y0)) / n;
      }
    }
    cache = { key, gx, gy, values: new Float64Array(n * n), k: 0, alpha: new Float64Array(rows) };
  }
  if (k < Math.abs(k - cache.k)) {
    cache.values.fill(0);
    cache.alpha.fill(0);
    cache.k = 0;
  }
  while (cache.k < k) add(cache, ++cache.k, 1);
  while (cache.k > k) add(cache, cache.k--, -1);
  return cache;
}

export function zeroContour(values, [left, top, width, height]) {
  // the path where the grid's values cross 0 (marching squares between cell centres, the
  // crossing placed linearly), in the pixels of the plot area [left, top, width, height]
  const n = KERNEL_GRID;
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
        // a saddle: the corners of the centre's sign (its mean's) join through it, and the
        // crossings cut off the other two (corner 1 lies between edges 0 and 1, corner 3
        // between edges 2 and 3; corners 0 and 2 likewise between 3 and 0, 1 and 2)
        const centre = corners.reduce((sum, [a, b]) => sum + v(a, b), 0) > 0;
        const pairs = centre === side[0] ? [[0, 1], [2, 3]] : [[0, 3], [1, 2]];
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

export function drawContour(overlay, name, values, axes, attrs) {
  // the zero contour as the overlay's path `name`, hidden when there are no values
  const path = overlay.shape(name, "path", { fill: "none", ...attrs });
  const d = values ? zeroContour(values, axes.clip) : "";
  path.setAttribute("d", d);
  path.setAttribute("visibility", d ? "visible" : "hidden");
}
