// @uses ../dom.js ../ids.js ../wire.js ../overlay.js ../stepper.js
// Weight space, beside the plane: w as an arrow from the origin; at an update, w before it
// (faint) and the step eta y x from it to the new w.

LAYERS.push({
  name: "weights",
  wants: (header) => header.layers.includes("weights"),
  build(ui) {
    const host = html("div", { class: "pl-chart pl-weights" }, ui.side);
    const chart = html("div", { class: "pl-plot" }, host);
    return { host, chart, overlay: new Overlay(chart, newId()) };
  },
  load(part, run) {
    part.host.hidden = !run.header.layers.includes("weights");
  },
  plot(part, run, Plotly, config) {
    const figure = run.header.weights_figure;
    return Plotly.react(part.chart, figure.data, figure.layout, config);
  },
  draw(part, { run, k }) {
    const gd = part.chart;
    if (!gd._fullLayout || !gd._fullLayout.xaxis) return;
    const { header: h, columns: c } = run;
    const axes = axesOf(gd);
    const o = part.overlay;
    o.place(axes);
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
  },
});
