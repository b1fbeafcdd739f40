"""Perceptron Lab: routes to the lessons (lessons/; each draws the shared sidebar from ui/)."""

from pathlib import Path

import streamlit as st

import lessons

# the icon ships with the app: a lecture room offline must not wait for a font server. It is
# served as a file (below): a path here would be read and registered again on every run
FAVICON = Path(__file__).parent / "assets" / "favicon.png"

if __name__ != "__main__":
    # `streamlit run app.py` imports this file to find `app`: Streamlit's server with the
    # class routes beside its own (classroom/). Every page view runs the file as __main__.
    from classroom.server import lifespan, middleware, routes
    from ui.classroom.follower_page import routes as follower_routes
    from ui.stepper import serve_file, serve_plotly

    # ./static (git-ignored) holds the stepper's copy of plotly.min.js and the icon; made
    # before the server starts, so Streamlit finds the folder it serves
    # (server.enableStaticServing)
    serve_plotly()
    serve_file(FAVICON.name, FAVICON.read_bytes())
    # the class's routes, and the follower page that follows a class with no Streamlit session
    app = st.App(__file__, routes=[*routes(), *follower_routes()], lifespan=lifespan,
                 middleware=middleware())

if __name__ == "__main__":
    st.set_page_config(
        page_title="Perceptron Lab", page_icon=f"app/static/{FAVICON.name}", layout="wide",
        # a lecture link opens on the lesson alone; the settings stay one click away
        initial_sidebar_state="collapsed" if st.query_params.get("lecture") == "1" else "auto",
    )
    from ui import lecture_plan, slide_questions  # noqa: F401 (the slide's questions offered)
    from ui.classroom import class_session
    from ui.state import shown_marker

    LESSONS = lessons.pages()
    page = st.navigation(LESSONS)
    # a lecture plan's slide asked for opens as its view's link would (ui/lecture_plan/),
    # and the slide bar with the clicker's keys comes before the page's first picture
    lecture_plan.begin(LESSONS, page, lessons.link_parameters, lessons.plan_catalogue)
    lecture_plan.bar(LESSONS, lessons.link_parameters)
    # a class: the page leads or follows (ui/classroom/); a view holds the links' parameters
    with class_session(LESSONS, page, lessons.link_parameters):
        page.run()
    lecture_plan.after()  # (a remote's first run takes the class's plan)
    with st.sidebar:
        lecture_plan.sidebar(page.title, page.url_path, lessons.link_parameters)
    shown_marker()  # last: what the page sends back says it had the whole run
