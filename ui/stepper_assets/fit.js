// @uses plotly.js
// @provides wideLayout, widePair, legendUnder, legendFor, chartHeight, pageTop, ownRanges,
// @provides fitWidth, squareHeight, planeHeightFor, planeChange, redrawFor, followWindow
// The plane's size and its legend's place for where it stands (a "place": the stepper's
// measures, place.js's placeOf), and a chart kept as wide as its box (place.js's refit).

const LECTURE_MIN_PX = 400;  // a projector's plane is never shorter
// a wide window out of lecture mode (a laptop, a tablet on its side): one run's plane beside
// its steps, as on a projector, in the page's own type; from a window this wide and a stepper
// this wide (a 1024 x 768 tablet stacked its controls, status and maths over the plane, which
// began at y 386-500: its sidebar folded, its stepper is 860 px wide)
const WIDE_WINDOW_PX = 1000;
const WIDE_BOX_PX = 780;
const WIDE_MIN_PX = 360;
const PAIR_CHART_SHARE = 0.58;  // two runs side by side: their charts' share of the window
// on a laptop (widePair) more: its step's maths begin on the first screen, not whole on it as a
// projector's must be (0.58 left the charts 18.6% of a 1440 x 900 screen)
const WIDE_PAIR_CHART_SHARE = 0.64;
const PAIR_MIN_PX = 260;
const STACKED_PX = 640;  // Streamlit stacks columns in a window narrower than this
// one of two runs in a narrower box has its legend under the plot: beside it, the pair's legend
// (about 146 px with its title) would take more than a third of a 420-440 px chart (a tablet
// on its side opened with its sidebar folded gave 424). On a projector a legend under the plot
// would push the step's maths off the screen (1024 x 768 gives 430 px boxes): there it stays
// beside down to the narrower box.
const BESIDE_MIN_PX = 450;
const LECTURE_BESIDE_MIN_PX = 420;
// a plane whose y range grows to fill its plot (its figure's yaxis.constrain "range":
// lessons/svm/figures.py's run_figure, tall) may be this many times as tall as wide
const TALL_PLOT = 1.4;
// a phone's plane up to this much shorter than its square height, or the second much taller,
// stands as drawn (planeChange)
const SQUARE_SLACK_PX = 4;
const TALLER_SLACK_PX = 16;
const FOOT_GAP_PX = 4;  // a chart that follows the window ends this far above its foot
const FOOT_LEGEND_PX = 150;  // and its chart grows by this much: the legend, with its title
const FOOT_LEGEND = { orientation: "h", xref: "container", x: 0, xanchor: "left",
                      yref: "container", y: 0, yanchor: "bottom" };

export function wideLayout(lecture, pair, boxWidth, windowWidth) {
  // whether one run out of lecture mode stands as a projector's does: the plane on the left at
  // the window's height, the controls, the status and the maths at its right (stepper.css
  // .pl-wide); two runs side by side keep each chart over its maths
  return !lecture && !pair && windowWidth >= WIDE_WINDOW_PX && boxWidth >= WIDE_BOX_PX;
}

export function widePair(lecture, pair, windowWidth) {
  // two runs side by side in a wide window out of lecture mode (a laptop, a tablet on its
  // side): each legend under its plot, which takes the width a legend beside it would
  // (legendUnder)
  return !lecture && pair && windowWidth >= WIDE_WINDOW_PX;
}

export function legendUnder(place) {
  // one of two runs in a box too narrow for a legend beside its plot (a phone, an upright
  // tablet, a phone turned with the sidebar open), or on a laptop, where the plot takes the
  // width instead
  const least = place.lecture ? LECTURE_BESIDE_MIN_PX : BESIDE_MIN_PX;
  return Boolean(place.pair) && (place.width < least || Boolean(place.widePair));
}

