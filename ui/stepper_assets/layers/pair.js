// @uses ../stepper.js
// Two runs side by side (as the perceptron beside the SVM): the leader has the controls and
// reports the step; its follower shows the leader's step, with no controls of its own. Each
// chart stands over its own maths, both on the first screen (the charts get a share of the
// window under them, the maths the rest: fit.js's chartHeight), and the two line up.

function alignFollower({ box, status, plane }, run) {
  // The follower's status line moves down level with the leader's, and the two charts start
  // level (under the taller status, or the leader's Predict score). The leader's controls
  // reach across both runs: one row, with a long slider.
  const lead = run?.header.follow;
  const leader = lead && document.querySelector(`[data-pl-lead="${lead}"]`);
  if (!leader) return;
  const margin = (node) => parseFloat(node.style.marginTop) || 0;
  const move = (node, by) => {
    const px = Math.max(0, Math.round(by));
    if (px !== margin(node)) node.style.marginTop = `${px}px`;
  };
  const top = (node) => node.getBoundingClientRect().top - margin(node);
  const leaderPlane = leader.querySelector(".pl-plane");
  if (box.getBoundingClientRect().left < leader.getBoundingClientRect().right - 1) {
    // stacked (a phone): one under the other, nothing to line up
    for (const node of [box, plane, leaderPlane]) move(node, 0);
    leader.style.removeProperty("--pl-pair-width");
    return;
  }
  const shift = leader.querySelector(".pl-status").getBoundingClientRect().top
    - (status.getBoundingClientRect().top - margin(box));
  const ownPlane = top(plane) + (shift - margin(box));
  const level = Math.max(ownPlane, top(leaderPlane));
  move(box, shift);
  move(plane, level - ownPlane);
  move(leaderPlane, level - top(leaderPlane));
  const across = box.getBoundingClientRect().right - leader.getBoundingClientRect().left;
  leader.style.setProperty("--pl-pair-width", `${Math.round(across)}px`);
}

LAYERS.push({
  name: "pair",
  wants: (header) => Boolean(header.lead || header.follow),
  build: (ui) => ({ box: ui.box, status: ui.status, plane: ui.planeHost }),
  load({ box }, { header: h }) {
    box.classList.toggle("pl-pair", Boolean(h.lead || h.follow));
    box.classList.toggle("pl-follower", Boolean(h.follow));
    if (h.lead) box.dataset.plLead = h.lead;
  },
  arrange(part, { run }) {
    alignFollower(part, run);
  },
  stepped(part, { run, k }) {
    const group = run.header.lead;
    if (group) window.dispatchEvent(new CustomEvent("pl-lead", { detail: { group, k } }));
  },
  listen(part, { run }, stepper) {
    // a follower takes its leader's steps, and lines up again when the leader changes size
    const onLead = (event) => {
      const h = stepper.run?.header;
      if (h && h.follow && event.detail.group === h.follow) stepper.go(event.detail.k);
    };
    window.addEventListener("pl-lead", onLead);
    const resize = new ResizeObserver(() => stepper.relayout());
    const leader = run.header.follow && document.querySelector(`[data-pl-lead="${run.header.follow}"]`);
    if (leader) resize.observe(leader);
    // a follower mounted after its leader stepped (a busy page mounts it a moment later)
    // starts at the leader's step, not at its own first
    const ahead = leader?.parentElement?.__plStepper;
    if (ahead && ahead.k !== stepper.k) stepper.go(ahead.k);
    return () => {
      window.removeEventListener("pl-lead", onLead);
      resize.disconnect();
    };
  },
});
