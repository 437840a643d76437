"""What the examples share: their command line (--quick for a short run, --out for where the
figure goes) and a headless matplotlib."""

import argparse
import os

import matplotlib

matplotlib.use("Agg")


def options(doc: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="a short run (fewer loads, seeds and cycles), as the tests run it")
    p.add_argument("--out", default="out", help="folder for the figure [default: out]")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    return a
