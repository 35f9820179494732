#!/usr/bin/python3
"""presign.py put|get|post BUCKET KEY EXPIRES ENDPOINT - presign with boto3.
presign.py --many BUCKET ENDPOINT < lines of "OP KEY EXPIRES [ENDPOINT]"

Prints a SigV4 presigned URL for PUT or GET of BUCKET/KEY valid EXPIRES
seconds, path-style (ENDPOINT/BUCKET/KEY?X-Amz-...), or for post the JSON
{"url": ..., "fields": {...}} of a presigned POST policy, on one line.
ENDPOINT is the URL the client will use (e.g. https://localhost:PORT): its
host and port are signed.  --many prints one line per input line (importing
boto3 takes most of a second: one process for many URLs saves that).
Credentials and region come from the environment, as for any AWS SDK:
AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_DEFAULT_REGION (default
us-east-1).  Runs under Debian's /usr/bin/python3 with python3-boto3; it
makes no network request.
"""
import json
import os
import sys

import boto3
from botocore.config import Config

OPS = ("put", "get", "post")


class Presigner:
    def __init__(self, bucket):
        self.bucket = bucket
        self.session = boto3.Session()
        if self.session.get_credentials() is None:
            sys.exit("presign.py: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        self.region = (
            os.environ.get("AWS_DEFAULT_REGION")
            or os.environ.get("AWS_REGION")
            or "us-east-1"
        )
        self.clients = {}

    def client(self, endpoint):
        if endpoint not in self.clients:
            self.clients[endpoint] = self.session.client(
                "s3",
                endpoint_url=endpoint,
                region_name=self.region,
                config=Config(
                    signature_version="s3v4", s3={"addressing_style": "path"}
                ),
            )
        return self.clients[endpoint]

    def sign(self, op, key, expires, endpoint):
        s3 = self.client(endpoint)
        if op == "post":
            post = s3.generate_presigned_post(self.bucket, key, ExpiresIn=int(expires))
            return json.dumps(post, sort_keys=True)
        return s3.generate_presigned_url(
            "put_object" if op == "put" else "get_object",
            Params={"Bucket": self.bucket, "Key": key},
            ExpiresIn=int(expires),
        )


def usage():
    sys.exit("\n".join(__doc__.split("\n")[:2]))


def main(argv):
    if len(argv) == 4 and argv[1] == "--many":
        p = Presigner(argv[2])
        for line in sys.stdin:
            fields = line.split()
            if not fields:
                continue
            if len(fields) not in (3, 4) or fields[0] not in OPS:
                sys.exit(f"presign.py: bad line: {line.rstrip()}")
            op, key, expires, *endpoint = fields
            print(p.sign(op, key, expires, endpoint[0] if endpoint else argv[3]))
    elif len(argv) == 6 and argv[1] in OPS:
        op, bucket, key, expires, endpoint = argv[1:]
        print(Presigner(bucket).sign(op, key, expires, endpoint))
    else:
        usage()


if __name__ == "__main__":
    main(sys.argv)
