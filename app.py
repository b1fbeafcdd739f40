"""Perceptron Lab: routes to the lessons (lessons/; each draws the shared sidebar from ui/)."""

from pathlib import Path

import streamlit as st

import lessons

# the icon ships with the app: a lecture room offline must not wait for a font server
FAVICON = Path(__file__).parent / "assets" / "favicon.png"

st.set_page_config(
    page_title="Perceptron Lab", page_icon=str(FAVICON), layout="wide",
    # a lecture link opens on the lesson alone; the settings stay one click away
    initial_sidebar_state="collapsed" if st.query_params.get("lecture") == "1" else "auto",
)

st.navigation(lessons.pages()).run()
