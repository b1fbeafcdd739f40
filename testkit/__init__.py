"""What the tests, the benchmarks (bench/) and the scripts (scripts/) share: finding and
starting Chromium, the app's server, a class's servers and Redis, the deployment, and the
browser helpers of the journeys. It imports nothing from tests/, bench/ or scripts/, and they
import their shared helpers only from here (tests/test_layers.py)."""
