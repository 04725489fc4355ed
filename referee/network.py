"""This machine on the LAN: the addresses phones can reach it at (no packet is sent), and
the name a Host header gives."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})  # as ``host_name`` gives them
NAME = re.compile(r"[a-z0-9_.-]+")
PORT = re.compile(r"[0-9]{0,5}")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that phones on the LAN can reach (no packet is sent)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        found.update(str(info[4][0]) for info in
                     socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    try:
        import fcntl
        import struct

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                try:
                    packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR,
                                         struct.pack("256s", name[:15].encode()))
                except OSError:
                    continue
                found.add(socket.inet_ntoa(packed[20:24]))
    except (ImportError, AttributeError, OSError):
        pass
    return sorted(a for a in found if not a.startswith("127.")) or ["127.0.0.1"]


def host_name(header: str) -> str | None:
    """The name a Host header (or a name in the settings) gives: lower-case, without its port
    or a final dot, an IPv6 address without brackets in its short form; None when it is not
    a name with an optional port.

    >>> host_name("LocalHost:5000"), host_name("[0:0::1]:80"), host_name("club.lan.")
    ('localhost', '::1', 'club.lan')
    >>> host_name("127.0.0.1@evil.example"), host_name("a:b:c"), host_name("")
    (None, None, None)
    """
    value = header.strip().lower()
    if value.startswith("["):
        inside, bracket, port = value[1:].partition("]")
        if not bracket or not (port == "" or port.startswith(":")) \
                or not PORT.fullmatch(port[1:]):
            return None
        try:
            return ipaddress.IPv6Address(inside).compressed
        except ValueError:
            return None
    name, _, port = value.partition(":")
    name = name.removesuffix(".")
    if not NAME.fullmatch(name) or not PORT.fullmatch(port):
        return None
    return name
