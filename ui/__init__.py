"""Streamlit pieces shared by the lesson pages."""
