// @uses wire.js controls.js stepper.js
// The stepper's component as Streamlit mounts it (ui/stepper/component.py): the default
// export, called with the run's bytes each time the element is drawn or re-sent. One stepper
// lives on its element's parent (``root.__plStepper``) across calls; a run is loaded only when
// its digest changes; the keys are the stepper's unless a box around it says
// ``data-pl-keys=off`` or its run says ``keys: false`` (a second stepper on the page).

export default function (component) {
  const { parentElement: root, data } = component;
  let s = root.__plStepper;
  if (!s) {
    s = new Stepper(root);
    root.__plStepper = s;
  }
  s.setStateValue = component.setStateValue;
  markRun(root);
  if (data && data.byteLength) {
    const run = unpack(data);
    if (run.header.digest !== s.digest) s.load(run);
  }
  const ownsKeys = !root.closest("[data-pl-keys=off]") && (s.run?.header.keys ?? true);
  // Streamlit calls this again for every re-sent element without cleaning up in between:
  // drop the previous listeners first, so that one press is one step
  if (s.stop) s.stop();
  const changed = s.ownsKeys !== ownsKeys;
  s.ownsKeys = ownsKeys;
  advertiseKeys(s.ui.box, ownsKeys);
  if (changed && s.run) s.schedule();  // the hints in the maths follow
  const stop = s.listen(ownsKeys);
  s.stop = stop;
  return () => {
    stop();
    if (s.stop === stop) s.stop = null;
    if (!root.isConnected) {
      s.sync.flush();
      s.player.stop();
      // the page's classes (.pl-lecture-page, the wide ones) are the steppers': a view's new
      // stepper mounts before the old one goes, and the page stays as the new one laid it out
      if (!document.querySelector(".pl-stepper")) {
        document.documentElement.classList.remove("pl-lecture-page", "pl-wide-page",
                                                  "pl-wide-one");
      }
    }
  };
}
