// oauth-peer: the Node.js side of the token service's interop test
// (server/interop/node_test.go).
//
// Real OAuth and JWT libraries, written by others, talk to a running signet
// token service as any client would:
//
//   * openid-client (v6, over oauth4webapi) discovers the service through
//     RFC 8414 (/.well-known/oauth-authorization-server: its "oauth2"
//     discovery algorithm; allowInsecureRequests, as the test's service
//     speaks plain HTTP on 127.0.0.1), fetches access tokens with
//     clientCredentialsGrant, authenticating with ClientSecretBasic,
//     ClientSecretPost and PrivateKeyJwt, and calls tokenIntrospection
//     (RFC 7662) and tokenRevocation (RFC 7009);
//   * jose's createRemoteJWKSet fetches the published JWKS (jwks_uri from
//     discovery) and jwtVerify checks each access token: algorithm,
//     signature, typ "at+jwt" (RFC 9068), issuer, audience and expiry.
//
// Usage: node oauth-peer.mjs CONFIG.json
// CONFIG names the issuer, the algorithm the service signs with, the token
// format ("jwt", or "paseto": jose is then not used) and the clients with
// their credentials (see the Go test). The script prints one JSON object on
// stdout; the Go test asserts it. A failing case is reported in its entry;
// the process exits non-zero only when it cannot run at all (bad arguments,
// discovery failed).

import { readFile } from "node:fs/promises";
import * as client from "openid-client";
import * as jose from "jose";

const TIMEOUT = 10; // seconds, for every HTTP request

// describeError is an error as the Go test reads it: the OAuth error code
// and description when the service answered one (from the body, also when
// oauth4webapi reports the 401's WWW-Authenticate challenge first), the
// HTTP status, the library's error code and message.
async function describeError(err) {
  const out = {
    name: err?.name ?? "Error",
    code: err?.code ?? null,
    message: String(err?.message ?? err),
    status: typeof err?.status === "number" ? err.status : null,
    error: typeof err?.error === "string" ? err.error : null,
    error_description: typeof err?.error_description === "string" ? err.error_description : null,
  };
  if (err instanceof client.WWWAuthenticateChallengeError) {
    out.challenges = err.cause;
    try {
      const body = await err.response.json();
      if (typeof body?.error === "string") out.error = body.error;
      if (typeof body?.error_description === "string") out.error_description = body.error_description;
    } catch {
      // the body was not JSON, or already read: status and challenge only
    }
  }
  if (out.message === "something went wrong" && err?.cause) {
    out.message += ": " + String(err.cause?.message ?? err.cause);
  }
  return out;
}

// attempt runs fn; {value} or {error}.
async function attempt(fn) {
  try {
    return { value: await fn() };
  } catch (err) {
    return { error: await describeError(err) };
  }
}

// privateKey reads the client's PKCS #8 PEM file (written by the Go test)
// into a non-extractable CryptoKey for alg.
async function privateKey(spec) {
  const pem = await readFile(spec.key_file, "utf8");
  return jose.importPKCS8(pem, spec.alg);
}

// clientAuth is openid-client's authentication for one client's method.
// opts.jti fixes the assertion's jti (for the replay check); opts.legacyAlg
// makes an Ed25519 assertion say alg "EdDSA" (RFC 8037) in place of the
// "Ed25519" (RFC 9864) oauth4webapi 3.x writes, through the library's own
// hook (modifyAssertion): the service takes either. opts.sent, an array,
// collects the alg of each assertion as sent.
async function clientAuth(spec, opts = {}) {
  switch (spec.method) {
    case "client_secret_basic":
      return client.ClientSecretBasic(spec.client_secret);
    case "client_secret_post":
      return client.ClientSecretPost(spec.client_secret);
    case "private_key_jwt": {
      const key = await privateKey(spec);
      const modify = (header, payload) => {
        if (opts.legacyAlg && header.alg === "Ed25519") header.alg = "EdDSA";
        if (opts.jti) payload.jti = opts.jti;
        opts.sent?.push(header.alg);
      };
      const k = spec.kid ? { key, kid: spec.kid } : key;
      return client.PrivateKeyJwt(k, { [client.modifyAssertion]: modify });
    }
    default:
      throw new Error(`unknown method ${spec.method}`);
  }
}

// configure discovers the service for one client: RFC 8414 metadata at
// /.well-known/oauth-authorization-server (algorithm "oauth2"; the default
// "oidc" would ask for /.well-known/openid-configuration).
async function configure(cfg, spec, opts) {
  return client.discovery(new URL(cfg.issuer), spec.client_id, {}, await clientAuth(spec, opts), {
    algorithm: "oauth2",
    execute: [client.allowInsecureRequests],
    timeout: TIMEOUT,
  });
}

function grantParams(spec) {
  const p = {};
  if (spec.scope) p.scope = spec.scope;
  if (spec.resource) p.resource = spec.resource;
  return p;
}

