"""exanet from Python: the cycle-accurate model of the ExaNet network IP (APErouter, APElink,
APEphy) called in this process (docs/python.md).

Every function runs the library's own command, parsed and checked by the same code as the
``exanet`` binary's, and returns what ``--json`` prints, as a dict, ``run`` record first; the
figures are the command line's for the same configuration. A table the command writes as CSV
comes back under ``"table"`` and the per-packet records of a network run or sweep under
``"packet_records"``: lists of dicts with the CSV's columns, or pandas DataFrames with
``frame=True``.

    >>> import exanet
    >>> cfg = exanet.Config(net={"topology": "torus:4x4", "load": 0.2})
    >>> r = exanet.network_run(cfg, seed=3)
    >>> r["accepted_load"], r["latency_mean_cycles"]

Bad input raises ``ValueError`` (``ConfigError`` for a configuration field, with ``.field``;
``InputError`` for a command's arguments) with the command line's message; a failed run raises
``RunError``. Runs release the GIL, report progress (``progress=``: a callback
``f(what, done, total, message)``, or tqdm when it is installed) and stop on Ctrl-C with
``KeyboardInterrupt``. Runs go one at a time in a process; ``jobs=`` spreads a sweep's points
over threads, and :func:`network_sweep` spreads them over MPI ranks under mpi4py.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from typing import Any, Callable, Iterable, Mapping, Sequence

from . import _native
from ._native import ConfigError, InputError, RunError, rtl_built_in

__version__: str = _native.__version__

__all__ = [
    "Config",
    "ConfigError",
    "InputError",
    "RunError",
    "app_dpsnn",
    "app_replay",
    "app_run",
    "cli",
    "cosim",
    "frame",
    "graph",
    "karma_pingpong",
    "karma_selftest",
    "link_bandwidth",
    "link_efficiency",
    "link_latency",
    "network_faults",
    "network_run",
    "network_sweep",
    "read_csv",
    "router_bandwidth",
    "router_latency",
    "rtl_built_in",
]


# ---------------------------------------------------------------------------------------------
# configuration


def _literal(v: Any) -> str:
    """A Python value as ``--set`` reads it (a TOML value; text as it is)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(json.dumps(x) if isinstance(x, str) else _literal(x) for x in v) + "]"
    if isinstance(v, Mapping):
        # an inline table (the items of a list of tables)
        return "{" + ", ".join(f"{json.dumps(str(k))} = " + (json.dumps(x) if isinstance(x, str) else _literal(x))
                               for k, x in v.items()) + "}"
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    if isinstance(v, str):
        return v
    raise ConfigError(f"invalid configuration: a value of type {type(v).__name__} ({v!r}): "
                      "give a number, a bool, a string or a list")


