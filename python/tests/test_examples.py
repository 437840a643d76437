"""The examples of examples/python run as written (in their quick mode) and draw their figure."""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples", "python")


class Examples(unittest.TestCase):
    def test_every_example_runs_and_draws_its_figure(self):
        names = sorted(f[:-3] for f in os.listdir(EXAMPLES)
                       if f.endswith(".py") and not f.startswith("_"))
        self.assertEqual(names, ["cnf_confidence", "credit_period", "dpsnn_routings",
                                 "fault_transient"])
        with tempfile.TemporaryDirectory() as out:
            for name in names:
                with self.subTest(example=name):
                    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, name + ".py"),
                                        "--quick", "--out", out],
                                       capture_output=True, text=True, cwd=ROOT)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    png = os.path.join(out, name + ".png")
                    self.assertTrue(r.stdout.startswith(f"wrote {png}"), r.stdout)
                    with open(png, "rb") as f:
                        self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
                    self.assertGreater(os.path.getsize(png), 10_000)


if __name__ == "__main__":
    unittest.main()
