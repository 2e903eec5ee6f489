// Command signet makes keys, signs, verifies and inspects JWTs, encrypts
// and decrypts them as JWEs, issues and checks PASETO tokens, and signs
// and verifies HTTP messages (RFC 9421) with the signet library, from the
// shell; it also runs signet's OAuth 2.0 token service (signet serve) and
// its verifying proxy (signet guard).
//
// Usage:
//
//	signet keygen ALG [--kid ID] [--enc ENC] [--crv P-256|P-384|X25519]
//	signet pub [--alg ALG] < KEY
//	signet jwt sign --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--secret-encoding ENC]
//	signet jwt verify (--key F | --jwks F | --jwks-url URL) [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T] [--alg ALG]... [--secret-encoding ENC]
//	signet jwt inspect
//	signet jwe encrypt --key F [--claims F] [--exp DURATION] [--kid ID] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--p2c N] [--nested-sign-key G [--nested-sign-alg ALG]]
//	signet jwe decrypt --key F [--verify-key G [--verify-alg ALG]] [--alg ALG] [--enc ENC] [--secret-encoding ENC] [--iss S] [--aud S]... [--any-aud] [--leeway D] [--no-exp] [--typ T]
//	signet jwe inspect
//	signet paseto encrypt|sign --key F [--claims F] [--exp DURATION | --no-exp] [--footer S] [--implicit S]
//	signet paseto decrypt|verify --key F [--footer S] [--implicit S] [--iss S] [--aud S]... [--any-aud] [--sub S] [--leeway D] [--no-exp]
//	signet httpsig sign --key F --label L --components '"@method" "@path" …' [--keyid K] [--created now|UNIX] [--expires UNIX] [--nonce N] [--tag T] [--digest sha-256|sha-512]
//	signet httpsig verify (--key F | --jwks F) [--label L] [--tag T] [--require '"content-digest" …'] [--insecure-skip-default-coverage] [--max-age D] [--no-created] [--unsigned-body] [--now UNIX]
//	signet httpsig base [--label L]
//	signet bench [--http] [--quick|--full] [--out DIR] [--lab DIR]
//	signet serve --clients F [--addr 127.0.0.1:8080] [--issuer URL] [--data DIR | --redis URL] [--kek-file F] [--alg ES256] [--format jwt|paseto] [--rotate 168h] [--tls-cert F --tls-key F] [--admin-addr ADDR] [--trusted-proxy CIDR]...
//	signet serve --dev
//	signet guard --upstream URL (--jwks-url URL | --key F | --jwks F) [--addr 127.0.0.1:8081] [--iss S] [--aud S]... [--any-aud] [--scope S]... [--claims-header NAME] [--admin-addr ADDR] [--alg ALG]... [--access-token] [--forward-token] [--leeway D] [--cache N] [--jwks-max-stale 24h]
//	signet help
//
// # Keys
//
// keygen prints a new private key for ALG (HS256, HS384, HS512, RS256,
// RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 or EdDSA, or one
// of the RFC 9421 algorithms hmac-sha256, rsa-pss-sha512, rsa-v1_5-sha256,
// ecdsa-p256-sha256, ecdsa-p384-sha384 and ed25519) as a JWK that names
// its algorithm, with the key ID given by --kid. For the
// PASETO algorithms (v4.local, v4.public, v3.local, v3.public) it prints a
// PASERK instead: k4.local, k4.secret, k3.local or k3.secret. A PASERK has
// no key ID, so --kid is refused there: a PASETO key's ID is its PASERK ID
// (k4.lid, k4.pid, …; see package paserk), computed from the key. The
// output is secret: write it to a file only you can read. When stdout is
// a regular file that others may read (the shell makes "> key.jwk" with
// the umask's mode, 0644 by default), keygen clears its group and other
// permission bits before writing the key, and warns; create it with umask
// 077 to leave no moment when it is readable. An EdDSA key
// verifies JWTs whose header says "EdDSA" or "Ed25519" (RFC 9864's name
// for the same algorithm); as an ALG, "Ed25519" is a usage error that
// points to EdDSA, and to ed25519 for HTTP message signatures.
//
//	signet keygen ES256 --kid 2025-01 > es256.jwk
//	signet keygen ed25519 --kid web-1 > web.jwk
//	signet keygen v4.public > v4.key
//
// pub reads a private key on stdin and prints its public half in the same
// encoding: a public JWK for a JWK, an SPKI "PUBLIC KEY" PEM block for PEM,
// a k4.public or k3.public PASERK for a k4.secret or k3.secret. An HMAC key
// or a PASETO local key is a shared secret with no public half: pub
// refuses it.
//
//	signet pub < es256.jwk > es256.pub.jwk
//	signet pub < v4.key > v4.pub
//
// Wherever a command takes a key file (--key), the file is one of:
//   - a JWK, private or public. Its "alg" is the key's algorithm; --alg
//     is needed only for a JWK without "alg", and must agree otherwise.
//   - PEM: PKCS #8, SPKI, PKCS #1 or SEC 1. The algorithm of an EC or
//     Ed25519 key follows from the key; an RSA key needs --alg (RS256,
//     PS256, …), because the same key fits six algorithms. A PEM key is a
//     PASETO key only with --alg v4.public (Ed25519) or v3.public (P-384).
//     For httpsig, an Ed25519, P-256 or P-384 key is read for ed25519,
//     ecdsa-p256-sha256 or ecdsa-p384-sha384, and an RSA key needs --alg
//     rsa-pss-sha512 or rsa-v1_5-sha256 (a PKCS #8 or SPKI key marked
//     id-RSASSA-PSS is read for rsa-pss-sha512 when its parameters, if
//     any, allow SHA-512).
//   - a PASERK: k4.local, k4.public, k4.secret, or the same with k3. It
//     names its algorithm. The other PASERK types (IDs, and keys wrapped
//     with a key or password, or sealed) are refused: unwrap them first.
//     A PASETO local key is read only as a PASERK, never from PEM or raw
//     bytes, which do not say which algorithm they are for.
//   - a raw HMAC secret, only with --secret-encoding and --alg HS256,
//     HS384 or HS512 (hmac-sha256 for httpsig). Nothing about a secret is
//     guessed from its bytes: without --secret-encoding a file is read as
//     a JWK, PEM or PASERK key, never as a secret; with it, never as a
//     key. --secret-encoding raw takes the file's bytes exactly as the
//     secret, whatever they are: nothing is stripped, so a final newline
//     is part of the secret (write one with printf, or use base64 or
//     hex); base64 (standard or URL alphabet, padded or not, canonical)
//     and hex take the bytes the text encodes, white space anywhere
//     ignored. The secret must be at least as long as the hash (32, 48 or
//     64 bytes).
//
// A file offered as a raw secret that holds a key is refused (exit 1):
// used as an HMAC secret, a public key lets anyone who has it forge
// tokens. A key is recognized by parsing, in any of these encodings: a
// PEM block of any type, a JWK or JWK Set (JSON with "kty" or "keys"), a
// PASERK (k3. or k4. and a PASERK type), an OpenSSH public key line, and
// DER (PKCS #8, SPKI, PKCS #1, SEC 1 or an X.509 certificate) as bytes,
// base64 or hex, in the file or in the secret it encodes. No random
// secret parses as one of them.
//
//	openssl rand 32 > hs.key
//	signet jwt sign --key hs.key --alg HS256 --secret-encoding raw < claims.json
//	openssl rand -base64 32 > hs.b64
//	signet jwt verify --key hs.b64 --alg HS256 --secret-encoding base64 < token
//
// A JWK Set is not a key file: a --key file (or pub's stdin) holding one,
// even of a single key, is refused; give it with --jwks.
//
// A JWK without "alg" needs --alg, except, for httpsig, an Ed25519, P-256
// or P-384 one, read as for PEM.
//
// Every file the CLI reads (--key, --claims, --jwks, --request, serve's
// --tls-cert and --tls-key) must be a regular file, or a symbolic link to
// one, of at most 1 MiB: a named pipe, a device such as /dev/zero or
// /dev/stdin, a socket or a directory is refused at once, never waited
// on. Pipe data to stdin instead.
//
// The key decides the algorithm, never the token: a token whose header
// names another algorithm than the key's is rejected. A key is for one
// kind of signature: a key made for EdDSA JWTs does not sign HTTP
// messages, one made for ed25519 does not sign JWTs.
//
// # JWTs
//
// jwt sign reads a claims object (--claims F, or stdin) and prints the
// signed token. The claims are signed byte for byte as given; --exp 1h
// sets exp to an hour from now, re-encoding the claims. A token without
// exp is signed with a warning, since verifiers refuse it by default.
// --kid sets the key ID in the header. Before printing it, jwt sign reads
// the token back with signet's verifier (the public half of the key, the
// issuing time as clock): a token that verifier would refuse for its
// form (a claim of the wrong type, a NumericDate beyond 2^53, a token
// over 1 MiB) is not issued (exit 1); one refused only for its times
// (issued expired, or for later) is issued, with a warning when expired.
//
//	echo '{"sub":"alice","aud":"api"}' | signet jwt sign --key es256.jwk --exp 1h > token
//
// jwt verify reads a token on stdin, checks it against one key (--key) or
// a JWK Set (--jwks, the key picked by the token's kid) and the policy
// given by --iss, --aud, --any-aud, --leeway and --no-exp, and prints the
// claims exactly as signed. exp is required unless --no-exp is given, and
// a token is expired at exp. --aud names the audiences the verifier
// answers to (repeat it, or give a comma-separated list): the token's aud
// must hold one of them. A token that has aud is rejected when no --aud is
// given (RFC 7519 §4.1.3), unless --any-aud says the audience is checked
// elsewhere. A check flag given an empty value (--iss, --typ, --aud; for
// paseto also --sub, for httpsig verify --tag and --require; for guard
// --iss), as "--iss $ISSUER" gives it when ISSUER is unset, is a usage
// error rather than no check: leave the flag out to check nothing.
//
//	signet jwt verify --key es256.pub.jwk --aud api < token
//	signet jwt verify --key es256.pub.jwk --aud api --aud billing < token
//
// --jwks-url fetches the issuer's JWK Set instead (package
// github.com/signet-go/signet/jwks: https, or http to a loopback host;
// no redirect; 1 MiB at most; 10 s at most for the first fetch), for
// keys of the algorithms --alg names (repeat it or give a list; default
// RS256, ES256 and EdDSA, one per key type, so that a published key
// without "alg" is bound to it). A set that cannot be fetched is a
// rejection (exit 1). --typ names the typ header required, e.g. at+jwt
// for an OAuth access token (RFC 9068); without it typ must be absent or
// JWT.
//
//	signet jwt verify --jwks-url https://auth.example.com/.well-known/jwks.json --typ at+jwt \
//	    --iss https://auth.example.com --aud https://api.example.com < token
//
// jwt inspect prints the header and claims of a token on stdin without
// checking anything, as {"header":…,"claims":…,"verified":false}, and
// warns on stderr that nothing was verified. Use it for debugging only.
// The characters a terminal could act on or that change how text is shown
// (DEL, the C1 controls, bidi overrides and other format characters, line
// and paragraph separators) are printed as \uXXXX escapes: the same JSON.
// Given a JWE (five segments) it prints the protected header alone, as
// {"header":…,"encrypted":true,"verified":false}; jwe inspect is the same.
//
// # Encrypted JWTs (JWE)
//
// keygen makes JWE keys too: ALG a key-management algorithm (dir, A128KW,
// A256KW, A128GCMKW, A256GCMKW, ECDH-ES, ECDH-ES+A128KW, ECDH-ES+A256KW,
// RSA-OAEP-256, PBES2-HS256+A128KW, PBES2-HS512+A256KW), written as a JWK
// with "use":"enc". A JWE key is bound to one content encryption as well
// (A128GCM, A192GCM, A256GCM, A128CBC-HS256, A192CBC-HS384,
// A256CBC-HS512), given by --enc, default A256GCM; a JWK records the
// algorithm but not the content encryption, so the same --enc is given
// again to jwe encrypt and decrypt (keygen warns when it is not the
// default). A dir key is a key of --enc's size; an ECDH-ES key is on the
// curve --crv (P-256 by default, P-384 or X25519). RSA-OAEP (SHA-1) keys
// only decrypt what others send: keygen refuses them (use RSA-OAEP-256),
// and a key file holding one decrypts but never encrypts.
//
// A PBES2 key is a password. keygen makes a random one, 32 base64url
// characters (192 bits), held in the JWK's "k"; a password of one's own,
// at least 16 bytes, is read from a file with --secret-encoding raw and
// --alg PBES2-HS256+A128KW or PBES2-HS512+A256KW. raw keeps every byte,
// a final newline included: write the file with printf. Raw dir and
// A*KW secrets are read the same way (raw, base64 or hex). RSA and EC or
// X25519 keys in PEM need --alg, which PEM does not record. pub prints
// the public half of an ECDH-ES or RSA-OAEP-256 key; a dir, A*KW or PBES2
// key is a shared secret with none.
//
//	signet keygen ECDH-ES+A256KW --crv X25519 --kid r1 > enc.jwk
//	signet pub < enc.jwk > enc.pub.jwk
//	signet keygen dir --enc A128CBC-HS256 > dir.jwk
//
// jwe encrypt reads a claims object as jwt sign does (--claims F or stdin,
// byte for byte, --exp, --kid, a warning without exp) and encrypts it for
// the recipient's key: a public key for ECDH-ES and RSA-OAEP-256, the
// shared secret or password otherwise. The claims are first read back by
// signet's claims reader (what jwe decrypt applies), so claims it would
// refuse are not encrypted. --p2c sets the PBKDF2 iteration count of a
// PBES2 token (default 310000, from 1000 to 600000; npm jose reads at most
// 10000 unless its maxPBES2Count is raised). --nested-sign-key G signs
// the claims as a JWT with G (a private JWK or PEM; --nested-sign-alg
// names the JWS algorithm of an RSA PEM key or a JWK without "alg") and
// encrypts that JWT, with cty "JWT": a nested JWT (RFC 7519 §5.2).
//
//	echo '{"sub":"alice","aud":"api"}' | signet jwe encrypt --key enc.pub.jwk --exp 1h > token
//	signet jwe encrypt --key enc.pub.jwk --nested-sign-key es256.jwk --exp 1h < claims.json > nested
//
// jwe decrypt reads a token on stdin, decrypts it with the private key or
// the secret (--key), checks the claims with the flags of jwt verify
// (--iss, --aud, --any-aud, --leeway, --no-exp, --typ) and prints them
// exactly as encrypted. The key decides alg and enc: a token naming
// others is rejected before any decryption, as are RSA1_5, zip, unknown
// crit and a p2c above 600000 (see package github.com/signet-go/signet/jwe).
// A nested JWT is read only with --verify-key G, the signer's key, and
// the JWT inside must verify with it (--verify-alg as --nested-sign-alg);
// without --verify-key it is rejected rather than printed unverified.
//
//	signet jwe decrypt --key enc.jwk --aud api < token
//	signet jwe decrypt --key enc.jwk --verify-key es256.pub.jwk --aud api < nested
//
// # PASETO
//
// paseto encrypt (with a v4.local or v3.local key) and paseto sign (with a
// v4.public or v3.public private key) read a claims object (--claims F,
// or stdin) and print the token. The claims are issued byte for byte as
// given; they must carry exp, an RFC 3339 date-time, unless --no-exp is
// given. --exp 1h sets exp to an hour from now, as RFC 3339 in UTC,
// re-encoding the claims. --footer sets the footer, which is
// authenticated but not encrypted: put a key ID there, never a key (a
// footer holding a PASERK key is refused). --implicit sets an implicit
// assertion: authenticated, not stored in the token, so the reader must
// give the same one. As jwt sign does, encrypt and sign read the token
// back with signet's reader before printing it, and issue nothing it
// would refuse: exp, nbf and iat must be RFC 3339 date-times as PASETO
// reads them (an upper-case T, Z or ±hh:mm, a fraction after a dot, a
// four-digit year: nothing more lenient, no year above 9999), and a
// footer that starts with '{' must be a JSON object within the reader's
// limits (depth 2, 16 members, no repeated or case-folded names, kid a
// string).
//
//	echo '{"sub":"alice","aud":"api"}' | signet paseto sign --key v4.key --exp 1h > token
//
// paseto decrypt and paseto verify read a token on stdin, check it with
// the key (local for decrypt; public or private for verify) and the
// policy given by --iss, --aud, --any-aud, --sub, --leeway and --no-exp,
// and print the claims exactly as issued, with the rules of jwt verify:
// exp is required unless --no-exp is given, a token is expired at exp, and
// a token that has aud needs a matching --aud (or --any-aud).
// --footer is the footer the token must carry (any footer otherwise);
// --implicit is the implicit assertion it was issued with. A token of
// another version or purpose than the key is rejected: a v3 key never
// reads a v4 token, a local key never verifies a public one.
//
//	signet paseto verify --key v4.pub --aud api < token
//
// # HTTP message signatures
//
// The httpsig commands read one HTTP/1.x message on stdin: a response when
// it starts "HTTP/", a request otherwise. Lines may end in CRLF or in LF
// alone, as in RFC 9421's examples; a message without a body may lack the
// blank line that ends its header section. The body is delimited by
// Content-Length or chunked coding (a response without either runs to the
// end of the input); bytes after it other than line endings are refused.
// A request line names no scheme unless it is in absolute form: --scheme
// (https by default) gives the one the request was sent with, for @scheme
// and @target-uri. Components with the req parameter, in a response
// signature, are taken from the request given with --request F.
//
// httpsig sign signs the message with the private key and prints it with a
// Signature-Input and a Signature field line added at the end of its
// header section, in its line endings; every other byte, the order of
// the fields and the body included, is kept. --label names the signature
// and --components lists what it covers, serialized or bare
// ('"@method" "@authority" "@path" "content-digest"' or
// '@method @authority @path content-digest'). The parameters are created
// (the current time, or --created UNIX), expires (--expires UNIX), nonce
// (--nonce), keyid (--keyid, or the key's own ID) and tag (--tag).
// --digest sha-256 or sha-512 adds a Content-Digest field line of the body
// first, when the message has none; the components must then cover
// content-digest. A label the message already uses is refused.
//
//	signet httpsig sign --key web.jwk --label sig1 --components '@method @authority @path content-digest' --digest sha-256 < req.http > signed.http
//
// httpsig verify checks a signature of the message with one key (--key)
// or a JWK Set (--jwks, the key picked by the keyid parameter) and prints
// the signature accepted as one line of JSON: label, keyid, alg, created,
// expires, nonce, tag and the covered components. It tries the signatures
// in order, or only the one labelled --label, or those tagged --tag. By
// default a request signature must cover @method, @authority and @path
// (@target-uri stands for the last two, @request-target for @path) and a
// response signature @status; a signature covering no component is always
// refused. created is required and may be at most 5 minutes old, with no
// clock skew (--max-age D; --no-created accepts a signature without it),
// expires must not have passed, and a request with a body must cover a
// Content-Digest, which is checked against the body (--unsigned-body
// accepts a body nothing covers; a covered digest is checked still).
// --require adds components the signature must cover.
// --insecure-skip-default-coverage drops the default components, leaving
// only --require: a signature that does not cover the method, host and path
// can be replayed on another, so use it only to check a peer that cannot
// sign them. --now UNIX checks the times against a given time, to verify
// old examples.
//
//	signet httpsig verify --key web.pub.jwk --require content-digest < signed.http
//
// httpsig base prints the signature base of a signature of the message,
// as a verifier rebuilds it: the exact bytes signed, with no newline
// added. Without --label it is the message's first signature (with a
// warning when there are several). It checks nothing: it is a debugging
// aid for signatures that do not verify.
//
// # The lab
//
// bench runs the lab (bench/ of a signet checkout, a module of its own
// that pins the peer libraries) with the go command: signet against the Go
// libraries people use, and the attack corpus against every library. It
// writes REPORT.md, charts and results.json to --out. --quick (the
// default) takes a few minutes, --full about an hour.
//
//	signet bench --quick --out out/report
//
// # The token service
//
// serve runs signet's OAuth 2.0 token service (package
// github.com/signet-go/signet/server/oauth): client credentials grants
// (client_secret_basic, client_secret_post, private_key_jwt), RFC 9068
// access tokens (or PASETO v4.public with --format paseto), introspection,
// revocation, RFC 8414 discovery and a JWKS whose keys rotate every
// --rotate (168h by default) without failing a token. A period under 30
// minutes (seconds, for trying rotation out) scales the JWKS max-age down
// to half of it, so that each next key is still published two max-ages
// before it signs and the keys really rotate that often.
//
//	signet serve --dev
//
// starts an in-memory instance on 127.0.0.1:8080 with one generated client
// (scope "read write", audience the issuer; its 256-bit secret exists only
// in what is printed) and prints its id, secret and a curl line that gets a
// token. For real use, register clients in a file (--clients; secrets only
// as SHA-256 hashes, reloaded on SIGHUP; one that every user may write is
// refused, at start and on reload) and pick a store:
//
//	signet serve --clients clients.json --data /var/lib/signet
//	SIGNET_KEK=k4.local.… signet serve --clients clients.json --redis redis://redis:6379/0
//
// --data DIR keeps keys and revocations in DIR/signet.db (bbolt), for one
// instance; the key-encryption key that wraps the private keys is
// DIR/kek, created with mode 0600 on first start, unless --kek-file or
// SIGNET_KEK names one. --redis URL shares the state among any number of
// instances behind a load balancer: they need the same key-encryption key,
// from --kek-file or SIGNET_KEK (make one with signet keygen v4.local), and
// serve refuses to start without it. A Redis password goes in
// SIGNET_REDIS_PASSWORD, not in the URL, which every local user can read
// on the command line (ps): serve warns when --redis holds one, and
// refuses both at once (exit 2). A Redis that does not answer at start
// does not stop it: serve listens, answers 503 and reports not ready
// until Redis answers, then becomes ready by itself. Each instance reads
// the key ring every second: within about a second of Redis failing, the
// token, introspection and revocation endpoints answer 503 and /readyz
// fails (the JWKS is still served), and within about a second of its
// return the service resumes by itself. A Redis that comes back without
// its data has lost the key ring and the revocations with it: the
// instances write and publish a fresh ring, and tokens signed before
// introspect inactive (resource servers that cached the old JWKS accept
// them until their cache expires); keep Redis's data (AOF or RDB) to keep
// tokens and revocations across its restarts.
//
// The issuer is http://ADDR (https:// with --tls-cert and --tls-key)
// unless --issuer names it. /metrics answers Prometheus text (package
// server/metrics) beside the endpoints; --admin-addr moves /healthz,
// /readyz and /metrics to a listener of their own (plain HTTP). Failed
// client authentications are limited per client and source address;
// behind a load balancer, --trusted-proxy CIDR (repeatable) counts them by
// the client address the proxy appended to X-Forwarded-For. serve logs JSON lines on stderr
// (never a secret or a token), is ready when GET /readyz answers 200,
// and on SIGTERM or SIGINT stops accepting, lets the requests in flight
// finish (for up to 10 s) and exits 0.
//
// # The guard
//
// guard is a verifying reverse proxy (package
// github.com/signet-go/signet/server/guard) for services not written in
// Go: it checks the Bearer JWT of each request against the keys of
// --jwks-url (kept fresh in the background; --alg as for jwt verify),
// --key or --jwks, and the policy of --iss, --aud (or --any-aud),
// --scope (each required; repeat it or give a space-separated list),
// --leeway and --access-token (the RFC 9068 profile), and forwards the
// verified requests to --upstream with the claims in X-Signet-Claims
// (--claims-header): the claims JSON exactly as signed, base64url without
// padding. Every copy of that header a client sent is removed first (any
// case, '_' for '-'), as are its X-Forwarded-For/-Host/-Proto and
// X-Request-Id (the guard sets its own), and so is the Authorization
// header unless --forward-token. A path with a "." or ".." segment is
// refused (400). Refused requests get RFC 6750 answers (401 with
// WWW-Authenticate, 400 invalid_request, 403 insufficient_scope), 503
// while the keys are unavailable, 502 when the upstream fails. Verified
// tokens are remembered by their SHA-256 (--cache N entries, 4096 by
// default, 0 for none), never past exp and at most 5 min.
//
//	signet guard --upstream http://127.0.0.1:9000 --jwks-url https://auth.example.com/.well-known/jwks.json \
//	    --iss https://auth.example.com --aud https://api.example.com --scope read
//
// It listens on 127.0.0.1:8081 unless --addr says otherwise. /healthz,
// /readyz (200 once the keys are loaded) and /metrics (Prometheus text:
// requests by result, verification latency, cache hits and misses, the
// key set's fetches, errors and kid misses) answer beside the proxied
// paths, or on --admin-addr alone. guard logs JSON lines on stderr, one
// per refused request with its request id (never a token); SIGHUP
// refetches the key set; SIGTERM or SIGINT stops it gracefully (exit 0).
//
// # Exit status
//
// 0 on success, with the result on stdout. 1 when the input or a key is
// rejected (bad signature, expired, wrong audience or issuer, malformed
// input, weak key, missing file, …), with one line on stderr starting
// "signet: " and nothing on stdout. 2 for a usage error: an unknown
// command, a bad or missing flag, an unknown algorithm. Errors never
// include key material.
package main
