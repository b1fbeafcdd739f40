// @uses strip.js
// @provides RETRY_FIRST_MS, RETRY_LAST_MS, SLOW_DOWN, retryWait, post, restore, recover, pushStep,
// @provides lead, ask, catchUp
// The lecturer's page leads the class (ui/classroom/): its steps, questions, reveals and
// closes posted with the lecturer's key (X-Class-Key), which lives only in this component's
// data. It uses only strip.js (and dom.js); stream.js, joined after it, uses it and hands it
// the page state ("c"), with ``c.over()``: what the page does when the class is over.
//
// A send that fails (the class's store away, the network down, "slow down" from the server or
// its proxy) waits before the next, 0.5 s doubling to 10 s with jitter, and the next sends only
// the newest step: a tab asks at most about once a second while it fails, and the class takes
// the lecturer's latest press when it is back. A class its store lost (404) is given back
// (``restore``), under its code, at the page's view and step.

export const RETRY_FIRST_MS = 500;
export const RETRY_LAST_MS = 10000;
export const SLOW_DOWN = "The class asks this page to slow down: your latest step goes out "
  + "in a moment.";

export function retryWait(c) {
  // the wait before the next try after ``c.failures`` failures in a row: jittered, so that a
  // hall's tabs that failed together do not come back together
  const base = Math.min(RETRY_LAST_MS, RETRY_FIRST_MS * 2 ** Math.max(0, (c.failures ?? 1) - 1));
  return base * (0.5 + Math.random() / 2);
}

function refused(c, r, reply) {
  // what a refusal says on the page: in words, never a status number
  if (r.status === 410) c.over();
  else if (r.status === 403) c.problem = "This page no longer drives the class.";
  else if (r.status === 429) c.problem = SLOW_DOWN;
  else if (r.status === 404) c.lost = true;  // the store lost the class: it is given back
  else if (r.status >= 500) c.away = true;  // the class's store or server: reconnecting
  else c.problem = `The class did not take it: ${reply.error ?? "an unexpected answer"}`;
  const failure = new Error(reply.error ?? "refused");
  failure.status = r.status;
  return failure;
}

function sent(c, reply) {
  if (reply.answers) for (const took of extensions.took) took(c, reply);  // answers.js
  c.problem = null;
  c.away = false;
  c.lost = false;
  if (reply.charter) c.charter = reply.charter;  // renewed with the quiet hour (a touch's)
  if (reply.state) {
    c.ownSeq = Math.max(c.ownSeq, reply.state.seq);
    if (!c.state || reply.state.seq >= c.state.seq) c.state = reply.state;
  }
  return reply.state;
}

function send(c, path, body) {
  return fetch(url(`class/${c.code}/${path}`), {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", "X-Class-Key": c.key },
    body: JSON.stringify(body),
  }).catch((error) => {
    c.away = true;  // no answer at all: the network, or the server, is away
    error.status = 0;
    throw error;
  }).then(async (r) => {
    const reply = await r.json().catch(() => ({}));  // nginx's refusals carry no JSON
    if (r.ok) return sent(c, reply);
    throw refused(c, r, reply);
  });
}

export function post(c, body) {
  return send(c, "lecturer", body);
}

export function restore(c) {
  // the class's store lost it (a redis-server restarted without its data): this page, which
  // holds the key, the charter the server signed and the view, gives it back, at its step
  if (!c.charter) return Promise.reject(Object.assign(new Error("no charter"), { status: 404 }));
  const st = c.state ?? {};
  return send(c, "restore", {
    charter: c.charter, view: c.view ?? "", view_seq: st.view_seq ?? 1,
    seq: Math.max(st.seq ?? 0, c.ownSeq ?? 0, 1), step: c.k ?? st.step ?? 0,
  }).then((state) => {
    if (state) c.k = c.sentK = state.step;
    return state;
  });
}

function failed(c, error) {
  // a send failed: wait longer each time, then send the newest step (none after a 403 or
  // the end of the class: nothing would take it)
  if (c.ended || error.status === 403) return;
  c.failures = (c.failures ?? 0) + 1;
  c.waiting = true;
  clearTimeout(c.waitTimer);
  c.waitTimer = setTimeout(() => {
    c.waiting = false;
    if (c.lost) recover(c);
    else pushStep(c);
  }, retryWait(c));
}

export function recover(c) {
  // give the class back, then send the newest step if it moved meanwhile
  if (c.posting || c.waiting || c.ended) return;
  c.posting = true;
  restore(c).catch((error) => {
    if (error.status === 404 && !c.charter) c.over();  // a page that cannot give it back
    else failed(c, error);
  }).finally(() => {
    c.posting = false;
    render(c);
    if (!c.waiting) pushStep(c);
  });
}

export function pushStep(c) {
  // one step request at a time, the newest k each time: Play at 30 steps a second or a held
  // key sends what the network carries, and the class ends where the lecturer stopped
  if (c.posting || c.waiting || c.ended || c.k === null || c.k === c.sentK) return;
  if (c.lost) {
    recover(c);
    return;
  }
  const k = c.k;
  c.posting = true;
  post(c, { action: "step", step: k }).then(() => {
    c.sentK = k;
    c.failures = 0;
  }).catch((error) => {
    if (error.status === 403) c.sentK = k;  // refused for good: no more tries of this step
    if (error.status === 404 && !c.charter) c.over();  // a page that cannot give it back
    else failed(c, error);  // a lost class is given back when the wait is over (recover)
  }).finally(() => {
    c.posting = false;
    render(c);
    if (!c.waiting) pushStep(c);
  });
}

export function lead(c, action, body = {}) {
  c.busy = true;
  render(c);
  post(c, { action, ...body }).then((st) => {
    const detail = { question: st.question, lecturer: true, answered: null, canAnswer: false };
    if (action === "reveal") {
      detail.k = st.step;  // the true step, on every screen
      c.k = c.sentK = st.step;
    }
    tell(detail);
  }).catch(() => {}).finally(() => {
    c.busy = false;
    render(c);
  });
}

export function ask(c, kind) {
  const at = stepperAt();
  if (!at || at.k >= at.K) return;
  if (c.k !== at.k) {  // the class is where the projector is before it is asked
    c.k = at.k;
    pushStep(c);
  }
  // a mistake after which w has no way to turn is asked as "mistake or not": no wrong choice
  // stands in for the true answer
  lead(c, "ask", { kind: kind === "turn" && !at.turnable ? "mistake" : kind, step: at.k + 1 });
}

export function catchUp(c) {
  // after a run the projector's stepper may stand elsewhere than the class (a view published
  // with the step the server knew): the class goes where the projector is
  const at = stepperAt();
  if (at && c.state && at.k !== c.state.step && !c.posting) {
    c.k = at.k;
    c.sentK = c.state.step;
    pushStep(c);
  }
}
