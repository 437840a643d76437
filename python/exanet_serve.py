"""A client of exanet's co-simulation server (``exanet network serve``), in plain Python.

A task simulator (a Dimemas, an SST element, a script) owns some ranks of a session; the
server carries their messages through exanet's network and says when each left its source
NIC and when it arrived. This module speaks the server's line protocol (``src/serve/mod.rs``,
docs/applications.md); it has no dependency beyond the standard library.

    import exanet_serve as es

    def answer(at):                     # the network stands at at.time on at.endpoint
        for m in at.completed:          # messages to this endpoint's ranks, arrived at at.time
            ...
        return [es.Send(1, 0, 1, 1000, 0, at.time)], None   # the SENDs, then STOP never

    with es.Client("127.0.0.1:PORT", [0, 1], token) as c:
        end = c.run(answer)

What the server announces, in which order (docs/decisions/0023-cosimulation-protocol.md):

- Every stop is on one endpoint at one cycle: its LEFT lines, then its COMPLETED SEND lines,
  then ``AT t e``. ``run`` gathers them into one :class:`At` and calls the answer function
  once a stop; the answer's SENDs are that endpoint's ranks' only, at ``t`` or later.
- Per endpoint, stop times never decrease. Across endpoints they may: the network steps each
  node through a window of cycles before the next, so ``AT 950 0`` may come before
  ``AT 900 3``. Keep a clock per endpoint, never one for the client.
- The STOP (or DONE) of an answer is the client's, for all its endpoints: the server stops on
  the first of its endpoints whose cycle reaches it, unless an event stops one sooner.
- A message between two ranks of one endpoint goes through memory: it leaves and arrives in
  the cycle it was sent, told in a second stop at that cycle.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Callable, Iterable, List, Sequence, Tuple, Union

PROTOCOL = 1


class ServerError(Exception):
    """The server ended the session with ``ERROR <what>`` (the message is ``what``)."""


class ProtocolError(Exception):
    """The server said something this client does not understand."""


@dataclass
class Send:
    """A message: ``bytes`` from rank ``src`` to ``dst``, queued at the source NIC at cycle
    ``time``; ``id`` is the client's, unique among its messages in flight. ``opaque``: at most
    4096 bytes handed to the receiver's client (the receiver's COMPLETED SEND carries them)."""

    id: int
    src: int
    dst: int
    bytes: int
    tag: int
    time: int
    opaque: bytes = b""

    def fields(self) -> str:
        s = f"{self.id} {self.src} {self.dst} {self.bytes} {self.tag} {self.time}"
        return s + (" " + self.opaque.hex() if self.opaque else "")


@dataclass
class Left:
    """The last packet of message ``id`` left its source NIC at cycle ``time``."""

    id: int
    time: int


@dataclass
class At:
    """One stop: the network stands at cycle ``time`` on ``endpoint``; ``left`` and
    ``completed`` are the events of the endpoint's ranks the server told of before it."""

    time: int
    endpoint: int
    left: List[Left] = field(default_factory=list)
    completed: List[Send] = field(default_factory=list)


@dataclass
class End:
    """The session is over at cycle ``cycle`` (its last event); ``deadlock``: nothing could
    happen any more while a client had not finished."""

    cycle: int
    deadlock: bool
    left: List[Left] = field(default_factory=list)
    completed: List[Send] = field(default_factory=list)


class Done:
    """Returned as an answer's stop: this client's ranks have finished."""


DONE = Done()

#: What an answer function returns: the SENDs, then the next event time (an int), ``None``
#: (STOP never: nothing until told of an event) or ``DONE``.
Answer = Tuple[Iterable[Send], Union[int, None, Done]]


def ranks_text(ranks: Iterable[int]) -> str:
    """Ranks as HELLO gives them: ``[0, 1, 2, 3, 8]`` is ``0-3,8``."""
    rs = sorted(set(ranks))
    if not rs:
        raise ValueError("a client owns at least one rank")
    out, a, b = [], rs[0], rs[0]
    for r in rs[1:] + [None]:
        if r is not None and r == b + 1:
            b = r
            continue
        out.append(str(a) if a == b else f"{a}-{b}")
        if r is not None:
            a = b = r
    return ",".join(out)


def _int(w: str, what: str) -> int:
    try:
        return int(w)
    except ValueError:
        raise ProtocolError(f"{what}: '{w}' is not an integer") from None


