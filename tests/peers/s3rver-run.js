#!/usr/bin/env node
// s3rver-run.js ARGS... - start @20minutes/s3rver 4.0.4 (which ships no bin
// script) with s3rver's own command line, e.g.
//   node s3rver-run.js -d DATA -a 127.0.0.1 -p 0 --no-vhost-buckets \
//       --configure-bucket ebsbench-results
// It prints "S3rver listening on ADDR:PORT" once up (s3.sh reads the port).
//
// Two changes make it behave more like a real, private S3 bucket:
// - credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY from the
//   environment are the only key pair accepted (default S3RVER / S3RVER);
// - a request that carries no signature at all (no Authorization header, no
//   X-Amz-Algorithm / Signature query) gets 403 AccessDenied; s3rver itself
//   lets anonymous requests through.  S3RVER_ALLOW_ANONYMOUS=1 turns this off.
//   Browser-style POST uploads (multipart/form-data to the bucket) are let
//   through, since s3rver checks no POST-policy signature anyway.
'use strict';

const S3rver = require('@20minutes/s3rver/lib/s3rver');
const S3Error = require('@20minutes/s3rver/lib/models/error');
const AWSAccount = require('@20minutes/s3rver/lib/models/account');
const cli = require('@20minutes/s3rver/lib/cli.js');

const keyId = process.env.AWS_ACCESS_KEY_ID || 'S3RVER';
const secret = process.env.AWS_SECRET_ACCESS_KEY || 'S3RVER';
AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
AWSAccount.DUMMY_ACCOUNT.createKeyPair(keyId, secret);

function signed(ctx) {
  const q = ctx.query;
  return (
    'authorization' in ctx.headers ||
    'X-Amz-Algorithm' in q ||
    'Signature' in q ||
    ctx.method === 'OPTIONS' ||
    (ctx.method === 'POST' && ctx.is('multipart/form-data'))
  );
}

async function requireSignature(ctx, next) {
  if (!signed(ctx)) throw new S3Error('AccessDenied', 'Access Denied');
  return next();
}

// One line per request on stdout: "METHOD URL STATUS [S3 error code]"
// (s3rver's own request log, silenced by s3.sh with -s, cuts lines short).
async function accessLog(ctx, next) {
  try {
    await next();
    console.log('%s %s %d', ctx.method, ctx.url, ctx.status);
    if (ctx.status >= 400) await drainBody(ctx.req);
  } catch (err) {
    const code = err instanceof S3Error ? err.code : `InternalError ${err}`;
    console.log('%s %s %d %s', ctx.method, ctx.url, err.status || 500, code);
    await drainBody(ctx.req);
    throw err;
  }
}

// A refusal sent before the request body was read makes Node close the
// socket while nginx is still sending it, and nginx answers 502 instead of
// our 403 (seen in about 1 of 10 runs).  Real S3 reads the body first too.
function drainBody(req) {
  if (req.complete || req.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    req.on('end', resolve);
    req.on('error', resolve);
    req.on('close', resolve);
    req.resume();
  });
}

// Koa composes this.middleware when callback() runs: put ours first.
const callback = S3rver.prototype.callback;
S3rver.prototype.callback = function () {
  const ours = [accessLog];
  if (process.env.S3RVER_ALLOW_ANONYMOUS !== '1') ours.push(requireSignature);
  this.middleware.unshift(...ours);
  return callback.call(this);
};

cli.parseAsync(process.argv).catch((err) => {
  console.error(err);
  process.exit(1);
});
