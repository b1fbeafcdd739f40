// The lecturer's page leads the class (ui/classroom.py): its steps, questions, reveals and
// closes posted with the lecturer's key (X-Class-Key), which lives only in this component's
// data. It uses only strip.js (and dom.js); stream.js, joined after it, uses it and hands it
// the page state ("c"), with ``c.over()``: what the page does when the class is over.

const LEAD_RETRY_MS = 2000;  // a step refused for now (429, 503) is sent again after this

export function post(c, body) {
  return fetch(url(`class/${c.code}/lecturer`), {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", "X-Class-Key": c.key },
    body: JSON.stringify(body),
  }).then(async (r) => {
    const reply = await r.json().catch(() => ({}));
    if (r.ok) {
      c.problem = null;
      if (reply.state) {
        c.ownSeq = Math.max(c.ownSeq, reply.state.seq);
        if (!c.state || reply.state.seq >= c.state.seq) c.state = reply.state;
      }
      return reply.state;
    }
    if (r.status === 404 || r.status === 410) c.over();
    else if (r.status === 403) c.problem = "This page no longer drives the class.";
    else c.problem = `The class did not take it: ${reply.error ?? r.status}`;
    const failure = new Error(reply.error ?? String(r.status));
    failure.status = r.status;
    throw failure;
  });
}

export function pushStep(c) {
  // one step request at a time, the newest k each time: Play at 30 steps a second or a held
  // key sends what the network carries, and the class ends where the lecturer stopped
  if (c.posting || c.ended || c.k === null || c.k === c.sentK) return;
  const k = c.k;
  c.posting = true;
  post(c, { action: "step", step: k }).then(() => {
    c.sentK = k;
  }).catch((error) => {
    if (error.status === 429 || error.status === 503) {
      setTimeout(() => pushStep(c), LEAD_RETRY_MS);
    }
  }).finally(() => {
    c.posting = false;
    render(c);
    pushStep(c);
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
