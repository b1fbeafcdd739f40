// A chart as wide as its box, whenever the box changes (the stepper's relayout).

export function fitWidth(gd, Plotly) {
  // A chart as wide as its box. Plotly writes the width of its first drawing into the layout,
  // and its own resize does nothing to a layout that holds a width and a height (ours always
  // holds a height): a box that narrows (a tablet turned, the sidebar opening beside two runs)
  // would keep a chart wider than itself.
  const width = Math.floor(gd.getBoundingClientRect().width);
  if (width > 0 && Math.abs(width - gd._fullLayout.width) >= 1) {
    return Plotly.relayout(gd, { width });
  }
  return Promise.resolve(gd);
}
