// jwe-peer: the npm jose side of signet's JWE interop test (interop/jwe_test.go).
//
// It reads one JSON request on stdin and writes one JSON response on stdout:
//
//   request  {"decrypt": [{"alg", "enc", "jwk" (private JWK, or the shared secret / password),
//                          "token", "expect_claims", "max_p2c" (optional),
//                          "verify_alg", "verify_jwk" (optional: a nested JWT)}...],
//             "encrypt": [{"alg", "enc", "jwk" (public JWK, or the shared secret / password),
//                          "claims", "p2c" (optional),
//                          "sign_alg", "sign_jwk" (optional: a nested JWT)}...],
//             "generate": [{"alg", "enc", "crv" (ECDH-ES), "kid", "claims"}...]}
//   response {"decrypted": [{"ok", "error", "payload", "header"}...],
//             "encrypted": [{"token", "error"}...],
//             "generated": [{"private_jwk", "public_jwk", "token", "error"}...]}
//
// Each response array matches its request array index for index. A failing
// case is reported in its entry ("ok": false / "error"), never by exiting:
// the process exits non-zero only when the request itself cannot be read.
//
// decrypt: jose.jwtDecrypt with the key from importJWK(jwk, alg) and
//   {keyManagementAlgorithms: [alg], contentEncryptionAlgorithms: [enc]},
//   maxPBES2Count when max_p2c is given (jose's default is 10000), and iss,
//   aud and sub of expect_claims required through its issuer, audience and
//   subject options. With verify_jwk the token is a nested JWT:
//   compactDecrypt, then jwtVerify of the plaintext with
//   importJWK(verify_jwk, verify_alg), the same claim options, and the
//   JWE's cty must be "JWT".
// encrypt: new EncryptJWT(claims).setProtectedHeader({alg, enc, kid}),
//   with setKeyManagementParameters({p2c}) when p2c is given; with sign_jwk,
//   new SignJWT(claims) signed with importJWK(sign_jwk, sign_alg), then
//   CompactEncrypt of that JWT with {alg, enc, kid, cty: "JWT"}.
// generate: jose makes a fresh key (generateKeyPair(alg, {crv}), or
//   generateSecret(enc) for dir and generateSecret(alg) for the AES key
//   wraps), exports it with exportJWK (no "alg"; kid added), and encrypts
//   claims to it, so that the Go side can read keys jose wrote.

import * as jose from "jose";
import { claimOptions, describe, exportPair, jwsHeader, runPeer } from "./peer-common.mjs";

async function decryptOne({ alg, enc, jwk, token, expect_claims: expect, max_p2c, verify_alg, verify_jwk }) {
  try {
    const key = await jose.importJWK(jwk, alg);
    const options = {
      keyManagementAlgorithms: [alg],
      contentEncryptionAlgorithms: [enc],
    };
    if (typeof max_p2c === "number") options.maxPBES2Count = max_p2c;
    if (verify_jwk) {
      const { plaintext, protectedHeader } = await jose.compactDecrypt(token, key, options);
      if (protectedHeader.cty !== "JWT") {
        return { ok: false, error: `nested JWT with cty ${protectedHeader.cty}, want JWT` };
      }
      const verifyKey = await jose.importJWK(verify_jwk, verify_alg);
      const { payload } = await jose.jwtVerify(new TextDecoder().decode(plaintext), verifyKey, {
        algorithms: [verify_alg],
        ...claimOptions(expect),
      });
      return { ok: true, payload, header: protectedHeader };
    }
    const { payload, protectedHeader } = await jose.jwtDecrypt(token, key, { ...options, ...claimOptions(expect) });
    if (protectedHeader.alg !== alg || protectedHeader.enc !== enc) {
      return { ok: false, error: `header alg ${protectedHeader.alg} enc ${protectedHeader.enc}, want ${alg} ${enc}` };
    }
    return { ok: true, payload, header: protectedHeader };
  } catch (err) {
    return { ok: false, error: describe(err) };
  }
}

function header(alg, enc, kid) {
  const h = { alg, enc };
  if (typeof kid === "string" && kid !== "") h.kid = kid;
  return h;
}

async function encryptOne({ alg, enc, jwk, claims, p2c, sign_alg, sign_jwk }) {
  try {
    const key = await jose.importJWK(jwk, alg);
    if (sign_jwk) {
      const signKey = await jose.importJWK(sign_jwk, sign_alg);
      const inner = await new jose.SignJWT(claims).setProtectedHeader(jwsHeader(sign_alg, sign_jwk.kid)).sign(signKey);
      const e = new jose.CompactEncrypt(new TextEncoder().encode(inner)).setProtectedHeader({
        ...header(alg, enc, jwk.kid),
        cty: "JWT",
      });
      if (typeof p2c === "number") e.setKeyManagementParameters({ p2c });
      return { token: await e.encrypt(key) };
    }
    const e = new jose.EncryptJWT(claims).setProtectedHeader(header(alg, enc, jwk.kid));
    if (typeof p2c === "number") e.setKeyManagementParameters({ p2c });
    return { token: await e.encrypt(key) };
  } catch (err) {
    return { token: "", error: describe(err) };
  }
}

async function generateOne({ alg, enc, crv, kid, claims }) {
  try {
    let privateKey, publicKey;
    if (alg === "dir") {
      privateKey = await jose.generateSecret(enc, { extractable: true });
    } else if (/^A\d+(GCM)?KW$/.test(alg)) {
      privateKey = await jose.generateSecret(alg, { extractable: true });
    } else {
      const options = { extractable: true };
      if (crv) options.crv = crv;
      ({ privateKey, publicKey } = await jose.generateKeyPair(alg, options));
    }
    const token = await new jose.EncryptJWT(claims)
      .setProtectedHeader(header(alg, enc, kid))
      .encrypt(publicKey ?? privateKey);
    return { ...(await exportPair(jose, privateKey, publicKey, kid)), token };
  } catch (err) {
    return { token: "", error: describe(err) };
  }
}

// All cases at once: the crypto runs on libuv's thread pool (PBKDF2
// dominates).
await runPeer("jwe-peer", {
  decrypt: ["decrypted", decryptOne],
  encrypt: ["encrypted", encryptOne],
  generate: ["generated", generateOne],
});
