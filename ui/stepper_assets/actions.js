// @uses wire.js
// @provides nextMistake, perform
// What each of the stepper's controls does (its button or its key, controls.js, through the
// stepper's act): Step (or, in Predict mode, the question before the step), Back, Next
// mistake, Reset, Play and Pause. ``s`` is the stepper (stepper.js): its run, k and K, go,
// schedule, player and predict.

export function nextMistake(run, k, K) {
  // the first step after k that updates the weights, or K (a lesson's "stops" column, when its
  // clock stops at more than this run's own updates)
  const updated = (run.columns.stops ?? run.columns.updated).values;
  for (let j = k + 1; j <= K; j++) if (updated[j] === 1) return j;
  return K;
}

export function perform(s, action) {
  if (!s.run) return;
  if (action !== "play" && s.player.playing) s.player.stop();
  if (action === "step") {
    if (s.predict.on && s.k < s.K && row(s.run.columns.index, s.k + 1) >= 0) {
      if (!s.predict.quiz) s.predict.ask(s.run, s.k + 1);
      return;
    }
    s.go(s.k + 1);
  } else if (action === "back") {
    s.predict.close();
    s.go(s.k - 1);
  } else if (action === "next") {
    s.predict.close();
    s.go(nextMistake(s.run, s.k, s.K));
  } else if (action === "reset") {
    s.predict.close();
    s.go(0);
  } else if (action === "play") {
    s.predict.close();
    if (s.player.playing) s.player.stop();
    else {
      if (s.k === s.K) s.go(0);
      s.player.start();
    }
  }
  s.schedule();
}
