"""Tests of the exanet Python module (scripts/test-python.sh runs them in the test command's
virtual environment, beside the examples).

The command line they compare against is the binary built from the same tree:
EXANET_BIN, else target/release/exanet.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import exanet
import pandas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("EXANET_BIN", os.path.join(ROOT, "target", "release", "exanet"))


def command_line(*args, config=None):
    """What `exanet ARGS --json` prints, and the CSV files it wrote."""
    out = subprocess.run([BIN, *args, "--json"] + (["--config", config] if config else []),
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def without_run(doc):
    return {k: v for k, v in doc.items() if k not in ("run", "table", "packet_records")}


class SameFiguresAsTheCommandLine(unittest.TestCase):
    """The module calls the library's own commands: for the same configuration the JSON is
    the command line's, but for the run record (its command line)."""

    def same(self, doc, *args, config=None):
        cli = command_line(*args, config=config)
        self.assertEqual(without_run(doc), without_run(cli))
        self.assertEqual(doc["run"]["config"], cli["run"]["config"])
        self.assertEqual(doc["run"]["seeds"], cli["run"]["seeds"])
        # the record's command line is the call's (the module adds --json and its files)
        self.assertEqual(doc["run"]["command_line"][:3], ["exanet", *args[:2]])
        return cli

    def test_link_and_router_measurements(self):
        self.same(exanet.link_latency(), "link", "latency")
        self.same(exanet.link_efficiency(payloads=[64, 1024], credit="usedword"),
                  "link", "efficiency", "--payload", "64,1024", "--credit", "usedword")
        self.same(exanet.link_bandwidth(payload=256), "link", "bandwidth", "--payload", "256")
        self.same(exanet.router_latency(), "router", "latency")

    def test_karma_pingpong(self):
        r = exanet.karma_pingpong(sizes=[16, 256], iterations=4)
        self.same(r, "karma", "pingpong", "--sizes", "16,256", "--iterations", "4")
        self.assertEqual(len(r["table"]), 4)  # 2 sizes, 1 and 2 hops

    def test_a_network_run_and_its_packet_records(self):
        cfg = exanet.Config(net={"topology": "torus:4x4", "load": 0.2})
        with tempfile.TemporaryDirectory() as d:
            cfg_file = os.path.join(d, "c.toml")
            with open(cfg_file, "w") as f:
                f.write(cfg.to_toml())
            r = exanet.network_run(cfg, seed=3)
            self.same(r, "network", "run", "--seed", "3", config=cfg_file)
            r = exanet.network_run(cfg, seed=3, packets=True)
            p = os.path.join(d, "p.csv")
            self.same(r, "network", "run", "--seed", "3", "--packets", p, config=cfg_file)
            self.assertEqual(len(r["packet_records"]), r["packets_delivered_total"])
            # the records are the CSV the command line writes
            self.assertEqual(r["packet_records"], exanet.read_csv(p))
            f = exanet.network_run(cfg, seed=3, packets=True, frame=True)["packet_records"]
            self.assertIsInstance(f, pandas.DataFrame)
            self.assertEqual(list(f.columns), list(exanet.read_csv(p)[0].keys()))
            self.assertIn("latency_cycles", f.columns)
            self.assertEqual(int(f["latency_cycles"].sum()),
                             sum(x["latency_cycles"] for x in r["packet_records"]))

    def test_a_sweep_over_loads_a_field_and_seeds(self):
        cfg = exanet.Config(net={"measure_cycles": 2000})
        r = exanet.network_sweep(cfg, topologies="torus:4x4", loads=[0.1, 0.3],
                                 vary={"link.credit.period_cycles": [20, 50]}, seeds=range(1, 3),
                                 jobs=2)
        with tempfile.TemporaryDirectory() as d:
            cfg_file = os.path.join(d, "c.json")
            with open(cfg_file, "w") as f:
                json.dump(cfg.to_dict(), f)
            self.same(r, "network", "sweep", "--topology", "torus:4x4", "--loads", "0.1,0.3",
                      "--vary", "link.credit.period_cycles=20,50", "--seeds", "1,2", "--jobs",
                      "2", config=cfg_file)
        self.assertEqual(len(r["curves"]), 2)
        self.assertEqual(len(r["table"]), 2 * 2 * 2)

    def test_applications(self):
        self.same(exanet.app_run("ring", topology="torus:2x2", iterations=3),
                  "app", "run", "ring", "--topology", "torus:2x2", "--iterations", "3")
        dpsnn = os.path.join(ROOT, "examples", "dpsnn.toml")
        self.same(exanet.app_dpsnn(dpsnn, columns="4x4", iterations=3),
                  "app", "dpsnn", "--columns", "4x4", "--iterations", "3", config=dpsnn)
        trace = os.path.join(ROOT, "examples", "traces", "ring", "ti.txt")
        replay = os.path.join(ROOT, "examples", "replay.toml")
        self.same(exanet.app_replay(trace, replay), "app", "replay", trace, config=replay)

    def test_cosimulation_against_the_verilated_rtl(self):
        self.assertTrue(exanet.rtl_built_in(), "the test command builds the module with the RTL")
        r = exanet.cosim("router", cycles=3000, seed=5)
        self.same(r, "cosim", "--design", "router", "--cycles", "3000", "--seed", "5")
        # (a cycle that differs is an error: the call raises RunError)
        self.assertEqual(r["cycles"], 3000)
        self.assertGreater(r["signals_compared"], 1000)
        self.assertGreater(r["stats"]["packets_delivered"], 0)


