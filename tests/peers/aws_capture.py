# aws_capture.py PORT_FILE LOG - an AWS API endpoint that records each
# request the real AWS CLI makes (method, path, form parameters, body hash)
# as one JSON line in LOG and refuses it (400 EbsbenchCapture, in EC2's
# form for Action= requests, else S3's): what AWS would have received,
# with nothing done.  Its port goes to PORT_FILE.
import hashlib, json, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer
log = open(sys.argv[2], "a", buffering=1)
class H(BaseHTTPRequestHandler):
    def handle_one(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        params = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode("latin-1")).items()}
        log.write(json.dumps({"method": self.command, "path": self.path, "params": params,
                              "sha256": hashlib.sha256(body).hexdigest()}) + "\n")
        if "Action" in params:
            out = b"<Response><Errors><Error><Code>EbsbenchCapture</Code><Message>recorded</Message></Error></Errors><RequestID>1</RequestID></Response>"
        else:
            out = b"<Error><Code>EbsbenchCapture</Code><Message>recorded</Message></Error>"
        self.send_response(400)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    do_GET = do_PUT = do_POST = do_HEAD = handle_one
    def log_message(self, *a): pass
s = HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()
