"""The server's loop keeps its poll set between passes (``serving.KeptPoll``) and watches, after
every pass, exactly what waitress's own pass (``wasyncore.poll2``) would have watched: each
connection for reading and writing as its ``readable`` and ``writable`` say, a listening
socket never for writing, nothing for a connection closed, a number reused by a new
connection with the new one's flags; and what is ready is handed to its dispatcher. Before a
serving process runs its loop, what it has made so far is set aside from the garbage
collector's full passes."""

from __future__ import annotations

import gc
import random
import select
import socket

from waitress.channel import HTTPChannel

from referee import serving
from referee.serving import KeptPoll

READ, WRITE = select.POLLIN | select.POLLPRI, select.POLLOUT


class Adjustments:
    channel_request_lookahead = 0


class Dispatcher:
    """A connection's state as waitress keeps it, and the events handed to it."""

    accepting = False

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.adj = Adjustments()
        self.will_close = self.close_when_flushed = False
        self.requests: list[object] = []
        self.total_outbufs_len = 0
        self.events: list[str] = []

    def handle_read_event(self) -> None:
        self.events.append("read")
        self.sock.recv(64)

    def handle_write_event(self) -> None:
        self.events.append("write")

    def handle_expt_event(self) -> None:
        self.events.append("expt")

    def handle_close(self) -> None:
        self.events.append("close")

    def handle_error(self) -> None:
        raise


class Connection(Dispatcher):
    """Asked through HTTPChannel's own methods, as RefereeChannel is."""

    readable = HTTPChannel.readable
    writable = HTTPChannel.writable


class Listening(Dispatcher):
    """A dispatcher with methods of its own: one that accepts (never watched for writing)."""

    accepting = True

    def readable(self) -> bool:
        return not self.will_close

    def writable(self) -> bool:
        return True


def waitress_flags(obj) -> int:
    """What waitress's pass registers for ``obj`` (``wasyncore.poll2``)."""
    flags = READ if obj.readable() else 0
    if obj.writable() and not obj.accepting:
        flags |= WRITE
    return flags


def test_after_every_pass_the_poll_set_is_what_waitress_would_watch():
    rng = random.Random(7)
    passing = KeptPoll()
    pairs: dict[int, tuple[socket.socket, socket.socket]] = {}
    the_map: dict[int, Dispatcher] = {}

    def connect(kind) -> None:
        ours, theirs = socket.socketpair()
        pairs[ours.fileno()] = (ours, theirs)
        the_map[ours.fileno()] = kind(ours)

    for n in range(40):
        connect(Listening if n % 10 == 0 else Connection)
    try:
        for _ in range(300):
            for obj in rng.sample(list(the_map.values()), 8):
                change = rng.randrange(5)
                if change == 0:
                    obj.requests = [object()] * rng.randrange(3)
                elif change == 1:
                    obj.total_outbufs_len = rng.choice((0, 0, 100))
                elif change == 2:
                    obj.will_close = rng.random() < 0.2
                elif change == 3:
                    obj.close_when_flushed = rng.random() < 0.2
            if rng.random() < 0.3 and len(the_map) > 10:  # a connection closes
                fd = rng.choice(list(the_map))
                del the_map[fd]
                for each in pairs.pop(fd):
                    each.close()
            if rng.random() < 0.3 and len(the_map) < 60:  # one opens: perhaps a number reused
                connect(rng.choice((Connection, Listening)))
            if rng.random() < 0.3:  # a client sends something
                fd = rng.choice(list(the_map))
                pairs[fd][1].send(b"x")
            passing(0.0, the_map)
            expected = {fd: waitress_flags(obj) for fd, obj in the_map.items()}
            assert passing.flags == {fd: f for fd, f in expected.items() if f}
    finally:
        for ours, theirs in pairs.values():
            ours.close()
            theirs.close()


