#!/usr/bin/python3
"""stall.py PORTFILE - a TCP server that accepts and never answers.

Listens on 127.0.0.1 (and [::1] on the same port when it can) at a port the
kernel picks, writes that port to PORTFILE, then accepts connections and
holds them open without reading or writing a byte: a client's TLS handshake
(or, behind nginx, its HTTP request) waits forever, so only the client's own
timeout ends it.  tls.sh runs it; it exits on SIGTERM.
"""
import os
import selectors
import socket
import sys

MAX_HELD = 1000  # connections held open at most; older ones are dropped


def main():
    portfile = sys.argv[1]
    listeners = [socket.create_server(("127.0.0.1", 0), backlog=64)]
    port = listeners[0].getsockname()[1]
    try:
        listeners.append(
            socket.create_server(("::1", port), family=socket.AF_INET6, backlog=64)
        )
    except OSError:
        pass  # no IPv6 loopback here: 127.0.0.1 alone
    with open(portfile + ".tmp", "w") as f:
        f.write(f"{port}\n")
    os.replace(portfile + ".tmp", portfile)

    sel = selectors.DefaultSelector()
    for s in listeners:
        sel.register(s, selectors.EVENT_READ)
    held = []
    while True:
        for key, _ in sel.select():
            conn, _ = key.fileobj.accept()
            held.append(conn)
            if len(held) > MAX_HELD:
                held.pop(0).close()


if __name__ == "__main__":
    main()
