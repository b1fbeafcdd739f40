// @uses fit.js
// @provides planeFigure, chartConfig, darkHex, darkColour, darkFigure, darkPage, darkHeader,
// @provides themeOf
// The plane's Plotly figure for a run. The figure comes in the run's header without its
// points (ui/stepper.py); they come from the typed columns, split by class as the figure's
// traces are.

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

// The chart on a dark page: viz/theme.py's rule, the same here (tests/browser/js/test_theme.py
// holds them to it). Greys, white and tints too pale to see on white swap ends; a colour keeps
// its hue and is lightened only until it stands out from the dark page (3:1 marks, 4.5:1 words).
// The palette's colours come in `theme`: { ground, ink, white, black, clear } (the stepper's
// CSS, ui/stepper.py's THEME).
const RGB = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/;
const channels = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const toHex = (rgb) => `#${rgb.map((v) => Math.round(Math.min(Math.max(v, 0), 255))
  .toString(16).padStart(2, "0").toUpperCase()).join("")}`;

function luminanceOf(hex) {
  const [r, g, b] = channels(hex).map((c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrastOf(p, q) {
  const [hi, lo] = [luminanceOf(p), luminanceOf(q)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

function mixOf(colour, ground, alpha) {
  const g = channels(ground);
  return toHex(channels(colour).map((c, i) => Math.round(c * alpha + g[i] * (1 - alpha))));
}

function hls([r, g, b]) {
  // Python's colorsys.rgb_to_hls, on 0-1 channels
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, l, 0];
  const s = l <= 0.5 ? (max - min) / (max + min) : (max - min) / (2 - max - min);
  const [rc, gc, bc] = [r, g, b].map((c) => (max - c) / (max - min));
  let h = r === max ? bc - gc : g === max ? 2 + rc - bc : 4 + gc - rc;
  h = ((h / 6) % 1 + 1) % 1;
  return [h, l, s];
}

function rgbOf([h, l, s]) {
  // Python's colorsys.hls_to_rgb
  if (s === 0) return [l, l, l];
  const m2 = l <= 0.5 ? l * (1 + s) : l + s - l * s;
  const m1 = 2 * l - m2;
  const v = (hue) => {
    hue = ((hue % 1) + 1) % 1;
    if (hue < 1 / 6) return m1 + (m2 - m1) * hue * 6;
    if (hue < 0.5) return m2;
    if (hue < 2 / 3) return m1 + (m2 - m1) * (2 / 3 - hue) * 6;
    return m1;
  };
  return [v(h + 1 / 3), v(h), v(h - 1 / 3)];
}

export function darkHex(hex, least, theme) {
  let [h, l, s] = hls(channels(hex).map((c) => c / 255));
  if (s < 0.15 || contrastOf(hex, theme.white) < 1.6) return mixOf(theme.ink, theme.ground, 1 - l);
  let out = hex;
  while (contrastOf(out, theme.ground) < least && l < 1) {
    l = Math.min(1, l + 0.02);
    out = toHex(rgbOf([h, l, s]).map((v) => 255 * v));
  }
  return out;
}

export function darkColour(colour, least, theme) {
  // a Plotly colour for the dark page (hex in 3 or 6 digits, CSS rgb or rgba, white, black);
  // any other value unchanged
  if (typeof colour !== "string") return colour;
  let text = colour.trim().toLowerCase();
  text = { white: theme.white.toLowerCase(), black: theme.black.toLowerCase() }[text] ?? text;
  let hex = null;
  let alpha = null;
  if (/^#[0-9a-f]{6}$/.test(text)) hex = text.toUpperCase();
  else if (/^#[0-9a-f]{3}$/.test(text)) hex = `#${[...text.slice(1)].map((c) => c + c).join("")}`.toUpperCase();
  else {
    const m = RGB.exec(text);
    if (!m) return colour;
    hex = toHex([m[1], m[2], m[3]].map(Number));
    if (m[4] !== undefined) alpha = Number(m[4]);
  }
  const out = darkHex(hex, least, theme);
  if (alpha === null) return out;
  // viz.palette.tint: the same colour, see-through
  return `rgba${"("}${[...channels(out), alpha].join(",")})`;
}

function walkDark(spec, least, inColour, theme) {
  if (Array.isArray(spec)) return spec.map((item) => walkDark(item, least, inColour, theme));
  if (spec && typeof spec === "object") {
    for (const [key, value] of Object.entries(spec)) {
      const words = key === "font" || key.endsWith("font") ? 4.5 : least;
      spec[key] = walkDark(value, words, inColour || key.toLowerCase().includes("color"), theme);
    }
    return spec;
  }
  return inColour ? darkColour(spec, least, theme) : spec;
}

export function darkFigure(figure, theme) {
  // a figure's { data, layout } for the dark page, changed in place (viz.theme.for_dark)
  walkDark(figure, 3, false, theme);
  const layout = figure.layout ?? (figure.layout = {});
  layout.paper_bgcolor ??= theme.ground;
  layout.plot_bgcolor ??= theme.ground;
  layout.font = { ...layout.font, color: layout.font?.color ?? theme.ink };
  layout.modebar = { ...layout.modebar, bgcolor: theme.clear,
                     color: mixOf(theme.ink, theme.ground, 0.6), activecolor: theme.ink };
  return figure;
}

export function darkPage(node) {
  // whether what node stands on is dark: the first background on the way up (Streamlit's app
  // has the theme's); none at all is a browser's white page
  for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
    const m = RGB.exec(getComputedStyle(at).backgroundColor);
    if (m && (m[4] === undefined || Number(m[4]) > 0.5)) {
      return luminanceOf(toHex([m[1], m[2], m[3]].map(Number))) < 0.2;
    }
  }
  return false;
}

export function darkHeader(header, theme) {
  // a run's header for the dark page: a copy, its figures and palette moved
  const copy = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
  const dark = { ...header, figure: darkFigure(copy(header.figure), theme),
                 palette: walkDark(copy(header.palette), 3, true, theme) };
  if (header.weights_figure) dark.weights_figure = darkFigure(copy(header.weights_figure), theme);
  return dark;
}

export function themeOf(node) {
  // the palette's colours for a dark page, as the stepper's CSS gives them (ui/stepper.py)
  const css = getComputedStyle(node);
  return Object.fromEntries(["ground", "ink", "white", "black", "clear"]
    .map((name) => [name, css.getPropertyValue(`--pl-dark-${name}`).trim()]));
}
