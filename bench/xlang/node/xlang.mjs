// The cross-language JWT scenario with npm jose (panva); the contract is
// bench/xlang/README.md.
//
//   node xlang.mjs jose bench --emails FILE --n N --threads T   (JWT_SECRET in the environment)
//   node xlang.mjs jose interop < request.json
//
// bench: T worker_threads, each doing its share of the N iterations (sign
// HS256, verify with HS256 as the only algorithm and exp required, compare
// sub). T = 1 also runs in one worker thread, not in the main thread, so that
// every thread count measures the same code path (message passing and all);
// the main thread only starts the workers, waits until all have read their
// data and warmed up (min(20,000, N) iterations each, not counted), then
// times from posting "go" to the last worker's "done".
//
// jose's sign and verify are async (they use WebCrypto); the loop awaits each
// call in turn, as ordinary application code does.

import { readFileSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { SignJWT, jwtVerify, importPKCS8, importSPKI } from "jose";

const LIB = "jose";
const WARMUP = 20_000;
const LIFETIME = 7200; // exp = iat + 2 h

function describe(err) {
  if (err && typeof err === "object") {
    const code = err.code ? `${err.code}: ` : "";
    return `${code}${err.message ?? String(err)}`;
  }
  return String(err);
}

function fail(message) {
  process.stderr.write(`xlang node: ${message}\n`);
  process.exit(1);
}

// One iteration of the scenario, written as an application would.
async function iteration(address, secretKey) {
  const iat = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ sub: address })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(iat)
    .setExpirationTime(iat + LIFETIME)
    .sign(secretKey);
  const { payload } = await jwtVerify(token, secretKey, {
    algorithms: ["HS256"],
    requiredClaims: ["exp"],
  });
  if (payload.sub !== address) {
    throw new Error(`decoded sub ${JSON.stringify(payload.sub)}, want ${JSON.stringify(address)}`);
  }
}

// Runs count iterations over emails from index start, walking forward and
// wrapping.
async function walk(emails, start, count, secretKey) {
  let i = start;
  for (let k = 0; k < count; k++) {
    await iteration(emails[i], secretKey);
    i++;
    if (i === emails.length) i = 0;
  }
}

// ---- worker thread ----

async function workerMain() {
  const { emails, secret, start, count, warmup } = workerData;
  // The key imported once into WebCrypto, as a service holds it (the lab's
  // rule: keys parsed once). Handing jose the raw Uint8Array, or a
  // KeyObject, makes it import the key again on every sign and verify, at
  // about half the speed.
  let secretKey;
  try {
    secretKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  } catch (err) {
    parentPort.postMessage({ type: "error", message: `key: ${describe(err)}` });
    return;
  }
  try {
    await walk(emails, start, warmup, secretKey);
  } catch (err) {
    parentPort.postMessage({ type: "error", message: `warm-up: ${describe(err)}` });
    return;
  }
  parentPort.once("message", async () => {
    try {
      await walk(emails, start, count, secretKey);
      parentPort.postMessage({ type: "done" });
    } catch (err) {
      parentPort.postMessage({ type: "error", message: describe(err) });
    }
    parentPort.close();
  });
  parentPort.postMessage({ type: "ready" });
}

// ---- main thread ----

function parseFlags(args) {
  const flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) fail(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf("=");
    if (eq >= 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else {
      if (i + 1 >= args.length) fail(`flag ${arg} needs a value`);
      flags[arg.slice(2)] = args[++i];
    }
  }
  return flags;
}

function positiveInt(flags, name, min) {
  const text = flags[name];
  if (text === undefined) fail(`missing --${name}`);
  if (!/^\d+$/.test(text)) fail(`--${name} ${JSON.stringify(text)} is not a whole number`);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) fail(`--${name} must be at least ${min}, got ${text}`);
  return value;
}

function libVersion() {
  const pkg = JSON.parse(readFileSync(new URL("./node_modules/jose/package.json", import.meta.url), "utf8"));
  return pkg.version;
}

// Starts a worker. ready settles when it has read its data and warmed up;
// done when it has finished the timed run. Either rejects when the worker
// reports an error or exits early.
function startWorker(data) {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  let markReady, markDone, markFailed;
  let finished = false;
  const failed = new Promise((_, reject) => { markFailed = reject; });
  const ready = Promise.race([new Promise((resolve) => { markReady = resolve; }), failed]);
  const done = Promise.race([new Promise((resolve) => { markDone = resolve; }), failed]);
  ready.catch(() => {});
  done.catch(() => {});
  worker.on("message", (m) => {
    if (m.type === "ready") markReady();
    else if (m.type === "done") { finished = true; markDone(); }
    else markFailed(new Error(`worker ${data.index}: ${m.message}`));
  });
  worker.once("error", (err) => markFailed(new Error(`worker ${data.index}: ${describe(err)}`)));
  worker.once("exit", (code) => {
    if (!finished) markFailed(new Error(`worker ${data.index} exited (code ${code}) before finishing`));
  });
  return { worker, ready, done };
}

