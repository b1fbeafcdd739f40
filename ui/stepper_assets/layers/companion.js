// @uses ../dom.js ../wire.js ../geometry.js ../overlay.js ../stepper.js plane.js explain.js
// Another run on the same plane (ui/stepper.py's with_companion: on a projector the SVM with
// the perceptron): at the run's step, its boundary and its margin lines over the run's, in its
// own colour, gliding as the run's does, and its maths under the run's.

function drawCompanion(part, view) {
  const { overlay: o, axes } = view.plane;
  const run = view.run.companion;
  const { header: h, columns: c } = run;
  const stroke = h.palette.boundary;
  const scale = view.run.header.lecture ? 1.8 : 1;
  const [w, b] = glided(part.glide, run, row(c.W, view.k), row(c.b, view.k), view,
                        (next) => drawCompanion(part, next));
  const line = o.line("companion", { class: "pl-companion-line", stroke,
                                     "stroke-width": 3 * scale });
  const seg = clipLine(w, b, axes.xr, axes.yr);
  setLine(line, seg?.[0], seg?.[1], axes);
  // outside the view, an arrow at its edge says where, a little in from the run's own
  const away = drawOffView(o, seg ? null : offView(w, b, axes), scale, stroke,
                           { name: "companionOffview", word: h.words?.boundary ?? "boundary",
                             nudge: 34, own: true });
  const margins = marginLines(o, ["companionUpper", "companionLower"],
                              h.layers.includes("margins") ? w : null, b, axes,
                              { class: "pl-companion-line", stroke, "stroke-width": 1.5 * scale,
                                "stroke-dasharray": "6 4" });
  part.lines = [line, ...margins, ...away];
}

LAYERS.push({
  name: "companion",
  // (its glide's own state beside the plane's: plane.js's glided)
  build: (ui) => ({ side: ui.side, stepper: ui.box, box: null, lines: [], glide: {} }),
  load(part, run) {
    // (every layer loads each new run: one without a companion takes away what one left)
    const wanted = Boolean(run.header.companion);
    // two runs' maths beside one plane: set closer (stepper.css)
    part.stepper.classList.toggle("pl-with-companion", wanted);
    if (wanted && !part.box) {
      // under the run's own maths
      part.box = html("div", { class: "pl-explain pl-companion" }, part.side);
      part.side.querySelector(".pl-explain:not(.pl-companion)")?.after(part.box);
    } else if (!wanted && part.box) {
      part.box.remove();
      part.box = null;
      for (const line of part.lines) setLine(line, null);
    }
  },
  wants: (header) => Boolean(header.companion),
  draw(part, view) {
    const { run, k, plane } = view;
    const other = run.companion;
    if (!other || !part.box) return;
    if (plane) drawCompanion(part, view);
    // the same example as the run's at this step is named once, over the run's maths
    const same = k > 0 && row(other.columns.index, k) === row(run.columns.index, k);
    explainRun(part.box, other, k, true, false, !same);
  },
});
