// @uses wire.js
// @provides el, axesOf, setLine, Overlay, visitedRing
// Drawing over a Plotly chart: the moving parts are a few SVG elements on a layer of their
// own, placed in pixels through the chart's axes, rather than Plotly traces (a restyle
// repaints every marker). Also the SVG element helper (HTML's is dom.js).

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function axesOf(gd) {
  // a drawn chart's axes: data to pixels, the ranges, the chart's size and its plot area
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

export function setLine(line, a, b, axes) {
  // a line from a to b (data coordinates), or hidden when a is missing
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

export class Overlay {
  // an SVG layer over one Plotly chart, its parts clipped to the plot area
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

export function visitedRing(overlay, run, k, axes, drawn) {
  // the ring round the example visited at step k (hidden at the start or when not drawn)
  const scale = run.header.lecture ? 1.8 : 1;
  const ring = overlay.shape("visited", "circle", {
    class: "pl-visited", r: 13 * (run.header.lecture ? 1.6 : 1), "stroke-width": 4 * scale });
  const X = run.columns.X.values;
  const i = k > 0 && drawn ? row(run.columns.index, k) : -1;
  ring.setAttribute("visibility", i >= 0 ? "visible" : "hidden");
  if (i >= 0) {
    ring.setAttribute("cx", axes.px(X[2 * i]));
    ring.setAttribute("cy", axes.py(X[2 * i + 1]));
  }
}