export function legendFor(legend, place) {
  // Where the figure's legend goes. Under the plot (horizontal) on a projector, at the chart's
  // foot: under the axis title whatever the plot's height (a fraction of it would not be),
  // and as wide as the chart, not only its square plot. Beside the plot (x >= 1, as each of
  // two runs side by side has) in a narrow box: under it instead, its title above (beside,
  // it would take half the width, and the toolbar would cover its title).
  if (!legend) return legend;
  if ((place.lecture || place.wide) && legend.orientation === "h") return { ...legend, ...FOOT_LEGEND };
  if (!legendUnder(place) || legend.orientation !== "v" || !(legend.x >= 1)) return legend;
  const title = legend.title ? { title: { ...legend.title, side: "top" } } : {};
  return { ...legend, ...FOOT_LEGEND, ...title };
}

export function chartHeight(height, place) {
  // The plane's height, from the figure's own. On a projector one run's plane stands beside
  // its steps: from the chart's top to the window's bottom, LECTURE_MIN_PX at least and no
  // taller than its box is wide with the legend under it (the figure's own height does not
  // bound it). Two runs side by side leave room under their charts for their maths; a
  // phone stacks them, each chart as tall as its square plot and its legend. A chart whose
  // top (pageTop) is past the first screen keeps its height. Elsewhere the figure's height
  // stands.
  if (!place.lecture && !place.pair && !place.wide) return height;
  const foot = legendUnder(place) ? FOOT_LEGEND_PX : 0;
  if (place.pair && place.windowWidth < STACKED_PX) {
    return Math.round(Math.min(height, place.width + foot));
  }
  if (!(place.top > 0 && place.top < place.windowHeight)) return height;
  const room = place.windowHeight - place.top - FOOT_GAP_PX;
  if (place.pair) {
    const share = place.widePair ? WIDE_PAIR_CHART_SHARE : PAIR_CHART_SHARE;
    return Math.round(Math.min(height, Math.max(PAIR_MIN_PX, room * share) + foot));
  }
  // one run on a projector or a wide window: the plane stands beside the steps, as tall as
  // the window lets it (no taller than its box is wide, with the legend under it, unless its
  // plot grows taller than its box: place.tall)
  const least = place.lecture ? LECTURE_MIN_PX : WIDE_MIN_PX;
  const tallest = place.width * (place.tall ? TALL_PLOT : 1) + FOOT_LEGEND_PX;
  return Math.round(Math.max(least, Math.min(room, tallest)));
}

export function pageTop(el) {
  // An element's top as it stands with the page scrolled to its top (the first screen, which a
  // projector shows): its top in the window, and what each box around it is scrolled by. A
  // chart sized by its top in the window was sized for a scroll (a button brought into view
  // by its key scrolled the page 28 px) and kept that height at the page's top, its legend
  // past the screen's foot.
  let top = el.getBoundingClientRect().top;
  for (let box = el.parentElement; box; box = box.parentElement) top += box.scrollTop;
  return top;
}

export function ownRanges(layout) {
  // A plot whose y range grows to fill it (yaxis.constrain "range": place.tall) has Plotly
  // write the grown range into its layout, and from there it would only grow: drawn at another
  // size, the figure's own ranges again, for Plotly to grow as that size needs
  if (layout.yaxis?.constrain !== "range") return {};
  return { "xaxis.range": [...layout.xaxis.range], "yaxis.range": [...layout.yaxis.range] };
}

export function fitWidth(gd, Plotly, legend = null, ranges = {}) {
  // A chart as wide as its box. Plotly writes the width of its first drawing into the layout,
  // and its own resize does nothing to a layout that holds a width and a height (ours always
  // holds a height): a box that narrows (a tablet turned, the sidebar opening beside two runs)
  // would keep a chart wider than itself. ``legend``: where the legend is to be now (legendFor);
  // ``ranges``: the figure's own, where a new size would have them grown (ownRanges).
  const width = Math.floor(gd.getBoundingClientRect().width);
  const change = {};
  if (width > 0 && Math.abs(width - gd._fullLayout.width) >= 1) change.width = width;
  if (legend && legend.orientation !== gd.layout.legend?.orientation) change.legend = legend;
  if (change.width) Object.assign(change, ranges);
  return Object.keys(change).length ? Plotly.relayout(gd, change) : Promise.resolve(gd);
}

