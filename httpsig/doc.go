// Package httpsig signs and verifies HTTP messages with RFC 9421 HTTP
// Message Signatures, and checks bodies with RFC 9530 Content-Digest.
//
// A signature covers chosen components of a message: derived ones such as
// @method, @authority, @path, @query-param;name="id" and @status, and
// header fields, with the parameters sf, key, bs, req and tr. The keys are
// signet keys of the six RFC 9421 algorithms (signet.HMACSHA256,
// signet.Ed25519, signet.ECDSAP256SHA256, signet.ECDSAP384SHA384,
// signet.RSAPSSSHA512, signet.RSAV15SHA256): a key is bound to its
// algorithm, so an alg parameter that names another one is refused before
// any cryptography, and a JWS or PASETO key never checks an HTTP signature.
//
// Sign requests with a Signer, directly or as an http.RoundTripper:
//
//	key, _ := signet.GenerateKeyWithID(signet.Ed25519, "client-1")
//	s, err := httpsig.NewSigner(key, httpsig.Options{
//		Components: []string{"@method", "@authority", "@path", "@query", "content-type", "content-digest"},
//		Digest:     httpsig.SHA256, // adds Content-Digest over the body
//		Nonce:      true,
//	})
//	client := &http.Client{Transport: &httpsig.Transport{Signer: s}}
//
// Verify them with a Verifier, directly or as middleware:
//
//	v, err := httpsig.NewVerifier(keys, httpsig.Policy{
//		Require: []string{"content-digest"}, // besides @method, @authority, @path
//		Skew:    time.Minute,
//	})
//	handler = httpsig.Middleware(v)(handler) // 401 + problem body when invalid
//	// in the handler: res, _ := httpsig.FromContext(r.Context())
//
// What the zero Policy enforces: a request signature covers @method,
// @authority and @path (@target-uri stands for the last two,
// @request-target for @path) and a response signature @status, so that it
// cannot be replayed on another method, host, path or status
// (Policy.Require adds components; Policy.InsecureSkipDefaultCoverage is
// the one way to accept less, and a signature covering no component is
// refused whatever the policy); a created parameter younger than five
// minutes and not in the future (a zero Policy.Skew allows no clock skew:
// set a minute or so between servers; a signature is too old at created
// plus MaxAge plus Skew); expires when present (a signature is expired at
// expires, as a JWT at exp); a nonce (at most 256 bytes, refused with
// signet.ErrTooLarge beyond) remembered (in memory, bounded per
// key ID and in time, on the Verifier's clock) so that it cannot be
// replayed, and remembered last, once every other check, the body's
// included, has passed, so that a refused copy of a message never uses
// up the nonce of the genuine one (a message with several signatures the
// policy would accept, as during a key rotation, spends the nonce of each
// one that verifies, so that it cannot be replayed with the accepted one
// stripped; more than the message's 8 verifications can check is
// refused); and, for
// a message with a body, a signed Content-Digest that matches the body,
// which is read (at most DefaultMaxBody bytes) and handed on intact.
// Nothing is read from the body before a signature has been selected and
// has passed the policy and key checks, and then only for a covered
// content-digest or trailer field (tr): an unsigned request is refused
// with its body unread. Signatures are selected by label or tag, keys by
// the keyid parameter. Behind a TLS-terminating proxy, set Policy.Origin
// to what clients see. A request a server received is judged by its
// request line (r.RequestURI) for @path, @query, @query-param and
// @target-uri, not by r.URL, which a handler in front (http.StripPrefix,
// a router) may have rewritten: the middleware can sit anywhere in the
// chain.
//
// Responses are signed with SignResponses (middleware) or
// Signer.SignResponse; a response can bind the request it answers with
// req components:
//
//	rs, err := httpsig.NewSigner(serverKey, httpsig.Options{
//		Components: []string{"@status", "content-type", "content-digest", `"@method";req`, `"@path";req`},
//		Digest:     httpsig.SHA256,
//	})
//	sign, err := httpsig.SignResponses(rs, httpsig.ResponseOptions{})
//	handler = sign(handler)
//
// SignResponses signs with the server's components and parameters only,
// and they must cover @status, so that a response signature never passes
// for a request signature. A client may ask for a signature with
// Accept-Signature (AcceptSignature, ParseAcceptSignature, RFC 9421 §5;
// read up to 16 KiB and 16 members), but the server answers only when
// ResponseOptions.Answer lists the component sets it allows, and then
// takes from the client no more than a label and which parameters to
// include: the nonce is the server's own, the tag never the client's, alg
// and keyid only the key's. Answering whatever a client asks would make
// the server's key a signing oracle. Sign responses with another key than
// requests: see SignResponses. A client answers a server's
// Accept-Signature on its own request with Signer.Answer.
//
// Work is bounded: Signature-Input and Signature at 16 KiB
// (Policy.MaxHeader), 16 signatures and 64 components each, at most 8
// signature checks per message, and a signature tried against at most
// MaxKeyCandidates (4) keys over all algorithms, refused as ambiguous
// (signet.ErrKeyNotFound) when the key set offers more, for a signature
// without keyid or from a custom signet.Keys for one keyid
// (Policy.RequireKeyID refuses signatures without keyid), 2
// Accept-Signature answers per response. Signature fields in canonical
// form take a parser that allocates nothing; anything else goes to the
// strict RFC 9651 parser, and the two agree (tested, fuzzed).
//
// A nil or zero Signer, Verifier or Transport (not made by NewSigner or
// NewVerifier) fails with signet.ErrKeyUsage, never a panic.
//
// Every parser has a size limit. Every error wraps a sentinel of package
// signet (ErrMalformed, ErrTooLarge, ErrSignatureInvalid,
// ErrAlgorithmMismatch, ErrKeyNotFound, ErrKeyUsage for a nil or zero
// key, ErrExpired, ErrNotYetValid, …), some through a finer sentinel of
// this package that wraps one of them: ErrNoSignature and ErrDigest
// (signet.ErrSignatureInvalid), ErrComponent (signet.ErrMalformed),
// ErrNotCovered (signet.ErrMissingClaim), ErrTooOld (signet.ErrExpired),
// ErrReplay (signet.ErrTokenID). The one exception is Transport, which
// returns its Base's network errors as they come. Signers and Verifiers
// are safe for concurrent use.
package httpsig
