#!/usr/bin/python3
"""relay.py PORT TARGET_PORT - a TCP relay from 127.0.0.1:PORT to
127.0.0.1:TARGET_PORT, bytes passed through untouched (TLS included).

For an endpoint that is down for a while, then back: a URL presigned for
https://localhost:PORT finds nothing listening (connection refused) until
the test starts this relay in front of the TLS peer (tls.sh's TLS_PORT),
whose certificate and SigV4 check then answer as for any other port.
Prints "ready" on stdout once it listens; exits on SIGTERM.
"""
import signal
import socket
import sys
import threading


def pipe(src, dst):
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client, target):
    try:
        upstream = socket.create_connection(("127.0.0.1", target), timeout=10)
    except OSError:
        client.close()
        return
    upstream.settimeout(None)
    threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
    pipe(client, upstream)


def main():
    port, target = int(sys.argv[1]), int(sys.argv[2])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    print("ready", flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, target), daemon=True).start()


if __name__ == "__main__":
    main()