// verify is jose's verdict on an access token from the remote JWKS.
async function verify(jwks, token, cfg, audience) {
  try {
    const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, {
      algorithms: [cfg.alg],
      issuer: cfg.issuer,
      audience,
      typ: "at+jwt",
      requiredClaims: ["exp", "iat", "iss", "aud", "sub", "jti", "client_id"],
    });
    return { header: protectedHeader, claims: payload, verify_error: null };
  } catch (err) {
    return { header: safeHeader(token), claims: null, verify_error: `${err.code ?? ""} ${err.name}: ${err.message}` };
  }
}

function safeHeader(token) {
  try {
    return jose.decodeProtectedHeader(token);
  } catch {
    return null;
  }
}

// refusedFor reports whether jose refuses the token for another audience
// (it must, with a claim check on aud).
async function refusedFor(jwks, token, cfg, audience) {
  try {
    await jose.jwtVerify(token, jwks, { algorithms: [cfg.alg], issuer: cfg.issuer, audience, typ: "at+jwt" });
    return false;
  } catch (err) {
    return err.code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && err.claim === "aud";
  }
}

async function runCase(spec, cfg, jwks) {
  const sent = [];
  const out = { name: spec.name, client_id: spec.client_id, method: spec.method, assertion_algs: sent };
  const conf = await attempt(() => configure(cfg, spec, { sent }));
  if (conf.error) {
    out.fetch_error = conf.error;
    return out;
  }
  const config = conf.value;
  const tok = await attempt(() => client.clientCredentialsGrant(config, grantParams(spec)));
  if (tok.error) {
    out.fetch_error = tok.error;
    return out;
  }
  const t = tok.value;
  out.token_response = {
    token_type: t.token_type,
    expires_in: t.expires_in ?? null,
    scope: t.scope ?? null,
    has_refresh_token: t.refresh_token !== undefined,
  };
  const token = t.access_token;
  out.access_token = token;
  if (jwks) {
    Object.assign(out, await verify(jwks, token, cfg, spec.audience));
    out.other_audience_refused = await refusedFor(jwks, token, cfg, "https://not-this-api.example");
  }
  out.introspect = await attempt(() => client.tokenIntrospection(config, token));
  out.revoke = await attempt(() => client.tokenRevocation(config, token).then(() => true));
  out.introspect_after_revoke = await attempt(() => client.tokenIntrospection(config, token));
  return out;
}

// fetchOnce is one client credentials grant; {ok, error}.
async function fetchOnce(cfg, spec, opts) {
  const r = await attempt(async () => client.clientCredentialsGrant(await configure(cfg, spec, opts), grantParams(spec)));
  return { ok: r.error === undefined, error: r.error ?? null };
}

// replay sends two assertions with one jti (through modifyAssertion): the
// service must refuse the second.
async function replay(cfg, spec) {
  const jti = "replayed-" + crypto.randomUUID();
  return { first: await fetchOnce(cfg, spec, { jti }), second: await fetchOnce(cfg, spec, { jti }) };
}

// probe is a token request whose outcome the Go test reads (some are
// required to fail, with a given error).
async function probe(cfg, spec) {
  const sent = [];
  const r = await fetchOnce(cfg, spec, { legacyAlg: spec.legacy_alg === true, sent });
  return { name: spec.name, ...r, assertion_algs: sent };
}

// versionOf reads an installed package's version from its package.json
// (read from disk: a package's exports may not include it).
async function versionOf(pkg) {
  const file = new URL(`./node_modules/${pkg}/package.json`, import.meta.url);
  return JSON.parse(await readFile(file, "utf8")).version;
}

async function main() {
  if (process.argv.length !== 3) {
    console.error("usage: node oauth-peer.mjs CONFIG.json");
    process.exit(2);
  }
  const cfg = JSON.parse(await readFile(process.argv[2], "utf8"));
  const versions = { node: process.versions.node };
  for (const pkg of ["openid-client", "oauth4webapi", "jose"]) versions[pkg] = await versionOf(pkg);

  // Discovery once, for the metadata and the JWKS URL.
  const first = cfg.clients[0];
  const config = await configure(cfg, first);
  const metadata = config.serverMetadata();
  let jwks = null;
  let jwksKeys = [];
  if (cfg.format !== "paseto") {
    if (!metadata.jwks_uri) throw new Error("discovery names no jwks_uri");
    jwks = jose.createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: TIMEOUT * 1000 });
    // What jose fetched, as the Go test checks it (kid and alg of each key).
    await jwks.reload();
    jwksKeys = (jwks.jwks()?.keys ?? []).map((k) => ({ kid: k.kid, alg: k.alg, kty: k.kty }));
  }

  const result = { versions, metadata, jwks_keys: jwksKeys, cases: [] };
  for (const spec of cfg.clients) result.cases.push(await runCase(spec, cfg, jwks));
  result.probes = [];
  for (const spec of cfg.probes ?? []) result.probes.push(await probe(cfg, spec));
  const jwtSpec = cfg.clients.find((c) => c.method === "private_key_jwt");
  if (jwtSpec) result.replay = await replay(cfg, jwtSpec);
  process.stdout.write(JSON.stringify(result));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