export function squareHeight(gd, tallest, last = null) {
  // A chart's height at which its square plot (equal scales) fills the plot area, no taller
  // than ``tallest``: a phone's plane is as wide as the phone, and a taller chart only leaves
  // empty room above and below its plot. ``last``: the chart at another height ({ height, d },
  // d its plot's height less its width), for the secant through both: where Plotly's margins
  // move with the height, the plain step (height - d) swung about the square height without
  // end (a phone's large run: 468, 537, 469, 536 ... px), the secant lands on it
  const { height, _size: size } = gd._fullLayout;
  const d = size.h - size.w;
  const slope = last && last.height !== height ? (d - last.d) / (height - last.height) : 1;
  const step = slope >= 0.5 && slope <= 4 ? d / slope : d;
  return Math.round(Math.min(tallest, height - step));
}

export function planeHeightFor(gd, own, place, memo = {}) {
  // The plane's chart's height here and now, the one rule both its drawing and the window's
  // resize follow (two rules pulled a lone run's chart two ways, drawing it without end): on
  // a phone (one run out of lecture mode) as tall as its square plot needs, with its toolbar's
  // row; elsewhere chartHeight's (the figure's own ``own``; a projector's, a pair's and a wide
  // window's follow the window)
  if (!place.lecture && !place.pair && place.narrow && gd._fullLayout?._size) {
    // (``memo.last``: the plane as it was drawn the time before, for squareHeight's secant)
    const height = squareHeight(gd, own + TOOLBAR_ROW_PX, memo.last);
    const { height: drawn, _size: size } = gd._fullLayout;
    memo.last = { height: drawn, d: size.h - size.w };
    return height;
  }
  return chartHeight(own, place);
}

export function planeChange(gd, layout, height, narrow) {
  // What a lone run's drawn plane needs to stand at ``height``: a phone's chart toolbar (44 px
  // buttons) has a row of its own over the chart's title and plot, not over them. ``layout``:
  // the figure's own. null when it stands so already.
  const { margin = {}, title } = layout;
  const top = (margin.t ?? 10) + (narrow ? TOOLBAR_ROW_PX : 0);
  const change = {};
  // not for a few px (equal scales leave a band that thin, above and below the plot when it
  // stands a little taller than its square, beside it when a little shorter: the second
  // narrows the plane, the first only holds a band): where Plotly's margins move with the
  // height, the square height swung between two (491, 503, 494, 501 ... px) and is left at
  // the taller
  const grow = height - gd._fullLayout.height;
  if (grow > SQUARE_SLACK_PX || grow < -TALLER_SLACK_PX) change.height = height;
  if (gd._fullLayout.margin.t !== top) {
    change["margin.t"] = top;
    if (title?.text) {
      Object.assign(change, narrow ? { "title.yref": "paper", "title.y": 1, "title.yanchor": "bottom" }
        : { "title.yref": title.yref ?? "container", "title.y": title.y ?? "auto",
            "title.yanchor": title.yanchor ?? "auto" });
    }
  }
  return Object.keys(change).length ? change : null;
}

export function redrawFor(drawn, wanted) {
  // Whether a plane drawn ``drawn`` px tall is drawn again at ``wanted``: to grow by more than
  // 8 px (a top moved by a line of text once it is drawn does not draw it again), or when it
  // would reach past the window's foot (a class bar grown by a line pushed a projector's
  // legend off the screen)
  return wanted - drawn > 8 || drawn - wanted > FOOT_GAP_PX;
}

export function followWindow(stepper, root) {
  // The window, or what is above the chart in the page (type loaded late, a message), changed
  // height: the plane follows (stepper.planeHeightNow) as redrawFor says. Returns what stops it
  // following.
  const onWindow = () => {
    const gd = stepper.ui.planePlot;
    if (!stepper.run || !gd._fullLayout || !window.Plotly) return;
    const height = stepper.planeHeightNow();
    if (redrawFor(stepper.planeHeight, height)) {
      stepper.planeHeight = height;
      window.Plotly.relayout(gd, { height, ...ownRanges(stepper.run.header.figure.layout) });
    }
  };
  window.addEventListener("resize", onWindow);
  const above = new ResizeObserver(onWindow);
  above.observe(root.closest('[data-testid="stMainBlockContainer"]') || document.body);
  return () => {
    window.removeEventListener("resize", onWindow);
    above.disconnect();
  };
}
