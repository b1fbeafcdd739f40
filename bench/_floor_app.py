"""The least a Step can cost in Streamlit: one button, one metric, one small Plotly chart.

``python -m bench.latency --script bench/_floor_app.py`` measures it the same way
as the lesson, giving the floor that Streamlit's rerun and re-render set on
this machine, whatever the app does.
"""

import plotly.graph_objects as go
import streamlit as st

TOTAL = 2000
st.session_state.setdefault("floor.t", 0)


def _step() -> None:
    st.session_state["floor.t"] += 1


st.button("Step", shortcut="Right", on_click=_step)
t = st.session_state["floor.t"]
st.metric("Step t", f"{t} / {TOTAL}")
st.plotly_chart(go.Figure(go.Scatter(x=[0, 1, t % 7], y=[0, 1, 2], mode="markers")),
                key="floor.chart")
