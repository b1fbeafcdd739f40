// Plotly, loaded once per page: the page's cartesian bundle (ui/stepper.py, served at
// app/static/plotly.min.js), for the steppers and the charts alike. Each component's script
// is a module of its own, so the one load in flight is kept on the window, where both see it.

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__plPlotlyLoading) {
    window.__plPlotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      // a module from a Blob URL has no base for relative imports: resolve against the page
      script.src = new URL(window.__perceptronPlotlyUrl || "app/static/plotly.min.js",
                           location.href).href;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => {
        window.__plPlotlyLoading = null;  // the next call tries again
        reject(new Error("plotly.min.js"));
      };
      document.head.appendChild(script);
    });
  }
  return window.__plPlotlyLoading;
}
