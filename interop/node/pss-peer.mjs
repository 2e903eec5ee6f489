// pss-peer: OpenSSL's side of signet's RSASSA-PSS key interop test
// (interop/pss_test.go), through Node's built-in crypto module, which reads
// id-RSASSA-PSS keys and holds them to their RFC 4055 parameters.
//
// It reads one JSON request on stdin and writes one JSON response on stdout:
//
//   request  {"details": [{"pem"}...],
//             "sign":    [{"pem" (PKCS #8), "alg", "input" (base64url)}...],
//             "verify":  [{"pem" (SPKI), "alg", "input", "signature" (base64url)}...]}
//   response {"details":  [{"type", "hash", "mgf1", "salt", "error"}...],
//             "signed":   [{"signature", "error"}...],
//             "verified": [{"ok", "error"}...]}
//
// alg is PS256, PS384 or PS512: PSS with that SHA-2, MGF1 with the same
// hash, and a salt of the hash's size (RFC 7518 §3.5). "details" is what
// OpenSSL reads from a key (asymmetricKeyType and asymmetricKeyDetails).
// Each response array matches its request array index for index; a failing
// case is reported in its entry, never by exiting.

import crypto from "node:crypto";
import { describe, runPeer } from "./peer-common.mjs";

const hashes = { PS256: ["sha256", 32], PS384: ["sha384", 48], PS512: ["sha512", 64] };

function pssOptions(key, alg) {
  const h = hashes[alg];
  if (!h) throw new Error(`unknown alg ${alg}`);
  return [h[0], { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: h[1] }];
}

async function detailsOne({ pem }) {
  try {
    const key = crypto.createPublicKey(pem);
    const d = key.asymmetricKeyDetails ?? {};
    return { type: key.asymmetricKeyType, hash: d.hashAlgorithm ?? "", mgf1: d.mgf1HashAlgorithm ?? "", salt: d.saltLength ?? -1 };
  } catch (err) {
    return { type: "", hash: "", mgf1: "", salt: -1, error: describe(err, false) };
  }
}

async function signOne({ pem, alg, input }) {
  try {
    const [hash, options] = pssOptions(crypto.createPrivateKey(pem), alg);
    const sig = crypto.sign(hash, Buffer.from(input, "base64url"), options);
    return { signature: sig.toString("base64url") };
  } catch (err) {
    return { signature: "", error: describe(err, false) };
  }
}

async function verifyOne({ pem, alg, input, signature }) {
  try {
    const [hash, options] = pssOptions(crypto.createPublicKey(pem), alg);
    const ok = crypto.verify(hash, Buffer.from(input, "base64url"), options, Buffer.from(signature, "base64url"));
    return { ok };
  } catch (err) {
    return { ok: false, error: describe(err, false) };
  }
}

await runPeer("pss-peer", {
  details: ["details", detailsOne],
  sign: ["signed", signOne],
  verify: ["verified", verifyOne],
});
