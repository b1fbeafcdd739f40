// The status line over the chart: where the run is (step, epoch, mistakes), what the lesson
// counts besides (training errors, the margin), and how the run ends, at its end.

export function statusText(run, k, pair) {
  const { header: h, columns: c } = run;
  const K = h.steps;
  const epoch = k ? row(c.epoch, k) : 0;
  const mistakes = row(c.mistakes, k);
  // beside another run the line has half the width: it says how the run ends, at its end
  let end = pair ? "" : "still learning";
  if (k === K) end = h.result.converged ? "converged" : "not converged";
  let extra = "";
  if (h.layers.includes("band") || h.layers.includes("errors")) {
    const m = margins(c.X.values, c.y.values, row(c.W, k), row(c.b, k));
    if (h.layers.includes("errors")) extra += ` \u00b7 ${m.wrong} / ${c.y.values.length} training errors`;
    if (h.layers.includes("band")) {
      extra += ` \u00b7 margin ${Number.isFinite(m.margin) ? num(m.margin) : "\u2212\u221e"}`;
    }
  }
  const word = h.words?.mistakes ?? "mistake";
  // a window of a longer run (e.g. one period of a cycle) counts steps as the run does, t
  const where = h.t0 ? `Step ${h.t0 + k} (${k} / ${K} ${h.words?.window ?? "shown"})`
    : `Step ${k} / ${K}`;
  return `${where} \u00b7 epoch ${epoch} \u00b7 ${mistakes} ${word}${mistakes === 1 ? "" : "s"}${extra}`
    + (end ? ` \u00b7 ${end}` : "");
}

export function longestStatus(run, pair) {
  // the longest the line gets (at the start or the end), which sets its size: one line, as
  // large as the width allows
  return Math.max(...[0, run.header.steps].map((k) => statusText(run, k, pair).length));
}
