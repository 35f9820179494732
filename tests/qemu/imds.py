#!/usr/bin/env python3
"""imds.py - an IMDSv2 endpoint for QEMU guests, on 127.0.0.1.

  imds.py --port-file F [--user-data FILE] [--instance-type T]
          [--instance-id I] [--zone Z] [--log FILE]

As EC2's: PUT /latest/api/token (with X-aws-ec2-metadata-token-ttl-seconds)
returns a token; every GET must carry it in X-aws-ec2-metadata-token, else
401.  Serves /latest/user-data (404 when --user-data is not given, as for
an instance launched without it) and meta-data/instance-type, instance-id,
placement/availability-zone.  Writes its port to F once listening; logs
"METHOD PATH STATUS" lines.  The guest reaches it through QEMU's
guestfwd=tcp:169.254.169.254:80-cmd:busybox nc 127.0.0.1 PORT.
"""
import argparse
import http.server
import os
import secrets
import socketserver
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--user-data")
    ap.add_argument("--instance-type", default="m5.xlarge")
    ap.add_argument("--instance-id", default="i-0123456789abcdef0")
    ap.add_argument("--zone", default="ap-northeast-2a")
    ap.add_argument("--log")
    a = ap.parse_args()
    token = secrets.token_urlsafe(32)
    user_data = open(a.user_data, "rb").read() if a.user_data else None
    meta = {
        "/latest/meta-data/instance-type": a.instance_type.encode(),
        "/latest/meta-data/instance-id": a.instance_id.encode(),
        "/latest/meta-data/placement/availability-zone": a.zone.encode(),
    }
    log = open(a.log, "a", buffering=1) if a.log else sys.stderr

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def reply(self, status, body=b""):
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            log.write(f"{self.command} {self.path} {status}\n")

        def do_PUT(self):
            n = int(self.headers.get("Content-Length") or 0)
            if n:
                self.rfile.read(n)
            if self.path != "/latest/api/token":
                return self.reply(403)
            if not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                return self.reply(400)
            self.reply(200, token.encode())

        def do_GET(self):
            if self.headers.get("X-aws-ec2-metadata-token") != token:
                return self.reply(401)
            if self.path == "/latest/user-data":
                return self.reply(200, user_data) if user_data is not None else self.reply(404)
            body = meta.get(self.path)
            self.reply(200, body) if body is not None else self.reply(404)

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    srv = Server(("127.0.0.1", 0), Handler)
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
