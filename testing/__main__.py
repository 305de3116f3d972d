"""The loopback model server from the command line, until its lifetime ends.

`python -m testing --port P --latency 0.3 --latency-spread 0.5`: for a benchmark that runs the town in another
process (benchmarks/bench_engine.py), or to try `run.py models check` against it by hand. It prints its OpenAI-style
base URL as one JSON line once it listens.
"""

import argparse
import json

from testing.loopback_server import LoopbackServer


def main() -> None:
    """Serve on 127.0.0.1 until the lifetime ends; print {"url": ...} once listening."""
    parser = argparse.ArgumentParser(prog="python -m testing", description=__doc__.splitlines()[0].rstrip("."))
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--latency-spread", type=float, default=0.0)
    parser.add_argument("--lifetime", type=float, default=3600)
    args = parser.parse_args()
    server = LoopbackServer(
        latency=args.latency, latency_spread=args.latency_spread, lifetime_s=args.lifetime, port=args.port
    ).start()
    print(json.dumps({"url": server.url}), flush=True)  # the command's one line of output
    server.wait()


if __name__ == "__main__":
    main()
