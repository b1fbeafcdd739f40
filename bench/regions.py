"""How long decision regions take: kernel scores on a grid, then the Plotly figure.

Run from the repository root::

    python -m bench.regions

For each grid size, number of training points N, data set and kernel, it
trains the kernel perceptron (not timed), then times the decision values
s(x) at every grid point and the figure the Variants page draws from them
(built, then serialised to JSON as Streamlit does). Each time is the best of
several repeats. The noisy blobs are not separable, so many of their points
end with alpha > 0; the last data row sets every alpha to 1 (all N points in
the sum), the worst case for the decision values.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from core.kernel import Kernel, KernelModel, kernel_perceptron
from core.runs import final
from datasets.builtin import noisy
from datasets.shapes import moons
from lessons.variants.figures import grid, kernel_figure
from viz.plane import view_box

KERNELS = {
    "linear": Kernel("linear"),
    "poly 2": Kernel("polynomial", degree=2, offset=1.0),
    "rbf 0.4": Kernel("rbf", width=0.4),
}
DATA = {"moons": lambda n: moons(n, 0.1, 0), "noisy blobs": lambda n: noisy(n, 0.7, 0),
        "every α > 0": lambda n: noisy(n, 0.7, 0)}


def best_of(repeats: int, work) -> tuple[float, object]:
    """The shortest wall time of ``repeats`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), or what platform knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, nargs="+", default=[120, 200])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import plotly

    print(f"# {cpu_model()}, nproc {os.cpu_count()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, plotly {plotly.__version__}\n")
    print("| grid | N | data | kernel | α > 0 | decision values (s) | figure build + JSON (s) "
          "| total (s) |")
    print("| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |")
    for size in args.grids:
        for n in args.sizes:
            for data_name, make in DATA.items():
                data = make(n)
                box = view_box(data.X)
                xs, ys, points = grid(box, size)
                for kernel_name, kernel in KERNELS.items():
                    alpha, _ = final(kernel_perceptron(data.X, data.y, kernel=kernel,
                                                       max_epochs=50, every="update"))
                    if data_name == "every α > 0":
                        alpha = np.ones(n)
                    model = KernelModel(data.X, data.y, alpha, kernel)
                    values_time, values = best_of(
                        args.repeats, lambda model=model, points=points: model.decision(points))

                    def build(values=values, alpha=alpha, data=data, xs=xs, ys=ys):
                        figure = kernel_figure(data.X, data.y, data.classes, xs, ys, values,
                                               alpha)
                        return figure.to_json()

                    figure_time, _ = best_of(args.repeats, build)
                    print(f"| {size}×{size} | {n} | {data_name} | {kernel_name} | "
                          f"{int(np.sum(alpha > 0))} | {values_time:.3f} | {figure_time:.3f} | "
                          f"{values_time + figure_time:.3f} |", flush=True)


if __name__ == "__main__":
    main()
