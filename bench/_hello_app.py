"""The least a Streamlit page costs to open: one line of text (bench/lesson_open.py)."""

import streamlit as st

st.write("hello")
