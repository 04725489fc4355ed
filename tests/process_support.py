"""The processes a real `referee serve` starts, found through /proc: its children, all its
descendants (serving workers and each one's process for costly work), its serving workers
(the children handed a socket, ``--listen-fd``), and a wait for processes to be gone."""

from __future__ import annotations

import time
from pathlib import Path


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def descendants_of(pid: int) -> list[int]:
    """Every process started, directly or not, by ``pid``: its serving workers, and each
    process's worker for costly work (``referee.costly``)."""
    found, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def workers_of(pid: int) -> list[int]:
    """The serving workers ``referee serve`` started (each given its socket)."""
    workers = []
    for child in children_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--listen-fd" in command:
            workers.append(child)
    return workers


def gone(pids: list[int], within_s: float) -> bool:
    """Whether every one of ``pids`` has ended (or is a zombie) within ``within_s``."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() and "zombie" not in
                   Path(f"/proc/{pid}/status").read_text(errors="replace") for pid in pids):
            return True
        time.sleep(0.1)
    return False
