"""Every lesson and part as a link, for the browser tests that visit them all (test_screens.py,
test_picture_first.py)."""

from __future__ import annotations

from scripts.screenshots import NOTES

# (name, link, what its first screen must show: "steps" a stepper with the step's maths,
# "chart" a chart, "text" tables and code only)
VIEWS = [
    ("step_through", f"/?{NOTES}&step=2", "steps"),
    ("margin", f"/margin?{NOTES}&step=2", "steps"),
    ("boolean", "/boolean", "chart"),
    ("nonseparable", "/nonseparable?data=xor-0-1&step=3", "steps"),
    ("svm_losses", "/svm?part=Losses", "chart"),
    ("svm_train", "/svm?part=Train+side+by+side&step=2", "steps"),
    ("svm_soft_margin", "/svm?part=Soft+margin", "chart"),
    ("svm_generalization", "/svm?part=Generalization", "chart"),
    ("svm_sklearn", "/svm?part=In+scikit-learn", "text"),
    ("variants_averaged", "/variants?part=averaged&step=3", "steps"),
    # the kernel perceptron's stepper draws no maths of a step (yet): its chart only
    ("variants_kernel", "/variants?part=kernel&step=3", "chart"),
    ("variants_classes", "/variants?part=classes", "chart"),
    ("your_data", "/your_data?pts=1,1,%2B;2,2.5,%2B;-1,-1,-;-2,0.5,-", "chart"),
]
