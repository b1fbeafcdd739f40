"""A Streamlit page holding one Plotly chart: what a lesson's opening is measured against
(bench/lesson_open.py). Four points and a line, as the lesson's first chart."""

import plotly.graph_objects as go
import streamlit as st

st.plotly_chart(go.Figure([go.Scatter(x=[1, 2, 1.5, 2], y=[1, 1, 0, 2], mode="markers"),
                           go.Scatter(x=[0, 3], y=[0.5, 2], mode="lines")]),
                key="one.chart")
