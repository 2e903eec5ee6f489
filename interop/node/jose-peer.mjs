// jose-peer: the npm jose side of signet's interop test (interop/jose_test.go).
//
// It reads one JSON request on stdin and writes one JSON response on stdout:
//
//   request  {"verify":   [{"alg", "jwk" (public JWK, or the secret for HS*), "token", "expect_claims"}...],
//                          (or "jwks", a public JWK Set, in place of "jwk")
//             "sign":     [{"alg", "jwk" (private JWK), "claims"}...],
//             "generate": [{"alg", "kid", "claims"}...]}
//   response {"verified":  [{"ok", "error", "payload"}...],
//             "signed":    [{"token", "error"}...],
//             "generated": [{"private_jwk", "public_jwk", "token", "error"}...]}
//
// Each response array matches its request array index for index. A failing
// case is reported in its entry ("ok": false / "error"), never by exiting:
// the process exits non-zero only when the request itself cannot be read.
//
// verify: jose.jwtVerify with the key from importJWK(jwk, alg), or
//   createLocalJWKSet(jwks), and {algorithms: [alg]}; iss, aud and sub of expect_claims, when present,
//   are also required through jwtVerify's issuer/audience/subject options.
// sign: new SignJWT(claims).setProtectedHeader({alg, typ: "JWT", kid}).sign(key).
// generate: jose makes a fresh key for alg (generateKeyPair/generateSecret),
//   exports it with exportJWK (which writes no "alg"; kid is added), and signs
//   claims with it, so that the Go side can read keys jose wrote.

import * as jose from "jose";
import { claimOptions, describe, exportPair, jwsHeader, runPeer } from "./peer-common.mjs";

async function verifyOne({ alg, jwk, jwks, token, expect_claims: expect }) {
  try {
    // A JWK Set selects the key by the token's kid and alg, as a relying
    // party reading signet's /.well-known/jwks.json would.
    const key = jwks ? jose.createLocalJWKSet(jwks) : await jose.importJWK(jwk, alg);
    const options = { algorithms: [alg], ...claimOptions(expect) };
    const { payload, protectedHeader } = await jose.jwtVerify(token, key, options);
    if (protectedHeader.alg !== alg) {
      return { ok: false, error: `header alg ${protectedHeader.alg}, want ${alg}` };
    }
    return { ok: true, payload };
  } catch (err) {
    return { ok: false, error: describe(err) };
  }
}

async function signOne({ alg, jwk, claims }) {
  try {
    const key = await jose.importJWK(jwk, alg);
    const token = await new jose.SignJWT(claims).setProtectedHeader(jwsHeader(alg, jwk.kid)).sign(key);
    return { token };
  } catch (err) {
    return { token: "", error: describe(err) };
  }
}

async function generateOne({ alg, kid, claims }) {
  try {
    let privateKey, publicKey;
    if (alg.startsWith("HS")) {
      privateKey = await jose.generateSecret(alg, { extractable: true });
    } else {
      ({ privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true }));
    }
    const token = await new jose.SignJWT(claims).setProtectedHeader(jwsHeader(alg, kid)).sign(privateKey);
    return { ...(await exportPair(jose, privateKey, publicKey, kid)), token };
  } catch (err) {
    return { token: "", error: describe(err) };
  }
}

// All cases at once: the crypto runs on libuv's thread pool (RSA key
// generation dominates).
await runPeer("jose-peer", {
  verify: ["verified", verifyOne],
  sign: ["signed", signOne],
  generate: ["generated", generateOne],
});
