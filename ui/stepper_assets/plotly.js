// @provides TOOLBAR_ROW_PX, loadPlotly, loadWholePlotly
// Plotly, loaded once per page: the page's cartesian bundle (ui/stepper.py, served at
// app/static/plotly.min.js), for the steppers and the charts alike. Each component's script
// is a module of its own, so the one load in flight is kept on the window, where both see it.

// Plotly's toolbar on a phone (44 px buttons, ui/theme.py): a row of its own over a chart,
// not over its title and plot (fit.js's plane, chart.js's charts)
export const TOOLBAR_ROW_PX = 44;

function loadScript(name, global, take = () => window.Plotly) {
  // a classic script from app/static (a module from a Blob URL has no base for relative
  // imports: resolved against the page), kept on the window as ``global``; what it gives is
  // ``take()`` as it has just run
  if (!window[global]) {
    window[global] = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(`app/static/${name}`, location.href).href;
      script.onload = () => resolve(take());
      script.onerror = () => {
        window[global] = null;  // the next call tries again
        script.remove();
        reject(new Error(name));
      };
      document.head.appendChild(script);
    });
  }
  return window[global];
}

export function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.__plPlotlyPage || window.Plotly);
  return loadScript("plotly.min.js", "__plPlotlyLoading").then((Plotly) => {
    window.__plPlotlyPage = Plotly;
    return Plotly;
  });
}

function idle() {
  // the next moment the page has nothing else to do (a second at most)
  return new Promise((done) => (window.requestIdleCallback
    ? window.requestIdleCallback(done, { timeout: 1000 }) : setTimeout(done, 100)));
}

export function loadWholePlotly() {
  // The whole bundle (a 3-D chart's: plotly-whole.min.js, four times the page's), fetched
  // only by a chart that needs it, after the page's own Plotly and once the page is idle, so
  // that a lesson's first picture never waits on it. It names itself window.Plotly as it
  // runs: the page's is put back at once, and the whole one is kept apart.
  if (!window.__plPlotlyWhole) {
    window.__plPlotlyWhole = loadPlotly().then((page) => idle().then(() => page)).then((page) => {
      const putBack = () => {
        const whole = window.Plotly;
        window.Plotly = page;
        return whole;
      };
      return loadScript("plotly-whole.min.js", "__plPlotlyWholeLoading", putBack);
    }).catch((error) => {
      window.__plPlotlyWhole = null;  // the next chart tries again
      throw error;
    });
  }
  return window.__plPlotlyWhole;
}
