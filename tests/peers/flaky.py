#!/usr/bin/python3
"""flaky.py UPSTREAM_PORT PORTFILE LOG [STATUS [FAILS]] - fail-once proxy.

An HTTP proxy on 127.0.0.1 (port picked by the kernel, written to PORTFILE)
in front of the S3 server at 127.0.0.1:UPSTREAM_PORT.  The first FAILS
(default 1) PUTs of each path (the query string is ignored, so a retry of the
same presigned URL counts) get STATUS (default 500) with an S3-style XML
error body, after the request body has been read in full; every other
request is passed on unchanged, Host header included, so SigV4 signatures
still match.  Each request is logged to LOG as "METHOD PATH STATUS".
tls.sh puts nginx (TLS) in front of it; it exits on SIGTERM.
"""
import http.client
import http.server
import os
import sys
import threading
from collections import Counter
from urllib.parse import urlsplit

HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "expect",
}
CODES = {500: "InternalError", 503: "SlowDown"}
CHUNK = 65536


class Proxy(http.server.BaseHTTPRequestHandler):
    upstream = 0
    status = 500
    fails = 1
    seen = Counter()
    lock = threading.Lock()
    log = None

    def note(self, status):
        with self.lock:
            self.log.write(f"{self.command} {self.path} {status}\n")
            self.log.flush()

    def body_chunks(self):
        left = int(self.headers.get("Content-Length") or 0)
        while left > 0:
            data = self.rfile.read(min(CHUNK, left))
            if not data:
                raise ConnectionError("client closed mid-body")
            left -= len(data)
            yield data

    def fail(self):
        for _ in self.body_chunks():
            pass
        code = CODES.get(self.status, "InternalError")
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Error><Code>{code}</Code><Message>flaky.py: injected failure"
            "</Message></Error>"
        ).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.note(self.status)

    def forward(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=60)
        conn.putrequest(
            self.command, self.path, skip_host=True, skip_accept_encoding=True
        )
        for k, v in self.headers.items():
            if k.lower() not in HOP:
                conn.putheader(k, v)
        conn.endheaders()
        for data in self.body_chunks():
            conn.send(data)
        resp = conn.getresponse()
        self.send_response_only(resp.status, resp.reason)
        for k, v in resp.getheaders():
            if k.lower() not in HOP:
                self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            while data := resp.read(CHUNK):
                self.wfile.write(data)
        conn.close()
        self.note(resp.status)

    def handle_one(self):
        if self.command == "PUT":
            path = urlsplit(self.path).path
            with self.lock:
                n = self.seen[path]
                self.seen[path] += 1
            if n < self.fails:
                return self.fail()
        return self.forward()

    do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = handle_one

    def log_message(self, *args):
        pass  # LOG has the requests; errors still reach stderr


def main():
    Proxy.upstream = int(sys.argv[1])
    portfile, logfile = sys.argv[2], sys.argv[3]
    Proxy.status = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    Proxy.fails = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    Proxy.log = open(logfile, "a")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    with open(portfile + ".tmp", "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.replace(portfile + ".tmp", portfile)
    server.serve_forever()


if __name__ == "__main__":
    main()
