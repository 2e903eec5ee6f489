// httpsig-peer: the npm http-message-signatures side of signet's RFC 9421
// interop test (interop/httpsig_test.go).
//
// It reads one JSON request on stdin and writes one JSON response on stdout:
//
//   request  {"verify": [{"alg", "keyid", "key", "message", "request",
//                         "required_fields", "required_params", "check_digest"}...],
//             "sign":   [{"alg", "keyid", "key", "salt_length", "label", "fields",
//                         "params", "param_values", "message", "request"}...]}
//   response {"peer":     {"name", "version", "node"},
//             "verified": [{"ok", "signature_ok", "digest_ok", "base", "error"}...],
//             "signed":   [{"headers", "base", "public_key", "error"}...]}
//
// A message is a request {"method", "url", "headers", "body"} or a response
// {"status", "headers", "body"}; headers map a lowercase field name to its
// lines (an array of strings), body is base64 (absent: no body). "request"
// is the request a response answers, for components with the req
// parameter. A key is {"pem": "..."} (PKCS #8, SEC 1 or PKCS #1 private
// key to sign with; SPKI or PKCS #1 public key to verify with), {"secret":
// base64} (hmac-sha256), or, to sign, {"generate": true}: the peer makes a
// key of its own with node:crypto and returns its public half (SPKI PEM) or
// the secret as "public_key".
//
// Each response array matches its request array index for index. A failing
// case is reported in its entry ("ok": false / "error"), never by exiting:
// the process exits non-zero only when the request itself cannot be read.
//
// verify: httpbis.verifyMessage with a keyLookup that knows only "keyid"
//   (the verifier made by createVerifier(key, alg), declared for [alg]),
//   requiredFields and requiredParams as given, maxAge 300 s and a 5 s
//   tolerance. "signature_ok" is what verifyMessage answered (true, false,
//   or null when it selected no signature); "base" is the signature base it
//   handed to the verifier. The library signs and verifies signature bases
//   only: it does not compare Content-Digest with the body. With
//   "check_digest", the peer does that itself, as an application would
//   (RFC 9530: every sha-256 and sha-512 member must match, at least one
//   must be present, and the signature must cover content-digest);
//   "digest_ok" is the result. "ok" is signature_ok === true and, when
//   asked, digest_ok.
// sign: httpbis.signMessage with the key from createSigner(key, alg, keyid),
//   name (label), fields, params and paramValues as given (created is left
//   to the library: now). "salt_length" replaces the library's signer for
//   rsa-pss-sha512 by a node:crypto one with that salt length (see
//   interop/README.md: the library's own uses the largest salt the key
//   allows, RFC 9421 §3.3.1 says 64 bytes). "headers" are the message's
//   headers after signing (lowercase names, arrays of lines); "base" is the
//   signature base the library signed.

import { createRequire } from "node:module";
import * as crypto from "node:crypto";
import { parseDictionary } from "structured-headers";
import { describe as describeWithCode, runPeer } from "./peer-common.mjs";

const require = createRequire(import.meta.url);
const { httpbis, createSigner, createVerifier } = require("http-message-signatures");
const { version } = require("http-message-signatures/package.json");

// describe without an error code: this peer reports name and message only.
const describe = (err) => describeWithCode(err, false);

// toMessage turns a protocol message into the library's Request or
// Response; the body is returned beside it (the library does not read it).
function toMessage(m) {
  if (!m) return [undefined, undefined];
  const headers = {};
  for (const [name, lines] of Object.entries(m.headers ?? {})) headers[name] = lines;
  const body = typeof m.body === "string" ? Buffer.from(m.body, "base64") : undefined;
  if (typeof m.status === "number") return [{ status: m.status, headers }, body];
  return [{ method: m.method, url: m.url, headers }, body];
}

// fromHeaders turns the library's headers (strings or arrays, any case)
// into lowercase names and arrays of lines.
function fromHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    const lines = Array.isArray(value) ? value : [String(value)];
    const key = name.toLowerCase();
    out[key] = [...(out[key] ?? []), ...lines];
  }
  return out;
}

function publicKey(key) {
  if (typeof key.secret === "string") return crypto.createSecretKey(Buffer.from(key.secret, "base64"));
  return crypto.createPublicKey(key.pem);
}

function privateKey(key) {
  if (typeof key.secret === "string") return crypto.createSecretKey(Buffer.from(key.secret, "base64"));
  return crypto.createPrivateKey(key.pem);
}

