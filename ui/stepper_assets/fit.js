// A chart as wide as its box, whenever the box changes (the stepper's relayout), and its
// legend where the page has room for it.

const FOOT_LEGEND = { orientation: "h", xref: "container", x: 0, xanchor: "left",
                      yref: "container", y: 0, yanchor: "bottom" };

export function legendFor(legend, under) {
  // A legend beside the plot (x >= 1, as each of two runs side by side has) goes ``under`` it
  // in a narrow box: beside it, it would take half the width (and the toolbar would cover
  // its title). Any other legend stays where the figure has it.
  if (!under || !legend || legend.orientation !== "v" || !(legend.x >= 1)) return legend;
  const title = legend.title ? { ...legend.title, side: "top" } : undefined;
  return { ...legend, ...FOOT_LEGEND, ...(title ? { title } : {}) };
}

export function fitWidth(gd, Plotly, legend = null) {
  // A chart as wide as its box. Plotly writes the width of its first drawing into the layout,
  // and its own resize does nothing to a layout that holds a width and a height (ours always
  // holds a height): a box that narrows (a tablet turned, the sidebar opening beside two runs)
  // would keep a chart wider than itself. ``legend``: where the legend is to be now (legendFor).
  const width = Math.floor(gd.getBoundingClientRect().width);
  const change = {};
  if (width > 0 && Math.abs(width - gd._fullLayout.width) >= 1) change.width = width;
  if (legend && legend.orientation !== gd.layout.legend?.orientation) change.legend = legend;
  return Object.keys(change).length ? Plotly.relayout(gd, change) : Promise.resolve(gd);
}
