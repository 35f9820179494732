#!/usr/bin/env node
// validate.js [FILE|DIR...] - offline schema validation of Kubernetes
// manifests: every YAML document of every file (default: image/k8s/*.yaml)
// is mapped from its apiVersion and kind to the kubernetes-models class and
// checked with .validate() against the API's OpenAPI schema (types, enums,
// required fields).  One line per document (per item of a v1 List):
//   ok   image/k8s/job.yaml [1] batch/v1 Job ebsbench/ebsbench
//   FAIL image/k8s/job.yaml [1] batch/v1 Job ebsbench/ebsbench: data/spec/backoffLimit must be integer
// An apiVersion/kind the models do not know (a typo, a CRD) is a FAIL, as
// is a YAML error or a document that is not an object.  Empty documents
// are skipped, as kubectl skips them (a line says so).  Exit 0 when every
// document is valid, 1 otherwise, 2 on usage errors.
//
// YAML is read as Kubernetes reads it (sigs.k8s.io/yaml: YAML 1.1, so
// `0400` is octal and an unquoted `true` or `yes` is a boolean), with
// duplicate keys an error.  Not checked here: fields the schema does not
// know (the models allow them; `kubectl apply --dry-run=server` with
// field validation Strict does), and anything only the API server knows
// (admission, quotas, names already taken).
//
// kubernetes-models 5 is ES modules only: each API's module is loaded with
// import(), so the checks are async.
"use strict";

const fs = require("fs");
const path = require("path");
const YAML = require("yaml");

const ROOT = path.resolve(__dirname, "..", "..");
const DEFAULT_DIR = path.join(ROOT, "image", "k8s");
// "v1", "batch/v1", "storage.k8s.io/v1", "autoscaling/v2beta2": a module
// path of kubernetes-models and nothing else (no "..", no absolute path).
const API_VERSION = /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

function usage(msg) {
  process.stderr.write(`validate.js: ${msg}\nusage: node validate.js [FILE.yaml|DIR...]\n`);
  process.exit(2);
}

function yamlFiles(args) {
  const targets = args.length ? args : [DEFAULT_DIR];
  const files = [];
  for (const t of targets) {
    let st;
    try {
      st = fs.statSync(t);
    } catch (e) {
      usage(`${t}: ${e.code || e.message}`);
    }
    if (st.isDirectory()) {
      const found = fs
        .readdirSync(t)
        .filter((n) => /\.ya?ml$/.test(n))
        .sort()
        .map((n) => path.join(t, n));
      if (!found.length) usage(`${t}: no .yaml files`);
      files.push(...found);
    } else {
      files.push(t);
    }
  }
  return files;
}

// The kubernetes-models class for apiVersion/kind, or a reason why none.
async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || !API_VERSION.test(apiVersion))
    return { why: `apiVersion ${JSON.stringify(apiVersion)} is not a Kubernetes API version` };
  if (typeof kind !== "string" || !KIND.test(kind))
    return { why: `kind ${JSON.stringify(kind)} is not a Kubernetes kind` };
  let mod;
  try {
    mod = await import(`kubernetes-models/${apiVersion}`);
  } catch (e) {
    if (e.code !== "ERR_MODULE_NOT_FOUND" && e.code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") throw e;
    return { why: `unknown apiVersion ${apiVersion} (not a built-in API of kubernetes-models)` };
  }
  const cls = Object.prototype.hasOwnProperty.call(mod, kind) ? mod[kind] : undefined;
  // Only top-level kinds carry their own apiVersion and kind: JobSpec or
  // PodSpec are types inside objects, not objects one can apply.
  if (typeof cls !== "function" || cls.kind !== kind || cls.apiVersion !== apiVersion)
    return { why: `unknown kind ${kind} in ${apiVersion}` };
  return { cls };
}

function describe(doc) {
  const m = (doc && doc.metadata) || {};
  const name = typeof m.name === "string" ? m.name : "(no name)";
  return typeof m.namespace === "string" ? `${m.namespace}/${name}` : name;
}

function errorText(e) {
  // kubernetes-models throws a ValidationError whose message lists the
  // ajv errors ("data/spec/x must be integer"), one per line.
  return String(e && e.message ? e.message : e)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("; ");
}

// kubectl's List: apiVersion v1, kind List, the objects in items.
function isListOf(doc) {
  return (
    doc !== null &&
    typeof doc === "object" &&
    doc.apiVersion === "v1" &&
    doc.kind === "List" &&
    Array.isArray(doc.items)
  );
}

async function checkDocument(doc) {
  if (doc === null || doc === undefined) return { skip: true };
  if (typeof doc !== "object" || Array.isArray(doc))
    return { error: "the document is not a mapping (an object with apiVersion and kind)" };
  const { cls, why } = await modelFor(doc.apiVersion, doc.kind);
  if (!cls) return { error: why };
  try {
    new cls(doc).validate();
  } catch (e) {
    return { error: errorText(e) };
  }
  return {};
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("-h") || args.includes("--help")) usage("help");
  let failed = 0;
  let checked = 0;
  for (const file of yamlFiles(args)) {
    const shown = path.relative(process.cwd(), file) || file;
    let docs;
    try {
      docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), {
        version: "1.1",
        uniqueKeys: true,
        prettyErrors: true,
      });
    } catch (e) {
      console.log(`FAIL ${shown}: ${errorText(e)}`);
      failed++;
      continue;
    }
    if (!Array.isArray(docs)) docs = [docs]; // an empty stream
    for (const [i, d] of docs.entries()) {
      const n = i + 1;
      const problems = [...d.errors, ...d.warnings.filter((w) => w.code === "DUPLICATE_KEY")];
      if (problems.length) {
        // The first line: "Map keys must be unique at line 3, column 21:".
        const first = String(problems[0].message).split("\n")[0].replace(/:$/, "");
        console.log(`FAIL ${shown} [${n}] YAML: ${first}`);
        failed++;
        continue;
      }
      const doc = d.toJS({ maxAliasCount: 100 });
      // A v1 List (what `ebsbench k8s` writes, and kubectl reads as its
      // items) is checked item by item: [2.1], [2.2], ...
      const isList = isListOf(doc);
      const objects = isList ? doc.items.map((o, k) => [`${n}.${k + 1}`, o]) : [[`${n}`, doc]];
      if (isList && !objects.length) {
        console.log(`FAIL ${shown} [${n}] v1 List: no items`);
        failed++;
      }
      for (const [at, o] of objects) {
        const isMap = o !== null && typeof o === "object" && !Array.isArray(o);
        const what = isMap ? `${o.apiVersion} ${o.kind} ${describe(o)}` : "(not a mapping)";
        const r = await checkDocument(o);
        if (r.skip) {
          console.log(`skip ${shown} [${at}] empty document`);
          continue;
        }
        checked++;
        if (r.error) {
          console.log(`FAIL ${shown} [${at}] ${what}: ${r.error}`);
          failed++;
        } else {
          console.log(`ok   ${shown} [${at}] ${what}`);
        }
      }
    }
  }
  console.log(`${checked} document${checked === 1 ? "" : "s"} checked, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`validate.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(2);
});
