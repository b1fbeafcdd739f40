// @provides syncDue, Sync
// The position goes back to the server only when the student stops, and at most once every
// few seconds however the student presses: a hall of 300 pressing every few seconds would
// otherwise keep the server busy with reruns. A report leaves SYNC_IDLE_MS after the last
// press or, for a student who keeps pressing, SYNC_EVERY_MS after the first press it has not
// reported; in both cases no sooner than SYNC_EVERY_MS after the previous report. Leaving
// the page or the tab, or a click elsewhere on the page, reports at once.

const SYNC_IDLE_MS = 500;
const SYNC_EVERY_MS = 5000;
const CLOCK = { now: () => performance.now(), later: (f, ms) => setTimeout(f, ms),
                cancel: (timer) => clearTimeout(timer) };

export function syncDue(now, unsynced, sentAt) {
  // when a report of a press at `now` leaves: the first press not yet reported was at
  // `unsynced`, the last report at `sentAt` (null: none yet)
  return Math.max(Math.min(now + SYNC_IDLE_MS, unsynced + SYNC_EVERY_MS),
                  sentAt === null ? -Infinity : sentAt + SYNC_EVERY_MS);
}

export class Sync {
  // where(): the position to report ({run, k}), or null before there is a run;
  // report(position) sends it
  constructor(where, report, clock = CLOCK) {
    Object.assign(this, { where, report, clock, timer: null, synced: null, sentAt: null,
                          unsynced: null });
  }

  start(k) {
    // a new run opens at k, which the server knows
    this.synced = k;
  }

  queue() {
    // the student moved: report it when due
    const now = this.clock.now();
    if (this.unsynced === null) this.unsynced = now;
    const due = syncDue(now, this.unsynced, this.sentAt);
    this.clock.cancel(this.timer);
    this.timer = this.clock.later(() => this.flush(), Math.max(0, due - now));
  }

  flush() {
    // report now, if the server does not know the position yet
    this.clock.cancel(this.timer);
    this.timer = null;
    this.unsynced = null;
    const position = this.where();
    if (!position || this.synced === position.k) return;
    this.synced = position.k;
    this.sentAt = this.clock.now();
    this.report(position);
  }

  listen(box) {
    // report at once when the page or the tab goes, or on a click outside `box` (which may
    // change a setting or the page: the server hears k first); returns what stops listening
    const onLeave = () => this.flush();
    const onHidden = () => {
      if (document.visibilityState === "hidden") this.flush();
    };
    const onElsewhere = (event) => {
      if (this.timer !== null && !box.contains(event.target)) this.flush();
    };
    window.addEventListener("pagehide", onLeave);
    document.addEventListener("visibilitychange", onHidden);
    document.addEventListener("pointerdown", onElsewhere, true);
    return () => {
      window.removeEventListener("pagehide", onLeave);
      document.removeEventListener("visibilitychange", onHidden);
      document.removeEventListener("pointerdown", onElsewhere, true);
    };
  }
}
