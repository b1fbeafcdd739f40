"""Perceptron Lab: routes to the lessons (each draws the shared sidebar from ui/)."""

from pathlib import Path

import streamlit as st

# the icon ships with the app: a lecture room offline must not wait for a font server
FAVICON = Path(__file__).parent / "assets" / "favicon.png"

st.set_page_config(
    page_title="Perceptron Lab", page_icon=str(FAVICON), layout="wide",
    # a lecture link opens on the lesson alone; the settings stay one click away
    initial_sidebar_state="collapsed" if st.query_params.get("lecture") == "1" else "auto",
)

LESSONS = [
    st.Page(f"lessons/{name}/page.py", title=title, icon=icon, url_path=name,
            default=name == "step_through")
    for name, title, icon in (
        ("step_through", "Step through", ":material/footprint:"),
        ("margin", "Margin and the mistake bound", ":material/straighten:"),
        ("boolean", "Boolean functions and XOR", ":material/memory:"),
        ("nonseparable", "Non-separable data", ":material/autorenew:"),
        ("svm", "Perceptron vs SVM", ":material/compare_arrows:"),
        ("variants", "Variants", ":material/call_split:"),
        ("your_data", "Your data", ":material/edit_location_alt:"),
    )
]

st.navigation(LESSONS).run()
