// The plane's Plotly figure for a run, and Plotly itself, loaded once per page. The figure
// comes in the run's header without its points (ui/stepper.py); they come from the typed
// columns, split by class as the figure's traces are.

let plotlyLoading = null;

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyLoading) {
    plotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      // a module from a Blob URL has no base for relative imports: resolve against the page
      script.src = new URL(window.__perceptronPlotlyUrl || "app/static/plotly.min.js",
                           location.href).href;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { plotlyLoading = null; reject(new Error("plotly.min.js")); };
      document.head.appendChild(script);
    });
  }
  return plotlyLoading;
}

export function planeFigure(run, place) {
  // { data, layout, config } for Plotly.react: a copy of the header's figure (it is the run's,
  // drawn again at every load) with the points, sized and its legend placed for ``place``
  // (fit.js)
  const { header: h, columns: c } = run;
  const { data, layout } = JSON.parse(JSON.stringify(h.figure));
  const X = c.X.values;
  const y = c.y.values;
  for (const [trace, label] of h.point_traces) {
    const xs = [];
    const ys = [];
    for (let i = 0; i < y.length; i++) {
      if (y[i] === label) {
        xs.push(X[2 * i]);
        ys.push(X[2 * i + 1]);
      }
    }
    Object.assign(data[trace], { x: xs, y: ys });
  }
  layout.legend = legendFor(layout.legend, place);
  layout.height = chartHeight(layout.height, place);
  return { data, layout, config: chartConfig(h) };
}

export function chartConfig(header) {
  // the page's own toolbar (viz.plane.CHART_CONFIG, in the header): no drag modes, which
  // would take a finger's drag; Plotly's own default adds a modebar button that uploads the
  // chart to its cloud: nothing of a student's may leave the machine
  return { displaylogo: false, scrollZoom: false, ...header.config, responsive: true,
           showSendToCloud: false, plotlyServerURL: "" };
}
