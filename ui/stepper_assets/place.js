// @uses controls.js fit.js plotly.js
// @provides placeOf, refit, planeHeightOf, fitPlaneHeight, firstPlane
// Where a stepper stands, and its charts fitted to it. Its place is what fit.js sizes the plane
// by: lecture mode, a pair, a wide window laid out as a projector, the box's width, its top on
// the page and the window's height less a lecture's slide bar. Each function takes the stepper
// (stepper.js): its ui, its run, its layers.

export function placeOf(s) {
  // where the plane stands, once the layers are placed (their arrange hook)
  const lecture = Boolean(s.run.header.lecture);
  // a wide window out of lecture mode lays one run out as a projector does (.pl-wide), and
  // its page gives the steps the height (.pl-wide-page): a class, as .pl-lecture-page is
  const wide = wideLayout(lecture, s.pair, s.ui.box.clientWidth, window.innerWidth);
  const pairs = widePair(lecture, s.pair, window.innerWidth);
  s.ui.box.classList.toggle("pl-wide", wide);
  document.documentElement.classList.toggle("pl-wide-page", wide || pairs);
  document.documentElement.classList.toggle("pl-wide-one", wide);
  s.each("arrange", s.view());
  const host = s.ui.planeHost;
  const narrow = window.matchMedia(NARROW).matches;
  // a plot that may grow taller than its box (fit.js's chartHeight), but not on a phone,
  // whose plane leaves the status line under it on the first screen
  const tall = !narrow && s.run.header.figure.layout.yaxis?.constrain === "range";
  return { lecture, pair: s.pair, wide, widePair: pairs, tall,
           width: host.clientWidth, top: pageTop(host),
           windowWidth: window.innerWidth, narrow,
           // a lecture's slide bar (ui/lecture_plan_assets) holds the window's foot
           windowHeight: window.innerHeight
             - (document.querySelector(".pl-slide-bar")?.offsetHeight ?? 0) };
}

export function refit(s) {
  // the stepper (or what it stands beside) changed size: place the layers, size the charts
  if (!s.run) return;  // (no layer to place either)
  const legend = legendFor(s.run.header.figure.layout.legend, placeOf(s));
  if (!window.Plotly) return;
  const fitted = s.charts().filter((gd) => gd._fullLayout)
    .map((gd) => (gd === s.ui.planePlot
      ? fitWidth(gd, window.Plotly, legend, ownRanges(s.run.header.figure.layout))
      : fitWidth(gd, window.Plotly)));
  // the overlay follows the new axes
  Promise.all(fitted).then(() => fitPlaneHeight(s)).then(() => s.schedule());
}

export function planeHeightOf(s) {
  // the one height both the plane's drawing and the window's resize follow (fit.js)
  return planeHeightFor(s.ui.planePlot, s.run.header.figure.layout.height, placeOf(s),
                        s.squares ??= {});
}

export function fitPlaneHeight(s, passes = 3) {
  // one run out of lecture mode: its plane at planeHeightOf, its toolbar's row made. One fitting
  // at a time: a drawing's end asks for one (stepper.js), and each fitting's drawing ends, so
  // that fittings begun while one ran drew a phone's 1,000 points seven times over
  if (s.fitting) return s.fitting;
  const gd = s.ui.planePlot;
  if (s.run.header.lecture || s.pair || !gd._fullLayout?._size || !window.Plotly) return null;
  const height = planeHeightOf(s);
  const change = planeChange(gd, s.run.header.figure.layout, height,
                             window.matchMedia(NARROW).matches);
  if (!change) {
    // how much taller than wide the plane stood once fitted, for the next run's first drawing
    s.fitted = { width: s.ui.planeHost.clientWidth,
                 extra: gd._fullLayout.height - s.ui.planeHost.clientWidth };
    return null;
  }
  if (change.height) s.planeHeight = height;
  // again once Plotly has made room for the labels at the new height (automargin)
  s.fitting = window.Plotly.relayout(gd, change).finally(() => { s.fitting = null; });
  return s.fitting.then(() => (passes > 1 ? fitPlaneHeight(s, passes - 1) : null));
}

export function firstPlane(s, layout, place) {
  // a phone's lone run drawn the first time as near as can be to how fitPlaneHeight leaves
  // it: its toolbar's row over its title, and as much taller than wide as the run before
  // stood once fitted at this width (a class's next slide, a page's rerun), else as a square
  // plot with the figure's margins (Plotly's automargin then moves them), so that few
  // drawings of its 1,000 points follow on a phone
  if (place.lecture || place.pair || !place.narrow) return;
  const own = s.run.header.figure.layout;
  const { l = 80, r = 80, b = 80 } = own.margin ?? {};
  const t = (own.margin?.t ?? 10) + TOOLBAR_ROW_PX;
  layout.margin = { ...layout.margin, t };
  if (own.title?.text) layout.title = { ...layout.title, yref: "paper", y: 1, yanchor: "bottom" };
  const extra = s.fitted?.width === place.width ? s.fitted.extra : t + b - l - r;
  const square = Math.round(place.width + extra);
  if (square > 0) layout.height = Math.min((own.height ?? 450) + TOOLBAR_ROW_PX, square);
}
