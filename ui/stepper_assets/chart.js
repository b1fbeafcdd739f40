// @uses plotly.js
// @provides chartLayout, chartToolbar, mountChart
// A chart the server drew whole (ui/chart.py), drawn by the page's own Plotly (plotly.js), the
// one its steppers load: a page with charts fetches and evaluates one Plotly, not two. A chart
// the page's cannot draw (3-D: ``whole`` in its data) waits for the whole bundle, which comes
// after the page's first picture.
// Its data: the JSON of { figure: { data, layout }, config, alt, whole, clicks }, as UTF-8
// bytes; with ``clicks``, a click on a point is sent back as the event "click" ({x, y}).

// Plotly's toolbar has no full-screen button: this one puts the chart's box on the whole
// screen (Escape, or the button again, brings it back) and the plot takes the screen's height
const FULLSCREEN_ICON = {
  width: 24, height: 24,
  path: "M7 14H5v5h5v-2H7v-3zm-2-4h2V7h3V5H5v5zm12 7h-3v2h5v-5h-2v3zM14 5v2h3v3h2V5h-5z",
};

// a box this narrow is a phone's (or a narrow column's): the page's own padding is margin
// enough, and the plot takes the figure's side margins
const NARROW_BOX_PX = 480;
const NARROW_SIDE_PX = 2;

function titled(layout) {
  // whether words stand over the plot: the figure's title, or a subplot's over the top one
  return Boolean(layout.title?.text) || (layout.annotations ?? []).some(
    (note) => note.yref === "paper" && note.y >= 1 && note.yanchor === "bottom");
}

export function chartLayout(layout, fullHeight, boxWidth = Infinity) {
  // the figure's layout as the box draws it: as wide as its box, on the whole screen as high
  // as the screen (``fullHeight``, else the figure's own height), in a narrow box with the
  // least side margins; there a chart with words over its plot gives the toolbar a row of its
  // own over them, the chart that much taller (a phone's toolbar covered its title). (Over a
  // plot alone the toolbar stays at its top corner: a row would push a phone's picture down.)
  const drawn = { ...layout, autosize: true };
  delete drawn.width;
  if (fullHeight) drawn.height = fullHeight;
  if (boxWidth < NARROW_BOX_PX) {
    const { l = 80, r = 80, t = 100 } = layout.margin ?? {};
    drawn.margin = { ...layout.margin, l: Math.min(l, NARROW_SIDE_PX),
                     r: Math.min(r, NARROW_SIDE_PX) };
    if (titled(layout)) {
      drawn.margin.t = t + TOOLBAR_ROW_PX;
      if (!fullHeight) drawn.height = (layout.height ?? 450) + TOOLBAR_ROW_PX;
      if (layout.title?.text) {  // the title under the toolbar's row, over the plot
        drawn.title = { ...layout.title, yref: "paper", y: 1, yanchor: "bottom" };
      }
    }
  }
  return drawn;
}

export function chartToolbar(config, box) {
  // the figure's toolbar, with the full-screen button, and nothing sent to Plotly's cloud
  const toggle = () => (document.fullscreenElement === box
    ? document.exitFullscreen() : box.requestFullscreen()).catch(() => {});
  return { displaylogo: false, scrollZoom: false, ...config, responsive: false,
           showSendToCloud: false, plotlyServerURL: "",
           modeBarButtonsToAdd: [{ name: "fullscreen", title: "Full screen",
                                   icon: FULLSCREEN_ICON, click: toggle }] };
}

class Chart {
  constructor(root) {
    this.box = document.createElement("div");
    this.box.className = "pl-page-chart";
    this.box.setAttribute("role", "figure");
    this.plot = document.createElement("div");
    this.box.append(this.plot);
    root.append(this.box);
    this.text = null;
    this.width = 0;
    // the plot follows its box (a sidebar opened, a column narrowed), not only the window;
    // a box taken off the page or hidden (width 0) waits until it is shown again
    this.observer = new ResizeObserver(() => {
      const width = this.box.clientWidth;
      if (width && width !== this.width && this.plot._fullLayout && this.box.isConnected) {
        const narrow = (w) => w < NARROW_BOX_PX;
        const turned = narrow(width) !== narrow(this.width);
        this.width = width;
        if (turned) this.draw();  // its margins change too
        else this.Plotly.Plots.resize(this.plot).catch(() => {});
      }
    });
    this.observer.observe(this.box);
    this.box.addEventListener("fullscreenchange", () => this.draw());
  }

  load(bytes) {
    const text = new TextDecoder().decode(bytes);
    if (text === this.text) return Promise.resolve();  // re-sent as it was
    this.text = text;
    this.spec = JSON.parse(text);
    this.box.setAttribute("aria-label", this.spec.alt);
    return this.draw();
  }

  draw() {
    // a copy each time: Plotly writes into the figure it is given (an axis held to equal
    // scales keeps the domain it shrank to), and a copy drawn again would start from that
    const { figure, config } = structuredClone(this.spec);
    const full = document.fullscreenElement === this.box ? window.innerHeight : 0;
    return (this.spec.whole ? loadWholePlotly() : loadPlotly()).then((Plotly) => {
      this.Plotly = Plotly;  // the one that drew it resizes it
      this.box.querySelector(".pl-nochart")?.remove();
      this.width = this.box.clientWidth;
      return Plotly.react(this.plot, figure.data, chartLayout(figure.layout, full, this.width),
                          chartToolbar(config, this.box));
    }).then(() => {
      if (!this.spec.clicks || this.plot.__plClicks) return;
      this.plot.__plClicks = true;  // one listener, whatever the figures drawn after
      this.plot.on("plotly_click", (event) => {
        const point = event?.points?.[0];
        if (this.spec.clicks && point) this.send?.("click", { x: point.x, y: point.y });
      });
    }).catch((error) => {
      if (this.box.querySelector(".pl-nochart")) return;
      const note = document.createElement("p");
      note.className = "pl-nochart";
      note.textContent = `The chart could not load (${error.message}).`;
      this.box.append(note);
    });
  }
}

export function mountChart(component) {
  const { parentElement: root, data } = component;
  if (!root.__plChart) root.__plChart = new Chart(root);
  root.__plChart.send = component.setTriggerValue;
  if (data && data.byteLength) root.__plChart.load(data);
  return () => {};
}
