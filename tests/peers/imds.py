#!/usr/bin/python3
"""imds.py PORT_FILE LOG_FILE [--lifetime S] [--user-data FILE] [KEY=VALUE...] - IMDSv2.

Listens on 127.0.0.1, a port the kernel picks (written to PORT_FILE once it
listens), and answers as EC2's instance metadata service does with
HttpTokens=required:
  PUT /latest/api/token with X-aws-ec2-metadata-token-ttl-seconds (1-21600)
      -> a new token (400 without a valid TTL header; a GET here is 405);
  GET /latest/meta-data/PATH with X-aws-ec2-metadata-token: a live token
      -> the value, text/plain (401 without a token or with an unknown or
      expired one, 404 for a path it does not know).
Served paths (KEY=VALUE arguments add or replace them): instance-type,
instance-id, placement/availability-zone, placement/region, ami-id; and
GET /latest/user-data: FILE's bytes, or 404 without --user-data (as for an
instance launched with none).  Used by tests/bats/ec2_userdata.bats on
loopback and by tests/qemu/run-guest.sh, whose guests reach it as
169.254.169.254 through QEMU's guestfwd.
LOG_FILE gets a line per request: METHOD PATH STATUS [token: yes|no].
Exits by itself after --lifetime seconds (default 600), so a test that dies
leaves nothing running.  Standard library only.
"""
import http.server
import os
import secrets
import sys
import threading
import time

META = {
    "instance-type": "m5.xlarge",
    "instance-id": "i-0123456789abcdef0",
    "placement/availability-zone": "ap-northeast-2a",
    "placement/region": "ap-northeast-2",
    "ami-id": "ami-0abcdef1234567890",
}
USER_DATA = None  # bytes, or None: 404
TOKENS = {}  # token -> expiry (monotonic)
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "EC2ws"
    sys_version = ""
    log_file = None

    def reply(self, status, body=b"", token_seen=None):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        seen = "" if token_seen is None else f" token: {'yes' if token_seen else 'no'}"
        with LOCK, open(self.log_file, "a") as f:
            f.write(f"{self.command} {self.path} {status}{seen}\n")

    def do_PUT(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path != "/latest/api/token":
            return self.reply(404 if self.path.startswith("/latest/") else 400)
        ttl = self.headers.get("X-aws-ec2-metadata-token-ttl-seconds", "")
        if not ttl.isdigit() or not 1 <= int(ttl) <= 21600:
            return self.reply(400)
        token = secrets.token_urlsafe(32)
        with LOCK:
            TOKENS[token] = time.monotonic() + int(ttl)
        self.reply(200, token.encode())

    def do_GET(self):
        if self.path == "/latest/api/token":
            return self.reply(405)
        token = self.headers.get("X-aws-ec2-metadata-token")
        with LOCK:
            live = token is not None and TOKENS.get(token, 0) > time.monotonic()
        if not live:
            return self.reply(401, token_seen=token is not None)
        if self.path == "/latest/user-data":
            if USER_DATA is None:
                return self.reply(404, token_seen=True)
            return self.reply(200, USER_DATA, token_seen=True)
        prefix = "/latest/meta-data/"
        key = self.path[len(prefix):] if self.path.startswith(prefix) else None
        if key is None or key not in META:
            return self.reply(404, token_seen=True)
        self.reply(200, META[key].encode(), token_seen=True)

    def log_message(self, *args):
        pass  # the log file has one line per request instead


def main(argv):
    args = argv[1:]
    lifetime = 600.0
    if "--lifetime" in args:
        i = args.index("--lifetime")
        lifetime = float(args[i + 1])
        del args[i : i + 2]
    if "--user-data" in args:
        i = args.index("--user-data")
        global USER_DATA
        with open(args[i + 1], "rb") as f:
            USER_DATA = f.read()
        del args[i : i + 2]
    if len(args) < 2:
        sys.exit(__doc__.split("\n")[0])
    port_file, log_file, *pairs = args
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"imds.py: want KEY=VALUE, not {pair}")
        META[key] = value
    Handler.log_file = log_file
    open(log_file, "a").close()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    timer = threading.Timer(lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    with open(port_file + ".tmp", "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv)
