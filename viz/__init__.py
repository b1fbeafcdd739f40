"""Plotly figure builders: plain data in, figures out; no Streamlit."""
