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

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function describe(err) {
  if (err && typeof err === "object") {
    const code = err.code ? `${err.code}: ` : "";
    return `${code}${err.name ?? "Error"}: ${err.message ?? String(err)}`;
  }
  return String(err);
}

async function verifyOne({ alg, jwk, jwks, token, expect_claims: expect }) {
  try {
    // A JWK Set selects the key by the token's kid and alg, as a relying
    // party reading signet's /.well-known/jwks.json would.
    const key = jwks ? jose.createLocalJWKSet(jwks) : await jose.importJWK(jwk, alg);
    const options = { algorithms: [alg] };
    if (expect && typeof expect === "object") {
      if (typeof expect.iss === "string") options.issuer = expect.iss;
      if (typeof expect.sub === "string") options.subject = expect.sub;
      if (typeof expect.aud === "string") options.audience = expect.aud;
      else if (Array.isArray(expect.aud) && expect.aud.length > 0) options.audience = expect.aud[0];
    }
    const { payload, protectedHeader } = await jose.jwtVerify(token, key, options);
    if (protectedHeader.alg !== alg) {
      return { ok: false, error: `header alg ${protectedHeader.alg}, want ${alg}` };
    }
    return { ok: true, payload };
  } catch (err) {
    return { ok: false, error: describe(err) };
  }
}

function header(alg, kid) {
  const h = { alg, typ: "JWT" };
  if (typeof kid === "string" && kid !== "") h.kid = kid;
  return h;
}

async function signOne({ alg, jwk, claims }) {
  try {
    const key = await jose.importJWK(jwk, alg);
    const token = await new jose.SignJWT(claims).setProtectedHeader(header(alg, jwk.kid)).sign(key);
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
    const privateJwk = { ...(await jose.exportJWK(privateKey)), kid };
    const publicJwk = publicKey ? { ...(await jose.exportJWK(publicKey)), kid } : null;
    const token = await new jose.SignJWT(claims).setProtectedHeader(header(alg, kid)).sign(privateKey);
    return { private_jwk: privateJwk, public_jwk: publicJwk, token };
  } catch (err) {
    return { token: "", error: describe(err) };
  }
}

async function main() {
  let request;
  try {
    request = JSON.parse(await readStdin());
  } catch (err) {
    process.stderr.write(`jose-peer: cannot read the request: ${describe(err)}\n`);
    process.exit(2);
  }
  // All cases at once: the crypto runs on libuv's thread pool (RSA key
  // generation dominates), and Promise.all keeps request order.
  const [verified, signed, generated] = await Promise.all([
    Promise.all((request.verify ?? []).map(verifyOne)),
    Promise.all((request.sign ?? []).map(signOne)),
    Promise.all((request.generate ?? []).map(generateOne)),
  ]);
  process.stdout.write(JSON.stringify({ verified, signed, generated }) + "\n");
}

await main();