def _dotted(fields: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """``{"net": {"load": 0.3}}``, ``{"net.load": 0.3}`` or ``{"net__load": 0.3}`` as
    ``[("net.load", "0.3")]``, in order."""
    out: list[tuple[str, str]] = []
    for k, v in fields.items():
        key = prefix + str(k).replace("__", ".")
        if isinstance(v, Mapping):
            out.extend(_dotted(v, key + "."))
        else:
            out.append((key, _literal(v)))
    return out


def _flat(fields: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in fields.items():
        if isinstance(v, Mapping):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


class Config:
    """A validated configuration: the defaults (the thesis's hardware), a file (``.toml`` or
    ``.json``), a dict shaped like the file, or another Config, with fields changed by keyword
    (``net={"load": 0.3}``, ``net__load=0.3`` or ``**{"net.load": 0.3}``), as ``--set`` changes
    them. Refused fields raise :class:`ConfigError` (a ``ValueError``) naming the field."""

    __slots__ = ("_native",)

    def __init__(self, source: Config | Mapping[str, Any] | str | os.PathLike | None = None,
                 /, **fields: Any) -> None:
        if source is None:
            base = _native.Config.defaults()
        elif isinstance(source, Config):
            base = source._native
        elif isinstance(source, Mapping):
            # field by field, as --set: an error names the dotted field
            base = _native.Config.defaults()
            fields = {**_flat(source), **fields}
        elif isinstance(source, (str, os.PathLike)):
            base = _native.Config.read(os.fspath(source))
        else:
            raise TypeError(f"Config(): a dict, a file name or a Config, not {type(source).__name__}")
        self._native = base.with_sets(_dotted(fields))

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> Config:
        """A ``.toml`` or ``.json`` configuration file."""
        return cls(os.fspath(path))

    def replace(self, fields: Mapping[str, Any] | None = None, /, **more: Any) -> Config:
        """This configuration with fields changed (dotted names in ``fields``, or keywords)."""
        return Config(self, **{**(dict(fields) if fields else {}), **more})

    def to_dict(self) -> dict[str, Any]:
        """Every field, nested by section."""
        return json.loads(self._native.to_json())

    def to_toml(self) -> str:
        """Every field as a TOML configuration file (``exanet --config FILE``)."""
        return self._native.to_toml()

    def __getitem__(self, dotted: str) -> Any:
        v: Any = self.to_dict()
        for part in dotted.split("."):
            if not isinstance(v, dict) or part not in v:
                raise KeyError(dotted)
            v = v[part]
        return v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._native == other._native

    def __repr__(self) -> str:
        return f"exanet.Config({self.to_dict()!r})"


def graph(nodes: Any, links: Iterable[tuple[int, int]] | None = None) -> str:
    """A topology given as its nodes and links, as ``net.topology`` names it
    (``graph:N:A-B,C-D,...``; docs/network.md): ``graph(6, [(0, 1), (1, 2), ...])``, or a
    networkx graph (its nodes numbered in their order). A node's links take its ports in the
    order listed. The configuration checks it: at least 2 nodes, every link between two
    different nodes, no pair twice, at most 16 links a node, connected. Route it with a
    table-based routing (``net.routing = "updown"``)."""
    if links is None:
        if not (hasattr(nodes, "nodes") and hasattr(nodes, "edges")):
            raise TypeError("graph(): give a node count and links, or a networkx graph")
        index = {v: i for i, v in enumerate(nodes.nodes)}
        links = [(index[a], index[b]) for a, b in nodes.edges]
        nodes = len(index)
    return f"graph:{int(nodes)}:" + ",".join(f"{int(a)}-{int(b)}" for a, b in links)


def _config(config: Config | Mapping[str, Any] | str | os.PathLike | None) -> Config:
    return config if isinstance(config, Config) else Config(config)


# ---------------------------------------------------------------------------------------------
# progress


def _progress(progress: Callable[[str, int, int | None, str], Any] | bool | None):
    """The callback handed to the run: the caller's, tqdm's (``None`` when tqdm is
    installed, or ``True``), or none (``False``)."""
    if callable(progress):
        return progress, lambda: None
    if progress is False:
        return None, lambda: None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if progress is True:
            raise
        return None, lambda: None
    bars: dict[str, Any] = {}

    def show(what: str, done: int, total: int | None, message: str) -> None:
        bar = bars.get(what)
        if bar is None:
            for b in bars.values():
                b.close()
            bars.clear()
            bar = bars[what] = tqdm(total=total, desc=what, leave=False)
        if total is not None and bar.total != total:
            bar.total = total
        bar.update(done - bar.n)  # (a step's rate, as tqdm counts it)
        bar.set_postfix_str(message)

    def close() -> None:
        for b in bars.values():
            b.close()

    return show, close


# ---------------------------------------------------------------------------------------------
# tables


def _number(s: str) -> Any:
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(s, s)


def read_csv(path: str | os.PathLike, frame: bool = False) -> Any:
    """A CSV file exanet wrote: a list of dicts (numbers as numbers), or a pandas DataFrame."""
    if frame:
        import pandas

        return pandas.read_csv(path)
    with open(path, newline="") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


def frame(rows: Sequence[Mapping[str, Any]]) -> Any:
    """Rows (a ``"table"`` or ``"packet_records"`` list) as a pandas DataFrame."""
    import pandas

    return pandas.DataFrame(list(rows))


# ---------------------------------------------------------------------------------------------
# commands


def cli(args: Sequence[str], config: Config | Mapping[str, Any] | str | None = None, *,
        progress: Any = None) -> dict[str, Any] | None:
    """Runs ``exanet ARGS...`` in this process on ``config`` (or the defaults) and returns the
    JSON document it made (give ``--json``), or None."""
    show, close = _progress(progress)
    try:
        docs = json.loads(_native.call([str(a) for a in args],
                                       None if config is None else _config(config)._native,
                                       show))
    finally:
        close()
    return docs[-1] if docs else None


def _opt(args: list[str], name: str, value: Any) -> None:
    """``--name value`` when given (lists comma-joined, True a flag)."""
    if value is None or value is False:
        return
    if value is True:
        args.append(name)
    elif isinstance(value, (list, tuple, range)):
        args += [name, ",".join(str(v) for v in value)]
    else:
        args += [name, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]


def _run(args: list[str], config: Any, progress: Any, *, table: bool = False,
         packets: bool | str | os.PathLike = False, frame: bool = False) -> dict[str, Any]:
    """The command with ``--json``, its CSV table and packet records read back."""
    with tempfile.TemporaryDirectory(prefix="exanet-") as tmp:
        args = [*args, "--json"]
        table_path = os.path.join(tmp, "table.csv")
        if table:
            args += ["--csv", table_path]
        packets_path = None
        if packets:
            packets_path = (os.path.join(tmp, "packets.csv") if packets is True
                            else os.fspath(packets))
            args += ["--packets", packets_path]
        doc = cli(args, config, progress=progress)
        assert doc is not None, "a --json command made its document"
        if table:
            doc["table"] = read_csv(table_path, frame)
        if packets_path is not None:
            doc["packet_records"] = read_csv(packets_path, frame)
    return doc


def link_latency(config: Any = None, *, frame: bool = False, progress: Any = None) -> dict:
    """APElink hop latency: header into the sender's TX FIFO to header into the receiver's RX
    FIFO, stage by stage (``exanet link latency``)."""
    return _run(["link", "latency"], config, progress, table=True, frame=frame)


def link_efficiency(config: Any = None, *, payloads: Iterable[int] | None = None,
                    credit: str | None = None, frame: bool = False, progress: Any = None) -> dict:
    """Protocol efficiency under saturating traffic, simulated against the formula and the
    thesis's table, one row a payload size (``exanet link efficiency``)."""
    a = ["link", "efficiency"]
    _opt(a, "--payload", None if payloads is None else list(payloads))
    _opt(a, "--credit", credit)
    return _run(a, config, progress, table=True, frame=frame)


def link_bandwidth(config: Any = None, *, payload: int = 512, frame: bool = False,
                   progress: Any = None) -> dict:
    """Delivered link bandwidth under saturating traffic (``exanet link bandwidth``)."""
    return _run(["link", "bandwidth", "--payload", str(payload)], config, progress, table=True,
                frame=frame)


def router_latency(config: Any = None, *, frame: bool = False, progress: Any = None) -> dict:
    """APErouter latency of its four paths (``exanet router latency``)."""
    return _run(["router", "latency"], config, progress, table=True, frame=frame)


def router_bandwidth(config: Any = None, *, payloads: Iterable[int] | None = None,
                     intra_ports: int | None = None, frame: bool = False,
                     progress: Any = None) -> dict:
    """Router self-test bandwidth (``exanet router bandwidth``)."""
    a = ["router", "bandwidth"]
    _opt(a, "--payload", None if payloads is None else list(payloads))
    _opt(a, "--intra-ports", intra_ports)
    return _run(a, config, progress, table=True, frame=frame)


def karma_pingpong(config: Any = None, *, hops: int | None = None, mode: str | None = None,
                   sizes: Iterable[int] | None = None, iterations: int | None = None,
                   backend: str | None = None, ber: float | None = None,
                   seed: int | None = None, plot: str | os.PathLike | None = None,
                   vcd: str | os.PathLike | None = None, frame: bool = False,
                   progress: Any = None) -> dict:
    """KARMA ping-pong on the 2x2 mesh: round-trip latency against payload size, 1 and 2 hops
    (``exanet karma pingpong``)."""
    a = ["karma", "pingpong"]
    _opt(a, "--hops", hops)
    _opt(a, "--mode", mode)
    _opt(a, "--sizes", None if sizes is None else list(sizes))
    _opt(a, "--iterations", iterations)
    _opt(a, "--backend", backend)
    _opt(a, "--ber", ber)
    _opt(a, "--seed", seed)
    _opt(a, "--plot", plot)
    _opt(a, "--vcd", vcd)
    return _run(a, config, progress, table=True, frame=frame)


def karma_selftest(config: Any = None, *, payloads: Iterable[int] | None = None,
                   backend: str | None = None, frame: bool = False,
                   progress: Any = None) -> dict:
    """Router and link bandwidth by the nodes' self-test IPs (``exanet karma selftest``)."""
    a = ["karma", "selftest"]
    _opt(a, "--payload", None if payloads is None else list(payloads))
    _opt(a, "--backend", backend)
    return _run(a, config, progress, table=True, frame=frame)


def network_run(config: Any = None, *, topology: str | None = None, routing: str | None = None,
                load: float | None = None, seed: int | None = None, threads: int | None = None,
                packets: bool | str | os.PathLike = False, channels: bool = False,
                latency_bin: int | None = None, latency_plot: str | os.PathLike | None = None,
                report: str | os.PathLike | None = None, report_every: int | None = None,
                frame: bool = False, progress: Any = None) -> dict:
    """One network run: warm-up, measurement window, drain; the statistics of ``exanet
    network run``. ``packets=True`` (or a file name to keep) adds one record a delivered packet
    under ``"packet_records"``, with the latency split into routers, links and ejection."""
    a = ["network", "run"]
    _opt(a, "--topology", topology)
    _opt(a, "--routing", routing)
    _opt(a, "--load", load)
    _opt(a, "--seed", seed)
    _opt(a, "--threads", threads)
    _opt(a, "--latency-bin", latency_bin)
    _opt(a, "--latency-plot", latency_plot)
    _opt(a, "--report", report)
    _opt(a, "--report-every", report_every)
    with tempfile.TemporaryDirectory(prefix="exanet-") as tmp:
        ch = os.path.join(tmp, "channels.csv")
        if channels:
            a += ["--channels", ch]
        r = _run(a, config, progress, table=False, packets=packets, frame=frame)
        if channels:
            r["channel_records"] = read_csv(ch, frame)
    return r


def _seeds(seeds: str | Iterable[int] | None) -> str | None:
    if seeds is None or isinstance(seeds, str):
        return seeds
    return ",".join(str(int(s)) for s in seeds)


def _loads(loads: str | Iterable[float] | None) -> str | None:
    if loads is None or isinstance(loads, str):
        return loads
    return ",".join(repr(float(x)) for x in loads)


def _vary(vary: Mapping[str, Iterable[Any]] | Sequence[str] | None) -> list[str]:
    if vary is None:
        return []
    if isinstance(vary, Mapping):
        return [f"{k}=" + ",".join(_literal(v) for v in vs) for k, vs in vary.items()]
    return list(vary)


def network_sweep(config: Any = None, *, topologies: Iterable[str] | str | None = None,
                  routings: Iterable[str] | str | None = None,
                  loads: str | Iterable[float] | None = None,
                  vary: Mapping[str, Iterable[Any]] | Sequence[str] | None = None,
                  size: str | int | None = None, pattern: str | None = None,
                  seed: int | None = None, seeds: str | Iterable[int] | None = None,
                  jobs: int | None = None, threads: int | None = None,
                  packets: bool | str | os.PathLike = False,
                  plot: str | os.PathLike | None = None, saturation: bool = False,
                  resolution: float | None = None, comm: Any = None,
                  part: tuple[int, int] | None = None,
                  parts_dir: str | os.PathLike | None = None,
                  join: str | os.PathLike | None = None, frame: bool = False,
                  progress: Any = None) -> dict | None:
    """Curves of accepted traffic and latency against offered load (``exanet network sweep``):
    a curve a (topology, routing) pair and ``vary`` combination (``{"link.num_vcs": [2,
    4]}``), each point over ``seeds`` with a 95 % confidence interval; ``"table"`` holds the
    points as the CSV has them. ``saturation=True`` searches each curve's saturation
    throughput instead.

    Spread over processes: ``comm`` (an mpi4py communicator, e.g. ``MPI.COMM_WORLD``) shares
    the points among its ranks and returns the results on rank 0 (None on the others),
    identical to the one-process sweep's; ``part=(K, N), parts_dir=DIR`` runs part K of N (a
    job array's task) and ``join=DIR`` writes the results of the parts (``--part``,
    ``--join``). With ``packets``, give a file name every process sees."""
    a = ["network", "sweep"]
    for t in [topologies] if isinstance(topologies, str) else (topologies or []):
        a += ["--topology", t]
    for r in [routings] if isinstance(routings, str) else (routings or []):
        a += ["--routing", r]
    _opt(a, "--loads", _loads(loads))
    for v in _vary(vary):
        a += ["--vary", v]
    _opt(a, "--size", size)
    _opt(a, "--pattern", pattern)
    _opt(a, "--seed", seed)
    _opt(a, "--seeds", _seeds(seeds))
    _opt(a, "--jobs", jobs)
    _opt(a, "--threads", threads)
    _opt(a, "--plot", plot)
    _opt(a, "--saturation", saturation)
    _opt(a, "--resolution", resolution)
    if comm is not None and comm.Get_size() > 1:
        return _sweep_over(comm, a, config, progress, packets, frame)
    if part is not None:
        cli([*a, "--part", f"{part[0]}/{part[1]}", "--parts-dir", os.fspath(parts_dir or "."),
             *_packets_file(packets)], config, progress=progress)
        return None
    if join is not None:
        a += ["--join", os.fspath(join)]
    return _run(a, config, progress, table=True, packets=packets, frame=frame)


def _packets_file(packets: bool | str | os.PathLike) -> list[str]:
    if packets is True:
        raise InputError("packets=True: the records of a sweep spread over processes are joined "
                         "from files every process writes: give a file name (on a file system "
                         "every process sees)")
    return ["--packets", os.fspath(packets)] if packets else []


def _sweep_over(comm: Any, a: list[str], config: Any, progress: Any,
                packets: bool | str | os.PathLike, frame: bool) -> dict | None:
    """The sweep ``a`` spread over the ranks of ``comm``: each runs its part of the points
    (``--part``), rank 0 gathers the parts and joins them (``--join``)."""
    rank, size = comm.Get_rank(), comm.Get_size()
    more = _packets_file(packets)
    failure: BaseException | None = None
    with tempfile.TemporaryDirectory(prefix="exanet-part-") as d:
        try:
            cli([*a, "--part", f"{rank}/{size}", "--parts-dir", d, *more], config,
                progress=progress)
        except (InputError, RunError) as e:
            # the part is written with its error: the join says it, as one process would
            failure = e
        name = os.path.join(d, f"part-{rank}-of-{size}.json")
        mine = open(name).read() if os.path.exists(name) else None
    parts = comm.gather(mine, root=0)
    if rank != 0:
        if failure is not None:
            raise failure
        return None
    if any(p is None for p in parts):
        raise failure or RunError("a rank wrote no part")
    with tempfile.TemporaryDirectory(prefix="exanet-join-") as d:
        for k, text in enumerate(parts):
            with open(os.path.join(d, f"part-{k}-of-{size}.json"), "w") as f:
                f.write(text)
        return _run([*a, "--join", d], config, progress, table=True, packets=packets or False,
                    frame=frame)


def network_faults(config: Any = None, *, links: str | Iterable[int], seeds: str | Iterable[int],
                   at: int | None = None, jobs: int | None = None, threads: int | None = None,
                   plot: str | os.PathLike | None = None, frame: bool = False,
                   progress: Any = None) -> dict:
    """Accepted traffic and latency against the number of failed links (``exanet network
    faults``)."""
    a = ["network", "faults", "--links", _seeds(links) or "", "--seeds", _seeds(seeds) or ""]
    _opt(a, "--at", at)
    _opt(a, "--jobs", jobs)
    _opt(a, "--threads", threads)
    _opt(a, "--plot", plot)
    return _run(a, config, progress, table=True, frame=frame)


def _timeline(a: list[str], paraver: Any, perfetto: Any) -> None:
    _opt(a, "--paraver", paraver)
    _opt(a, "--perfetto", perfetto)


def app_run(example: str, config: Any = None, *, topology: str | None = None,
            routing: str | None = None, ranks: int | None = None, mapping: str | None = None,
            bytes: int | None = None, iterations: int | None = None, seed: int | None = None,
            threads: int | None = None, paraver: str | os.PathLike | None = None,
            perfetto: str | os.PathLike | None = None, frame: bool = False,
            progress: Any = None) -> dict:
    """A shipped SPMD program on the network (``exanet app run EXAMPLE``)."""
    a = ["app", "run", example]
    _opt(a, "--topology", topology)
    _opt(a, "--routing", routing)
    _opt(a, "--ranks", ranks)
    _opt(a, "--mapping", mapping)
    _opt(a, "--bytes", bytes)
    _opt(a, "--iterations", iterations)
    _opt(a, "--seed", seed)
    _opt(a, "--threads", threads)
    _timeline(a, paraver, perfetto)
    return _run(a, config, progress, table=True, frame=frame)


def app_dpsnn(config: Any = None, *, columns: str | None = None, per_process: int | None = None,
              rate_hz: float | None = None, iterations: int | None = None,
              topology: str | None = None, routing: str | None = None,
              mapping: str | None = None, barrier: str | None = None,
              calc_ns_per_spike: float | None = None, latency_bin_cycles: int | None = None,
              trace: str | os.PathLike | None = None,
              write_trace: str | os.PathLike | None = None,
              plot: str | os.PathLike | None = None, seed: int | None = None,
              threads: int | None = None, paraver: str | os.PathLike | None = None,
              perfetto: str | os.PathLike | None = None, frame: bool = False,
              progress: Any = None) -> dict:
    """The DPSNN cortical simulation's spike exchange on the network (``exanet app
    dpsnn``)."""
    a = ["app", "dpsnn"]
    _opt(a, "--columns", columns)
    _opt(a, "--per-process", per_process)
    _opt(a, "--rate-hz", rate_hz)
    _opt(a, "--iterations", iterations)
    _opt(a, "--topology", topology)
    _opt(a, "--routing", routing)
    _opt(a, "--mapping", mapping)
    _opt(a, "--barrier", barrier)
    _opt(a, "--calc-ns-per-spike", calc_ns_per_spike)
    _opt(a, "--latency-bin-cycles", latency_bin_cycles)
    _opt(a, "--trace", trace)
    _opt(a, "--write-trace", write_trace)
    _opt(a, "--plot", plot)
    _opt(a, "--seed", seed)
    _opt(a, "--threads", threads)
    _timeline(a, paraver, perfetto)
    return _run(a, config, progress, table=True, frame=frame)


def app_replay(trace: str | os.PathLike, config: Any = None, *, format: str | None = None,
               topology: str | None = None, routing: str | None = None,
               mapping: str | None = None, flops_per_second: float | None = None,
               seed: int | None = None, threads: int | None = None,
               paraver: str | os.PathLike | None = None,
               perfetto: str | os.PathLike | None = None, frame: bool = False,
               progress: Any = None) -> dict:
    """An MPI trace (SimGrid time-independent, or OTF2) replayed on the network (``exanet
    app replay``)."""
    a = ["app", "replay", os.fspath(trace)]
    _opt(a, "--format", format)
    _opt(a, "--topology", topology)
    _opt(a, "--routing", routing)
    _opt(a, "--mapping", mapping)
    _opt(a, "--flops-per-second", flops_per_second)
    _opt(a, "--seed", seed)
    _opt(a, "--threads", threads)
    _timeline(a, paraver, perfetto)
    return _run(a, config, progress, table=True, frame=frame)


def cosim(design: str, config: Any = None, *, cycles: int | None = None,
          seed: int | None = None, ber: float | None = None, credit: str | None = None,
          vcd_dir: str | os.PathLike | None = None, wave_format: str | None = None,
          scopes: Iterable[str] = (), simulator: str | None = None, shape: str | None = None,
          app: str | None = None, stimulus: str | None = None,
          coverage: str | os.PathLike | None = None, progress: Any = None) -> dict:
    """The model and the Verilated RTL in lockstep, every cycle compared (``exanet cosim``);
    needs a module built with the RTL (:func:`rtl_built_in`)."""
    a = ["cosim", "--design", design]
    _opt(a, "--cycles", cycles)
    _opt(a, "--seed", seed)
    _opt(a, "--ber", ber)
    _opt(a, "--credit", credit)
    _opt(a, "--vcd-dir", vcd_dir)
    _opt(a, "--wave-format", wave_format)
    for s in scopes:
        a += ["--scope", s]
    _opt(a, "--simulator", simulator)
    _opt(a, "--shape", shape)
    _opt(a, "--app", app)
    _opt(a, "--stimulus", stimulus)
    _opt(a, "--coverage", coverage)
    return _run(a, config, progress)