class Configurations(unittest.TestCase):
    def test_a_bad_field_raises_a_value_error_naming_it(self):
        for make, field in [
            (lambda: exanet.Config(link__num_vcs=99), "link.num_vcs"),
            (lambda: exanet.Config({"link": {"num_vcs": 0}}), "link.num_vcs"),
            (lambda: exanet.Config({"link": {"bogus": 1}}), "link.bogus"),
            (lambda: exanet.Config(**{"net.load": "lots"}), "net.load"),
            (lambda: exanet.Config().replace({"net.topology": "ring:5"}), "net.topology"),
        ]:
            with self.assertRaises(ValueError) as e:
                make()
            self.assertIsInstance(e.exception, exanet.ConfigError)
            self.assertEqual(e.exception.field, field)
            self.assertIn(field, str(e.exception))

    def test_the_message_is_the_command_lines(self):
        with self.assertRaises(exanet.ConfigError) as e:
            exanet.Config(link__num_vcs=99)
        out = subprocess.run([BIN, "link", "latency", "--set", "link.num_vcs=99"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn(str(e.exception), out.stderr)

    def test_files_dicts_and_keywords_make_the_same_configuration(self):
        a = exanet.Config(net={"topology": "mesh:3x3", "load": 0.25}, link__num_vcs=4)
        b = exanet.Config({"net": {"topology": "mesh:3x3"}}, **{"net.load": 0.25, "link.num_vcs": 4})
        self.assertEqual(a, b)
        self.assertEqual(a["link.num_vcs"], 4)
        self.assertNotEqual(a, exanet.Config())
        with tempfile.TemporaryDirectory() as d:
            for name, text in [("c.toml", a.to_toml()), ("c.json", json.dumps(a.to_dict()))]:
                p = os.path.join(d, name)
                with open(p, "w") as f:
                    f.write(text)
                self.assertEqual(exanet.Config.from_file(p), a)
            bad = os.path.join(d, "bad.toml")
            with open(bad, "w") as f:
                f.write("[net]\nload = 7\n")
            with self.assertRaises(exanet.ConfigError) as e:
                exanet.Config(bad)
            self.assertEqual(e.exception.field, "net.load")

    def test_bad_arguments_raise_an_input_error(self):
        with self.assertRaises(exanet.InputError) as e:
            exanet.network_run(routing="zigzag")
        self.assertIn("zigzag", str(e.exception))
        with self.assertRaises(ValueError):
            exanet.link_efficiency(payloads=[0])
        with self.assertRaises(ValueError):
            exanet.app_replay("/nonexistent/trace.txt")


class ExplicitTopologies(unittest.TestCase):
    """A network given as its nodes and links (exanet.graph), routed by up*/down*'s tables."""

    # a ring of 6 with two chords
    LINKS = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3), (1, 4)]

    def test_a_graph_runs_as_the_command_line_runs_it(self):
        topo = exanet.graph(6, self.LINKS)
        self.assertEqual(topo, "graph:6:0-1,1-2,2-3,3-4,4-5,5-0,0-3,1-4")
        cfg = exanet.Config(net={"topology": topo, "routing": "updown", "load": 0.2})
        r = exanet.network_run(cfg, seed=4)
        self.assertEqual(r["topology"], topo)
        self.assertTrue(r["stable"])
        self.assertEqual(r["packets_lost"], 0)
        self.assertGreater(r["packets_delivered"], 100)
        self.same_as_cli(r, cfg)

    def test_a_networkx_graph_is_its_nodes_and_edges(self):
        import networkx

        g = networkx.petersen_graph()
        topo = exanet.graph(g)
        self.assertEqual(topo, exanet.graph(10, list(g.edges)))
        cfg = exanet.Config(net={"topology": topo, "routing": "updown"})
        self.assertEqual(cfg["net.topology"], topo)
        # nodes of any name are numbered in their order
        named = networkx.relabel_nodes(g, {k: f"r{k}" for k in g.nodes})
        self.assertEqual(exanet.graph(named), topo)

    def same_as_cli(self, r, cfg):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "c.toml")
            with open(f, "w") as out:
                out.write(cfg.to_toml())
            cli = command_line("network", "run", "--seed", "4", config=f)
        self.assertEqual(without_run(r), without_run(cli))

    def test_bad_graphs_are_refused_naming_what_is_wrong(self):
        for links, nodes, says in [
            ([(0, 1), (2, 3)], 4, "not connected"),
            ([(0, 1), (1, 0)], 2, "joins nodes 1 and 0 again"),
            ([(0, 0), (0, 1)], 2, "joins node 0 to itself"),
            ([(0, 7)], 2, "node 7 is not one of the 2 nodes"),
            ([(0, k) for k in range(1, 18)], 18, "node 0 has 17 links"),
        ]:
            with self.assertRaises(exanet.ConfigError) as e:
                exanet.Config(net={"topology": exanet.graph(nodes, links)})
            self.assertEqual(e.exception.field, "net.topology")
            self.assertIn(says, str(e.exception))
        # a torus routing on a graph: refused by the routing's own check
        with self.assertRaises(ValueError) as e:
            exanet.network_run(exanet.Config(net={"topology": exanet.graph(6, self.LINKS),
                                                  "routing": "ecube"}))
        self.assertIn("ecube", str(e.exception))


