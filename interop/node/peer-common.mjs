// peer-common: what the node peers of signet's interop tests share
// (jose-peer.mjs, jwe-peer.mjs, httpsig-peer.mjs): the request/response
// loop on stdin and stdout, error descriptions, and, for the npm jose
// peers, JWT claim options, JWS headers and exported key pairs.
//
// A peer calls runPeer with a handler per request array; see any peer's
// header for its protocol.

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// describe turns a thrown value into one line: "CODE: Name: message"
// (the code, as npm jose sets it, only when withCode).
export function describe(err, withCode = true) {
  if (err && typeof err === "object") {
    const code = withCode && err.code ? `${err.code}: ` : "";
    return `${code}${err.name ?? "Error"}: ${err.message ?? String(err)}`;
  }
  return String(err);
}

// runPeer reads one JSON request on stdin and writes one JSON response on
// stdout. handlers maps each request array's name to [the response
// array's name, an async function of one case]; every case runs at once
// (the crypto runs on libuv's thread pool) and each response array keeps
// its request's order. The response starts with the members of head. Only
// a request that cannot be read ends the process with an error (exit 2).
export async function runPeer(name, handlers, head = {}) {
  let request;
  try {
    request = JSON.parse(await readStdin());
  } catch (err) {
    process.stderr.write(`${name}: cannot read the request: ${describe(err)}\n`);
    process.exit(2);
  }
  const entries = Object.entries(handlers);
  const results = await Promise.all(entries.map(([from, [, one]]) => Promise.all((request[from] ?? []).map(one))));
  const response = { ...head };
  entries.forEach(([, [to]], i) => {
    response[to] = results[i];
  });
  process.stdout.write(JSON.stringify(response) + "\n");
}

// claimOptions are npm jose's jwtVerify/jwtDecrypt options that require
// the iss, sub and aud (its first member, for an array) of expect.
export function claimOptions(expect) {
  const options = {};
  if (expect && typeof expect === "object") {
    if (typeof expect.iss === "string") options.issuer = expect.iss;
    if (typeof expect.sub === "string") options.subject = expect.sub;
    if (typeof expect.aud === "string") options.audience = expect.aud;
    else if (Array.isArray(expect.aud) && expect.aud.length > 0) options.audience = expect.aud[0];
  }
  return options;
}

// jwsHeader is the protected header of a JWT signed with alg, with kid
// when it is a non-empty string.
export function jwsHeader(alg, kid) {
  const h = { alg, typ: "JWT" };
  if (typeof kid === "string" && kid !== "") h.kid = kid;
  return h;
}

// exportPair exports a key jose generated, private (or secret) and public
// (null for a secret), as JWKs with kid added.
export async function exportPair(jose, privateKey, publicKey, kid) {
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid };
  const publicJwk = publicKey ? { ...(await jose.exportJWK(publicKey)), kid } : null;
  return { private_jwk: privateJwk, public_jwk: publicJwk };
}
