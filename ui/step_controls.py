"""The step controls every animated lesson shares: Back, Step, Next mistake, Reset, a slider."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.trace import Trace
from ui import url_state

KEYS_HELP = """
| key | does |
| --- | --- |
| → | Step: visit the next example |
| ← | Back: undo the last step |
| N | Next mistake: jump to the next update |
| Home | Reset: back to the start |
| Tab / Enter | move between and press any control |

The keys work wherever the page has focus, except while you type in a field.
▶ Play runs the steps at the chosen speed; *Predict* asks before each step.
"""


def keys_button() -> None:
    """A popover that lists the keyboard shortcuts."""
    with st.popover("Keys", icon=":material/keyboard:", width="stretch"):
        st.markdown(KEYS_HELP)


def _move(key: str, target: int) -> None:
    """Set the position the slider (the one source of truth) shows."""
    st.session_state[key] = int(target)


def step_controls(page: str, trace: Trace) -> int:
    """Draw the controls and return the current position (0 = before the first step)."""
    key = f"{page}.t"
    last = trace.steps
    linked = url_state.pending_step()
    if linked is not None:
        st.session_state[key] = linked
    position = min(int(st.session_state.get(key, 0)), last)
    st.session_state[key] = position
    later = trace.update_positions[trace.update_positions > position]
    next_mistake = int(later[0]) if later.size else last

    url_state.write_step(position)
    cols = st.columns([1, 1, 1, 1, 0.7, 0.7])
    cols[0].button("Back", icon=":material/arrow_back:", shortcut="Left", key=f"{page}.back",
                   on_click=_move, args=(key, max(position - 1, 0)), disabled=position == 0,
                   width="stretch")
    cols[1].button("Step", icon=":material/arrow_forward:", shortcut="Right", type="primary",
                   key=f"{page}.step", on_click=_move, args=(key, min(position + 1, last)),
                   disabled=position == last, width="stretch")
    cols[2].button("Next mistake", icon=":material/skip_next:", shortcut="N",
                   key=f"{page}.next", on_click=_move, args=(key, next_mistake),
                   disabled=position == last, width="stretch")
    cols[3].button("Reset", icon=":material/restart_alt:", shortcut="Home", key=f"{page}.reset",
                   on_click=_move, args=(key, 0), disabled=position == 0, width="stretch")
    with cols[4]:
        keys_button()
    with cols[5]:
        url_state.share_button()
    if last > 0:
        st.slider("Step", 0, last, key=key, label_visibility="collapsed")
    return int(st.session_state[key])


def reset_on_change(page: str, signature) -> None:
    """Go back to step 0 when the run itself changes (new data or settings)."""
    previous = st.session_state.get(f"{page}.signature")
    if previous is not None and previous != signature:
        st.session_state[f"{page}.t"] = 0
    st.session_state[f"{page}.signature"] = signature


def start_at_end(page: str, signature, last: int) -> None:
    """Show a new run at its end (the trained model); stepping starts from Reset."""
    key, seen = f"{page}.t", f"{page}.signature"
    if st.session_state.get(seen) != signature or key not in st.session_state:
        st.session_state[key] = last
    st.session_state[seen] = signature


def run_signature(X, y, settings: dict) -> tuple:
    """A hashable fingerprint of a run: the data bytes and the settings."""
    return (np.asarray(X).tobytes(), np.asarray(y).tobytes(), repr(sorted(settings.items())))