class SpreadSweeps(unittest.TestCase):
    """A sweep's points over processes: parts and their join (a job array), and the ranks of an
    mpi4py communicator under Open MPI's mpirun, give the one-process sweep's results."""

    CFG = {"net": {"measure_cycles": 1000}}
    SWEEP = dict(topologies=["torus:4x4", "mesh:3x3"], loads=[0.1, 0.4], seeds=[1, 2])

    def test_parts_and_their_join_give_the_whole_sweep(self):
        whole = exanet.network_sweep(self.CFG, **self.SWEEP)
        with tempfile.TemporaryDirectory() as d:
            for k in range(3):
                self.assertIsNone(exanet.network_sweep(self.CFG, part=(k, 3), parts_dir=d,
                                                       **self.SWEEP))
            self.assertEqual(sorted(os.listdir(d)), [f"part-{k}-of-3.json" for k in range(3)])
            joined = exanet.network_sweep(self.CFG, join=d, **self.SWEEP)
        self.assertEqual(without_run(whole), without_run(joined))
        self.assertEqual(whole["table"], joined["table"])

    def test_the_ranks_of_an_mpi4py_communicator_share_the_points(self):
        whole = exanet.network_sweep(self.CFG, **self.SWEEP)
        with tempfile.TemporaryDirectory() as d:
            packets = os.path.join(d, "packets.csv")
            script = (
                "import exanet, json, sys\n"
                "from mpi4py import MPI\n"
                f"r = exanet.network_sweep({self.CFG!r}, comm=MPI.COMM_WORLD, "
                f"packets={packets!r}, **{self.SWEEP!r})\n"
                "if MPI.COMM_WORLD.Get_rank() == 0:\n"
                "    del r['packet_records']\n"
                "    print(json.dumps(r))\n"
                "else:\n"
                "    assert r is None\n"
            )
            env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
            out = subprocess.run(["timeout", "120", "mpirun", "--oversubscribe", "-n", "3",
                                  sys.executable, "-c", script],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(out.returncode, 0, out.stderr)
            spread = json.loads(out.stdout)
            self.assertEqual(without_run(spread), without_run(whole))
            self.assertEqual(spread["table"], whole["table"])
            one = exanet.network_sweep(self.CFG, packets=True, **self.SWEEP)
            self.assertEqual(exanet.read_csv(packets), one["packet_records"])


class LongRuns(unittest.TestCase):
    def test_the_gil_is_released_while_a_run_goes_on(self):
        ticks = []
        done = threading.Event()

        def other():
            while not done.is_set():
                ticks.append(time.monotonic())
                time.sleep(0.002)

        t = threading.Thread(target=other)
        t.start()
        start = time.monotonic()
        exanet.network_run(exanet.Config(net={"topology": "torus:8x8", "load": 0.3}), threads=1)
        end = time.monotonic()
        done.set()
        t.join()
        during = [x for x in ticks if start < x < end]
        # the other thread ran all along: at most a few hundred ms between two of its ticks
        self.assertGreater(len(during), 10, f"{len(during)} ticks in {end - start:.2f} s")
        gaps = [b - a for a, b in zip(during, during[1:])]
        self.assertLess(max(gaps), 0.5)

    def test_progress_reaches_the_callback(self):
        seen = []
        exanet.network_run(exanet.Config(net={"topology": "torus:8x8", "load": 0.3}), threads=1,
                           progress=lambda *a: seen.append(a))
        self.assertTrue(seen)
        what, done, total, _ = seen[-1]
        self.assertIn("network run", what)
        self.assertGreater(done, 0)
        self.assertEqual([s[1] for s in seen], sorted(s[1] for s in seen))

    def test_an_exception_in_the_callback_stops_the_run(self):
        def stop(*_):
            raise LookupError("enough")

        with self.assertRaises(LookupError):
            exanet.network_run(exanet.Config(net={"topology": "torus:8x8", "measure_cycles": 10**7}),
                               progress=stop)
        # the process is usable after it
        self.assertEqual(exanet.link_latency()["total_cycles"], command_line("link", "latency")["total_cycles"])

    def test_ctrl_c_stops_a_run(self):
        script = (
            "import exanet, signal, sys, time\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "t = time.monotonic()\n"
            "try:\n"
            "    exanet.network_sweep(exanet.Config(net={'measure_cycles': 10**7}),\n"
            "        topologies='torus:16x16', loads=[0.2, 0.3], jobs=2,\n"
            "        progress=lambda *a: print('running', flush=True))\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', round(time.monotonic() - t, 1), flush=True)\n"
            "print(exanet.link_latency()['total_cycles'], flush=True)\n"
        )
        p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        self.assertEqual(p.stdout.readline().strip(), "running")
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=60)
        stopped = time.monotonic() - sent
        lines = [x for x in out.splitlines() if x != "running"]
        self.assertTrue(lines[0].startswith("interrupted"), out)
        self.assertEqual(lines[1], "51")
        self.assertEqual(p.returncode, 0)
        self.assertLess(stopped, 20, "the run stopped soon after Ctrl-C")


if __name__ == "__main__":
    unittest.main()