def _send(w: Sequence[str], line: str) -> Send:
    if len(w) not in (6, 7):
        raise ProtocolError(f"'{line}': expected id src dst bytes tag time [hex]")
    v = [_int(x, line) for x in w[:6]]
    try:
        opaque = bytes.fromhex(w[6]) if len(w) == 7 else b""
    except ValueError:
        raise ProtocolError(f"'{line}': '{w[6]}' is not hex") from None
    return Send(*v, opaque=opaque)


class Client:
    """One client's connection: greeting read and HELLO sent on construction; the ranks'
    endpoints (``endpoint_of``) and the start cycle (``start``) known once it returns."""

    def __init__(self, address: str, ranks: Iterable[int], token: str, timeout: float = 60.0):
        host, _, port = address.rpartition(":")
        self.sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.r = self.sock.makefile("r", encoding="ascii", newline="\n")
        self.w = self.sock.makefile("w", encoding="ascii", newline="\n")
        w = self._line().split()
        if len(w) != 8 or w[0] != "EXANET-SERVE" or w[2] != "ranks" or w[4] != "endpoints":
            raise ProtocolError(f"not an exanet server's greeting: {' '.join(w)}")
        if _int(w[1], "greeting") != PROTOCOL:
            raise ProtocolError(f"protocol {w[1]}; this client speaks {PROTOCOL}")
        self.ranks, self.endpoints = _int(w[3], "ranks"), _int(w[5], "endpoints")
        self.cycle_ps = _int(w[7], "cycle_ps")
        self._write(f"HELLO {ranks_text(ranks)} {token}")
        self.endpoint_of = {}
        while True:
            w = self._words()
            if w[0] == "RANK" and len(w) == 3:
                self.endpoint_of[_int(w[1], "RANK")] = _int(w[2], "RANK")
            elif w[0] == "START" and len(w) == 2:
                self.start = _int(w[1], "START")
                break
            else:
                raise ProtocolError(f"expected RANK or START, got '{' '.join(w)}'")
        self.sent = 0

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def close(self) -> None:
        for f in (self.w, self.r, self.sock):
            try:
                f.close()
            except OSError:
                pass

    def _line(self) -> str:
        line = self.r.readline()
        if not line:
            raise ProtocolError("the server closed the connection")
        return line.rstrip("\n")

    def _words(self) -> List[str]:
        line = self._line()
        w = line.split(" ")
        if w[0] == "ERROR":
            raise ServerError(line[len("ERROR "):])
        return w

    def _write(self, line: str) -> None:
        self.w.write(line + "\n")
        self.w.flush()

    def run(self, answer: Callable[[At], Answer]) -> End:
        """Serve the session: call ``answer`` at every stop, send what it returns, until END.
        The ranks start at ``self.start``: the server's first stops are there. Raises
        :class:`ServerError` when the server ends the session with an error."""
        left: List[Left] = []
        completed: List[Send] = []
        done = False
        while True:
            w = self._words()
            line = " ".join(w)
            if w[0] == "LEFT" and len(w) == 3:
                left.append(Left(_int(w[1], line), _int(w[2], line)))
            elif w[:2] == ["COMPLETED", "SEND"]:
                completed.append(_send(w[2:], line))
            elif w[0] == "AT" and len(w) == 3:
                at = At(_int(w[1], line), _int(w[2], line), left, completed)
                left, completed = [], []
                if done:
                    raise ProtocolError(f"'{line}' after this client said DONE")
                sends, stop = answer(at)
                out = []
                for m in sends:
                    out.append(f"SEND {m.fields()}")
                    self.sent += 1
                if stop is DONE:
                    out.append("DONE")
                    done = True
                elif stop is None:
                    out.append("STOP never")
                else:
                    out.append(f"STOP {int(stop)}")
                self._write("\n".join(out))
            elif w[0] == "END" and len(w) in (2, 3):
                return End(_int(w[1], line), w[2:] == ["deadlock"], left, completed)
            else:
                raise ProtocolError(f"unexpected line '{line}'")


def connect(address: str, ranks: Iterable[int], token: str, timeout: float = 60.0) -> Client:
    """``Client(address, ranks, token, timeout)``."""
    return Client(address, ranks, token, timeout)


__all__ = [
    "At",
    "Answer",
    "Client",
    "DONE",
    "End",
    "Left",
    "ProtocolError",
    "Send",
    "ServerError",
    "connect",
    "ranks_text",
]