// generate makes a key for alg with node:crypto: [private KeyObject, what
// to hand back to the Go side].
function generate(alg) {
  let pair;
  switch (alg) {
    case "hmac-sha256": {
      const secret = crypto.randomBytes(32);
      return [crypto.createSecretKey(secret), { secret: secret.toString("base64") }];
    }
    case "ed25519":
      pair = crypto.generateKeyPairSync("ed25519");
      break;
    case "ecdsa-p256-sha256":
      pair = crypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      break;
    case "ecdsa-p384-sha384":
      pair = crypto.generateKeyPairSync("ec", { namedCurve: "secp384r1" });
      break;
    case "rsa-pss-sha512":
    case "rsa-v1_5-sha256":
      pair = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
      break;
    default:
      throw new Error(`no key generation for ${alg}`);
  }
  return [pair.privateKey, { pem: pair.publicKey.export({ type: "spki", format: "pem" }) }];
}

// checkDigest compares Content-Digest with the body (RFC 9530).
function checkDigest(headers, body) {
  const lines = headers["content-digest"];
  if (!lines) return [false, "no Content-Digest"];
  const dict = parseDictionary(lines.join(", "));
  let checked = 0;
  for (const [alg, hash] of [["sha-256", "sha256"], ["sha-512", "sha512"]]) {
    if (!dict.has(alg)) continue;
    const [value] = dict.get(alg);
    if (!(value instanceof ArrayBuffer)) return [false, `Content-Digest ${alg} is not a byte sequence`];
    const want = Buffer.from(value);
    const got = crypto.createHash(hash).update(body ?? Buffer.alloc(0)).digest();
    if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) {
      return [false, `Content-Digest ${alg} does not match the body`];
    }
    checked++;
  }
  return checked > 0 ? [true, ""] : [false, "Content-Digest has neither sha-256 nor sha-512"];
}

async function verifyOne(c) {
  const out = { ok: false, signature_ok: null, digest_ok: null, base: "", error: "" };
  try {
    const [message, body] = toMessage(c.message);
    const [request] = toMessage(c.request);
    const verify = createVerifier(publicKey(c.key), c.alg);
    const key = {
      id: c.keyid,
      algs: [c.alg],
      verify: async (data, signature, params) => {
        out.base = data.toString("utf8");
        return verify(data, signature, params);
      },
    };
    const requiredFields = [...(c.required_fields ?? [])];
    if (c.check_digest && !requiredFields.includes("content-digest")) requiredFields.push("content-digest");
    const result = await httpbis.verifyMessage(
      {
        keyLookup: async (params) => (params.keyid === c.keyid ? key : null),
        requiredFields,
        requiredParams: c.required_params ?? [],
        maxAge: 300,
        tolerance: 5,
      },
      message,
      request,
    );
    out.signature_ok = result;
    let digestError = "";
    if (c.check_digest) [out.digest_ok, digestError] = checkDigest(message.headers, body);
    out.ok = result === true && (!c.check_digest || out.digest_ok === true);
    if (!out.ok) {
      out.error = result === true ? digestError : `verifyMessage answered ${result}`;
    }
  } catch (err) {
    out.error = describe(err);
  }
  return out;
}

// pssSigner is an RFC 9421 §3.3.1 rsa-pss-sha512 signer with the given
// salt length, plugged into the library as its README shows for custom
// signers.
function pssSigner(key, saltLength, id) {
  return {
    id,
    alg: "rsa-pss-sha512",
    sign: async (data) =>
      crypto.sign("sha512", data, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength }),
  };
}

async function signOne(c) {
  try {
    let key, publicHalf;
    if (c.key.generate) [key, publicHalf] = generate(c.alg);
    else key = privateKey(c.key);
    let signer = createSigner(key, c.alg, c.keyid);
    if (typeof c.salt_length === "number") {
      if (c.alg !== "rsa-pss-sha512") throw new Error(`salt_length for ${c.alg}`);
      signer = pssSigner(key, c.salt_length, c.keyid);
    }
    let base = "";
    const capture = { ...signer, sign: async (data) => ((base = data.toString("utf8")), signer.sign(data)) };
    const [message] = toMessage(c.message);
    const [request] = toMessage(c.request);
    const config = { key: capture, name: c.label, fields: c.fields ?? [] };
    if (c.params) config.params = c.params;
    if (c.param_values) config.paramValues = c.param_values;
    const signed = await httpbis.signMessage(config, message, request);
    const out = { headers: fromHeaders(signed.headers), base };
    if (publicHalf) out.public_key = publicHalf;
    return out;
  } catch (err) {
    return { headers: null, base: "", error: describe(err) };
  }
}

await runPeer(
  "httpsig-peer",
  { verify: ["verified", verifyOne], sign: ["signed", signOne] },
  { peer: { name: "http-message-signatures", version, node: process.version } },
);