async function bench(flags) {
  const file = flags.emails;
  if (!file) fail("missing --emails");
  const n = positiveInt(flags, "n", 1);
  const threads = positiveInt(flags, "threads", 1);
  const secret = process.env.JWT_SECRET;
  if (!secret) fail("JWT_SECRET is not set");

  let emails;
  try {
    emails = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    fail(`cannot read ${file}: ${describe(err)}`);
  }
  if (!Array.isArray(emails) || emails.length === 0 || !emails.every((e) => typeof e === "string")) {
    fail(`${file} is not a non-empty JSON array of strings`);
  }

  const warmup = Math.min(WARMUP, n);
  const workers = [];
  for (let w = 0; w < threads; w++) {
    const start = Math.floor((w * emails.length) / threads);
    const count = Math.floor(((w + 1) * n) / threads) - Math.floor((w * n) / threads);
    workers.push(startWorker({ index: w, emails, secret, start, count, warmup }));
  }
  try {
    await Promise.all(workers.map((w) => w.ready));
  } catch (err) {
    fail(describe(err));
  }

  const t0 = process.hrtime.bigint();
  for (const w of workers) w.worker.postMessage("go");
  try {
    await Promise.all(workers.map((w) => w.done));
  } catch (err) {
    fail(describe(err));
  }
  const elapsed = process.hrtime.bigint() - t0;

  process.stdout.write(
    JSON.stringify({
      lang: "node",
      lib: LIB,
      lib_version: libVersion(),
      runtime: `node ${process.version}`,
      threads,
      n,
      elapsed_ns: Number(elapsed),
      peak_rss_kib: peakRSSKiB(),
    }) + "\n",
  );
}

// peakRSSKiB is the process's peak resident set (VmHWM of
// /proc/self/status; the worker threads share the process), 0 where there
// is none.
function peakRSSKiB() {
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync("/proc/self/status", "ascii"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

// ---- interop ----

const ASYMMETRIC = new Set(["RS256", "ES256", "EdDSA"]);

function unsupported(alg) {
  return `unsupported: alg ${JSON.stringify(alg)} (this program handles HS256, RS256, ES256, EdDSA)`;
}

function secretFrom(key) {
  if (!key || typeof key.secret_b64url !== "string") throw new Error("key has no secret_b64url");
  return new Uint8Array(Buffer.from(key.secret_b64url, "base64url"));
}

async function signingKey(alg, key) {
  if (alg === "HS256") return secretFrom(key);
  if (!key || typeof key.private_pkcs8_pem !== "string") throw new Error("key has no private_pkcs8_pem");
  return importPKCS8(key.private_pkcs8_pem, alg);
}

async function verificationKey(alg, key) {
  if (alg === "HS256") return secretFrom(key);
  if (!key || typeof key.public_spki_pem !== "string") throw new Error("key has no public_spki_pem");
  return importSPKI(key.public_spki_pem, alg);
}

async function interopCase(c) {
  if (c === null || typeof c !== "object" || Array.isArray(c)) {
    return { id: null, ok: false, error: "case is not an object" };
  }
  const { id = null, op, alg } = c;
  if (alg !== "HS256" && !ASYMMETRIC.has(alg)) return { id, ok: false, error: unsupported(alg) };
  try {
    if (op === "sign") {
      const token = await new SignJWT(c.claims)
        .setProtectedHeader({ alg, typ: "JWT" })
        .sign(await signingKey(alg, c.key));
      return { id, token };
    }
    if (op === "verify") {
      const { payload } = await jwtVerify(c.token, await verificationKey(alg, c.key), {
        algorithms: [alg],
        requiredClaims: ["exp"],
      });
      return { id, ok: true, claims: payload };
    }
    return { id, ok: false, error: `unknown op ${JSON.stringify(op)}` };
  } catch (err) {
    const prefix = err?.code === "ERR_JOSE_NOT_SUPPORTED" ? "unsupported: " : "";
    return { id, ok: false, error: prefix + describe(err) };
  }
}

async function interop() {
  let request;
  try {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (!request || !Array.isArray(request.cases)) throw new Error('no "cases" array');
  } catch (err) {
    fail(`cannot read the interop request: ${describe(err)}`);
  }
  const results = [];
  for (const c of request.cases) results.push(await interopCase(c));
  process.stdout.write(JSON.stringify({ results }) + "\n");
}

async function main() {
  const [lib, mode, ...rest] = process.argv.slice(2);
  if (lib !== LIB) fail(`unknown lib ${JSON.stringify(lib)} (this program offers: ${LIB})`);
  if (mode === "bench") await bench(parseFlags(rest));
  else if (mode === "interop") await interop();
  else fail(`unknown mode ${JSON.stringify(mode)} (want bench or interop)`);
}

if (isMainThread) await main();
else await workerMain();