def test_what_is_ready_is_handed_to_its_dispatcher_and_nothing_else_is():
    passing = KeptPoll()
    pairs = [socket.socketpair() for _ in range(3)]
    try:
        quiet, spoken, closing = (Connection(ours) for ours, _ in pairs)
        the_map = {c.sock.fileno(): c for c in (quiet, spoken, closing)}
        passing(0.0, the_map)
        assert quiet.events == spoken.events == closing.events == []
        pairs[1][1].send(b"GET")
        closing.will_close = True  # waitress then watches it for writing only
        passing(0.0, the_map)
        assert (quiet.events, spoken.events, closing.events) == ([], ["read"], ["write"])
        pairs[1][1].send(b"more")
        spoken.requests = [object()]  # a request in progress: not read meanwhile
        passing(0.0, the_map)
        assert spoken.events == ["read"]
        spoken.requests = []
        passing(0.0, the_map)
        assert spoken.events == ["read", "read"]
    finally:
        for ours, theirs in pairs:
            ours.close()
            theirs.close()


def test_what_a_process_made_before_serving_is_set_aside_from_the_collectors_passes():
    """``serving.run`` freezes everything made so far (the modules, the app) before the
    loop runs (``gc.freeze``): a full pass no longer goes over it, while the hub's loop
    waits; garbage made before it is collected first, not frozen."""

    class Server:
        effective_listen: list = []
        frozen = -1

        def print_listen(self, _format: str) -> None:
            pass

        def run(self) -> None:
            self.frozen = gc.get_freeze_count()

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    garbage = Cycle()
    marker = id(garbage)
    del garbage
    server = Server()
    callbacks = list(gc.callbacks)
    try:
        serving.run(server)
    finally:
        gc.callbacks[:] = callbacks
        gc.unfreeze()
    assert server.frozen > 10_000, server.frozen  # the modules' objects, at least
    assert marker not in {id(o) for o in gc.get_objects() if isinstance(o, Cycle)}


def test_what_survives_a_full_pass_is_frozen_and_everything_is_gone_over_again_now_and_then():
    """While a process serves, what a full pass of the collector leaves is frozen
    (``serving.FullPasses``), so the next pass goes over only what came since; objects made
    since the last pass are not frozen before a full pass has gone over them, and a pass
    after ``renew_s`` first unfreezes everything, so the pass after it frees a cycle that
    died frozen."""

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    callbacks = list(gc.callbacks)
    passes = serving.FullPasses(renew_s=3600)
    gc.unfreeze()
    gc.callbacks.append(passes)
    try:
        kept = [Cycle() for _ in range(1000)]
        assert gc.get_freeze_count() == 0
        gc.collect(1)  # a younger pass freezes nothing
        assert gc.get_freeze_count() == 0
        gc.collect()
        frozen = gc.get_freeze_count()
        assert frozen >= 1000, frozen
        del kept
        assert gc.collect() < 1000  # a thousand cycles dead while frozen: no pass frees them
        passes.renew_at = 0.0  # due: this pass unfreezes everything, the next goes over it
        gc.collect()
        assert gc.get_freeze_count() == 0
        assert gc.collect() >= 1000  # the cycles that died frozen
        assert gc.get_freeze_count() > 0  # and what that pass left is frozen again
    finally:
        gc.callbacks[:] = callbacks
        gc.unfreeze()


def test_a_connection_marked_to_close_is_closed_only_once_it_neither_answers_nor_sends():
    """A connection waitress marked to close (idle for the idle timeout, or evicted at the
    connection limit) is closed by the next check once nothing is in progress on it and its
    answer, if any, has not moved for a check; one whose request came as it was marked, or
    whose client is still taking its answer, finishes first: its phone's view is never cut
    off mid-answer."""
    now = 1000.0

    class Channel:
        def __init__(self, requests: int = 0, waiting: int = 0, moved: float = now) -> None:
            self.will_close = True
            self.requests = [object()] * requests
            self.total_outbufs_len = waiting
            self.last_activity = moved
            self.closed = False

        def handle_close(self) -> None:
            self.closed = True

    class Listener:
        may_log = staticmethod(lambda: False)

    channels = {
        "idle": Channel(),
        "answering": Channel(requests=1, moved=now - 40),
        "sending": Channel(waiting=18_000, moved=now - 0.2),
        "stuck": Channel(waiting=18_000, moved=now - 2),
        "kept": Channel(),
    }
    channels["kept"].will_close = False
    listener = Listener()
    listener.active_channels = channels
    serving.RefereeListener.close_stalled(listener, now)
    assert {name for name, c in channels.items() if c.closed} == {"idle", "stuck"}
