package main

import (
	"crypto"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/attacks"
)

// claims is a claims set of the shape the lab's Payload reads.
func claims(sub string, expires int64) string {
	return fmt.Sprintf(`{"iss":"https://issuer.example.com","sub":%q,"aud":%q,"exp":%d,"iat":%d}`, sub, attacks.Audience, expires, issued)
}

func in(header, payload string) string { return seg(header) + "." + seg(payload) }

// finish sets what every case of a format shares: the verifier's clock
// and the verdict its signet error implies.
func finish(cases []attacks.Case) []attacks.Case {
	for i := range cases {
		if cases[i].Now == 0 {
			cases[i].Now = now
		}
		cases[i].Expect = attacks.Accept
		if cases[i].SignetError != "" {
			cases[i].Expect = attacks.Reject
		}
	}
	return cases
}

func (g *gen) jwt() []attacks.Case {
	keyHS := attacks.Key{JWK: jwkOf(signet.HS256, g.hs256, "")}
	keyHSkid := attacks.Key{JWK: jwkOf(signet.HS256, g.hs256, "hs-1")}
	keyHS512 := attacks.Key{JWK: jwkOf(signet.HS512, g.hs512, "")}
	rsaPEM := spkiPEM(&g.rsa.PublicKey)
	keyRS := attacks.Key{PEM: rsaPEM}
	keyES := attacks.Key{JWK: jwkOf(signet.ES256, &g.p256.PublicKey, "")}
	edPub := g.ed.Public().(ed25519.PublicKey)
	keyEd := attacks.Key{JWK: jwkOf(signet.EdDSA, edPub, "")}

	good := claims("user@example.com", exp)
	admin := claims("admin", exp)

	hs := func(header, payload string) string {
		i := in(header, payload)
		return dot(i, macWith(g.hs256, sha256New, i))
	}
	hsWith := func(secret []byte, header, payload string) string {
		i := in(header, payload)
		return dot(i, macWith(secret, sha256New, i))
	}
	rs := func(k *rsa.PrivateKey, h crypto.Hash, header, payload string) string {
		i := in(header, payload)
		return dot(i, rsaSig(k, h, i))
	}
	es := func(header, payload string) string {
		i := in(header, payload)
		return dot(i, ecRaw(g.p256, crypto.SHA256, i))
	}
	ed := func(header, payload string) string {
		i := in(header, payload)
		return dot(i, ed25519Sign(g.ed, i))
	}
	edAttacker := func(header, payload string) string {
		i := in(header, payload)
		return dot(i, ed25519Sign(g.edAttacker, i))
	}

	const (
		hHS = `{"alg":"HS256","typ":"JWT"}`
		hRS = `{"alg":"RS256","typ":"JWT"}`
		hES = `{"alg":"ES256","typ":"JWT"}`
		hEd = `{"alg":"EdDSA","typ":"JWT"}`
	)
	valid := hs(hHS, good)
	d1 := strings.IndexByte(valid, '.')
	d2 := strings.LastIndexByte(valid, '.')
	validSig := valid[d2+1:]

	// Public keys as the text an HMAC secret could be confused with.
	rsaDER := must(x509.MarshalPKIXPublicKey(&g.rsa.PublicKey))
	rsaPKCS1 := pemOf("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&g.rsa.PublicKey))
	rsaJWK := jwkOf(signet.RS256, &g.rsa.PublicKey, "")
	ecPEM := spkiPEM(&g.p256.PublicKey)
	ecPoint := must(g.p256.PublicKey.ECDH()).Bytes()
	ecSSH := "ecdsa-sha2-nistp256 " + b64std(cat(sshString([]byte("ecdsa-sha2-nistp256")), sshString([]byte("nistp256")), sshString(ecPoint)))
	edSSH := "ssh-ed25519 " + b64std(cat(sshString([]byte("ssh-ed25519")), sshString(edPub))) + " victim@example.com"
	edRaw := []byte(edPub)

	// ECDSA signatures that are not r || s of a valid signature.
	esIn := in(hES, admin)
	order := elliptic.P256().Params().N.FillBytes(make([]byte, 32))

	// The attacker's keys, shipped in the header.
	attackerJWK := json.RawMessage(jwkOf(signet.RS256, &g.rsaAttacker.PublicKey, ""))
	cert := g.attackerCert()

	// A JWS JSON serialization whose first member name looks like a
	// compact token with forged claims (python-jwt, CVE-2022-39227).
	polyglot := fmt.Sprintf(`{"  %s.%s.":"","protected":"%s","payload":"%s","signature":"%s"}`,
		valid[:d1], seg(admin), valid[:d1], valid[d1+1:d2], validSig)

	expiredForged := in(hHS, claims("admin", expired)) + "." + validSig

	edValid := ed(hEd, admin)
	edDot := strings.LastIndexByte(edValid, '.')
	edSig := must(b64Decode(edValid[edDot+1:]))

	// A token forged for a small-order verifier key: any claims, one
	// signature.
	edSmallIn := in(hEd, admin)
	edSmall := dot(edSmallIn, identityForgery([]byte(edSmallIn)))

	cases := []attacks.Case{
		// Controls: the same verifiers accept well-formed tokens.
		{ID: "jwt-control-hs256", Title: "Valid HS256 token (control)", Alg: "HS256", Key: keyHS, Token: valid,
			References: []string{"RFC 7515 Appendix A.1", "RFC 7519 §7.2"}},
		{ID: "jwt-control-rs256", Title: "Valid RS256 token (control)", Alg: "RS256", Key: keyRS, Token: rs(g.rsa, crypto.SHA256, hRS, good),
			References: []string{"RFC 7515 Appendix A.2"}},
		{ID: "jwt-control-es256", Title: "Valid ES256 token (control)", Alg: "ES256", Key: keyES, Token: es(hES, good),
			References: []string{"RFC 7515 Appendix A.3", "RFC 7518 §3.4"}},
		{ID: "jwt-control-eddsa", Title: "Valid EdDSA token (control)", Alg: "EdDSA", Key: keyEd, Token: ed(hEd, good),
			References: []string{"RFC 8037 §3.1"}},

		// alg none.
		{ID: "jwt-alg-none-unsigned", Title: `alg "none" with the signature stripped`, Alg: "HS256", Key: keyHS,
			Token: in(`{"alg":"none","typ":"JWT"}`, admin) + ".", SignetError: "signet.ErrMalformed",
			References: []string{"CVE-2015-9235", "CVE-2022-23540", "RFC 8725 §3.1"},
			Notes:      "The empty signature segment is refused as malformed before the header is read."},
		{ID: "jwt-alg-none-with-signature", Title: `alg "none" keeping the original signature`, Alg: "HS256", Key: keyHS,
			Token: in(`{"alg":"none","typ":"JWT"}`, admin) + "." + validSig, SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2015-9235", "RFC 8725 §3.1"}},
		{ID: "jwt-alg-none-case-variant", Title: `alg "nOnE" (case variant that slips past a blocklist)`, Alg: "HS256", Key: keyHS,
			Token: in(`{"alg":"nOnE","typ":"JWT"}`, admin) + "." + validSig, SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2015-9235", "RFC 8725 §3.1"}},

		// Key confusion: the verifier's public key used as an HMAC secret.
		{ID: "jwt-rs256-key-hs256-pem-secret", Title: "HS256 token MAC'd with the RS256 verifier's public key (SPKI PEM text) as the secret", Alg: "RS256", Key: keyRS,
			Token: hsWith([]byte(rsaPEM), hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2015-9235", "CVE-2016-10555", "RFC 8725 §2.1", "RFC 8725 §3.1"}},
		{ID: "jwt-rs256-key-hs256-pkcs1-secret", Title: "HS256 token MAC'd with the RS256 public key as PKCS#1 PEM (\"BEGIN RSA PUBLIC KEY\")", Alg: "RS256", Key: keyRS,
			Token: hsWith([]byte(rsaPKCS1), hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2017-11424", "CVE-2016-10555"}},
		{ID: "jwt-rs256-key-hs256-der-secret", Title: "HS256 token MAC'd with the RS256 public key's DER bytes", Alg: "RS256", Key: keyRS,
			Token: hsWith(rsaDER, hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2016-10555", "RFC 8725 §3.1"}},
		{ID: "jwt-rs256-key-hs256-jwk-secret", Title: "HS256 token MAC'd with the RS256 public key's JWK JSON text", Alg: "RS256", Key: keyRS,
			Token: hsWith(rsaJWK, hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2026-48526", "GHSA-xgmm-8j9v-c9wx"}},
		{ID: "jwt-es256-key-hs256-pem-secret", Title: "HS256 token MAC'd with the ES256 verifier's public key (SPKI PEM)", Alg: "ES256", Key: keyES,
			Token: hsWith([]byte(ecPEM), hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2015-9235", "CVE-2024-37568"}},
		{ID: "jwt-es256-key-hs256-openssh-secret", Title: "HS256 token MAC'd with the ES256 public key in OpenSSH format (ecdsa-sha2-nistp256)", Alg: "ES256", Key: keyES,
			Token: hsWith([]byte(ecSSH), hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2024-33663", "CVE-2022-29217"}},
		{ID: "jwt-eddsa-key-hs256-openssh-secret", Title: "HS256 token MAC'd with the EdDSA public key in OpenSSH format (ssh-ed25519)", Alg: "EdDSA", Key: keyEd,
			Token: hsWith([]byte(edSSH), hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2022-29217", "GHSA-ffqj-6fqr-9h24"}},
		{ID: "jwt-eddsa-key-hs256-raw-secret", Title: "HS256 token MAC'd with the raw 32-byte Ed25519 public key", Alg: "EdDSA", Key: keyEd,
			Token: hsWith(edRaw, hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"CVE-2022-29217", "RFC 8725 §3.1"}},

		// Algorithm substitution within a family.
		{ID: "jwt-rs256-key-rs384-header", Title: "RS256 verifier, token signed RS384 by the same key", Alg: "RS256", Key: keyRS,
			Token: rs(g.rsa, crypto.SHA384, `{"alg":"RS384","typ":"JWT"}`, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"RFC 8725 §3.1", "RFC 7515 §10.7"}},
		{ID: "jwt-hs512-key-hs256-header", Title: "HS512 verifier, token MAC'd HS256 with the same secret (downgrade)", Alg: "HS512", Key: keyHS512,
			Token: hsWith(g.hs512, hHS, admin), SignetError: "signet.ErrAlgorithmMismatch",
			References: []string{"RFC 8725 §3.1", "RFC 7515 §10.7"}},

		// ECDSA.
		{ID: "jwt-es256-psychic-zero", Title: "ES256 signature r = s = 0 (\"psychic signature\")", Alg: "ES256", Key: keyES,
			Token: dot(esIn, make([]byte, 64)), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2022-21449", "RFC 8725 §3.4"}},
		{ID: "jwt-es256-psychic-order", Title: "ES256 signature r = s = n (the group order)", Alg: "ES256", Key: keyES,
			Token: dot(esIn, append(append([]byte(nil), order...), order...)), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2022-21449"}},
		{ID: "jwt-es256-der-signature", Title: "ES256 signature in ASN.1 DER instead of r || s", Alg: "ES256", Key: keyES,
			Token: dot(esIn, ecDER(g.p256, crypto.SHA256, esIn)), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 7518 §3.4"},
			Notes:      "A valid signature of the claims, in the encoding X.509 uses; JWS requires the fixed 64-byte R || S."},
		{ID: "jwt-eddsa-non-canonical-s", Title: "EdDSA signature with S + L in place of S (malleated)", Alg: "EdDSA", Key: keyEd,
			Token: edValid[:edDot+1] + b64u(edSPlusL(edSig)), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 8032 §5.1.7", "RFC 8037 §3.1"}},
		{ID: "jwt-eddsa-small-order-key", Title: "EdDSA verifier's JWK is a small-order point (the identity); token signed R = identity, S = 0", Alg: "EdDSA", Key: attacks.Key{JWK: smallOrderJWK()},
			Token: edSmall, SignetError: "signet.ErrWeakKey",
			References: []string{"RFC 8032 §5.1.7", "RFC 8037 §3.1", "Chalkias, Garillot, Nikolaenko: Taming the many EdDSAs (SSR 2020)"},
			Notes:      "The signature verifies any message under this key with crypto/ed25519, so whoever can publish or substitute the verifier's key (a JWK Set, a registration) needs no private key at all. signet refuses to make the key; a peer's verdict is on the forged token."},
		{ID: "jwt-eddsa-other-key", Title: "EdDSA token signed by another key", Alg: "EdDSA", Key: keyEd,
			Token: edAttacker(hEd, admin), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 7515 §5.2"}},

		// Keys and key URLs named by the token.
		{ID: "jwt-embedded-jwk", Title: "Header jwk carrying the attacker's RSA key, token signed with it", Alg: "RS256", Key: keyRS,
			Token: rs(g.rsaAttacker, crypto.SHA256, `{"alg":"RS256","typ":"JWT","jwk":`+string(attackerJWK)+`}`, admin), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2018-0114", "CVE-2026-34240", "RFC 7515 §4.1.3", "RFC 8725 §3.10"}},
		{ID: "jwt-jku-injection", Title: "Header jku pointing at the attacker's JWK Set, token signed with the attacker's key", Alg: "RS256", Key: keyRS,
			Token:       rs(g.rsaAttacker, crypto.SHA256, `{"alg":"RS256","typ":"JWT","jku":"https://attacker.example/.well-known/jwks.json"}`, admin),
			SignetError: "signet.ErrSignatureInvalid",
			References:  []string{"RFC 7515 §4.1.2", "RFC 8725 §3.10", "CWE-918"},
			Notes:       "Nothing may be fetched: the verifier's own key decides."},
		{ID: "jwt-x5u-injection", Title: "Header x5u pointing at the attacker's certificate, token signed with the attacker's key", Alg: "RS256", Key: keyRS,
			Token:       rs(g.rsaAttacker, crypto.SHA256, `{"alg":"RS256","typ":"JWT","x5u":"https://attacker.example/cert.pem"}`, admin),
			SignetError: "signet.ErrSignatureInvalid",
			References:  []string{"RFC 7515 §4.1.5", "RFC 8725 §3.10", "CWE-918"}},
		{ID: "jwt-x5c-injection", Title: "Header x5c carrying the attacker's self-signed certificate, token signed with its key", Alg: "EdDSA", Key: keyEd,
			Token:       edAttacker(`{"alg":"EdDSA","typ":"JWT","x5c":["`+b64std(cert)+`"]}`, admin),
			SignetError: "signet.ErrSignatureInvalid",
			References:  []string{"RFC 7515 §4.1.6", "RFC 8725 §3.10"}},
		{ID: "jwt-kid-path-traversal", Title: "kid naming a file (../../dev/null), token MAC'd with an empty secret", Alg: "HS256", Key: keyHSkid,
			Token: hsWith(nil, `{"alg":"HS256","typ":"JWT","kid":"../../../../../../dev/null"}`, admin), SignetError: "signet.ErrKeyNotFound",
			References: []string{"RFC 8725 §3.10", "CWE-22"}},
		{ID: "jwt-kid-sql-injection", Title: "kid carrying SQL that selects a known secret, token MAC'd with it", Alg: "HS256", Key: keyHSkid,
			Token: hsWith([]byte("attacker"), `{"alg":"HS256","typ":"JWT","kid":"x' UNION SELECT 'attacker' --"}`, admin), SignetError: "signet.ErrKeyNotFound",
			References: []string{"RFC 8725 §3.10", "CWE-89"}},

		// Header extensions.
		{ID: "jwt-crit-unknown", Title: "Valid signature, crit naming an extension the verifier does not understand", Alg: "HS256", Key: keyHS,
			Token: hs(`{"alg":"HS256","typ":"JWT","crit":["x-policy"],"x-policy":"must-be-enforced"}`, good), SignetError: "signet.ErrUnsupported",
			References: []string{"RFC 7515 §4.1.11", "CVE-2026-32597", "GHSA-752w-5fwx-jx9f", "CVE-2025-59420"},
			Notes:      "golang-jwt v5.3.1 and cristalhq v5.4.0 accept this token (the lab's security matrix)."},
		{ID: "jwt-b64-false", Title: "b64:false (RFC 7797) in crit, payload still encoded", Alg: "HS256", Key: keyHS,
			Token: hs(`{"alg":"HS256","b64":false,"crit":["b64"]}`, good), SignetError: "signet.ErrUnsupported",
			References: []string{"RFC 7797 §3", "RFC 7797 §6"}},
		{ID: "jwt-zip-in-jws", Title: "zip (a JWE-only header) in a JWS", Alg: "HS256", Key: keyHS,
			Token: hs(`{"alg":"HS256","typ":"JWT","zip":"DEF"}`, good), SignetError: "signet.ErrUnsupported",
			References: []string{"RFC 7516 §4.1.3", "CVE-2024-28180"}},
		{ID: "jwt-typ-cross-jwt", Title: "A token of another kind (typ secevent+jwt) presented as a JWT", Alg: "HS256", Key: keyHS,
			Token: hs(`{"alg":"HS256","typ":"secevent+jwt"}`, good), SignetError: "signet.ErrType",
			References: []string{"RFC 8725 §2.8", "RFC 8725 §3.11"}},

		// Parser differentials.
		{ID: "jwt-duplicate-alg", Title: `Header with two alg members ("none", then "HS256"), MAC valid`, Alg: "HS256", Key: keyHS,
			Token: hs(`{"alg":"none","alg":"HS256","typ":"JWT"}`, good), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7515 §4", "RFC 8259 §4"},
			Notes:      "golang-jwt and cristalhq take the last alg, jwx the first (the lab's security matrix)."},
		{ID: "jwt-duplicate-exp", Title: "Claims with two exp members (expired first, far future last), MAC valid", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":%d,"exp":%d}`, audience, expired, exp)), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7519 §4", "RFC 8259 §4"}},
		{ID: "jwt-json-serialization-polyglot", Title: "JWS JSON serialization whose member name is a compact token with forged claims", Alg: "HS256", Key: keyHS,
			Token: polyglot, SignetError: "signet.ErrMalformed",
			References: []string{"CVE-2022-39227"}},
		{ID: "jwt-jwe-as-jws", Title: "A five-part JWE compact serialization presented to a JWS verifier", Alg: "HS256", Key: keyHS,
			Token: seg(`{"alg":"dir","enc":"A256GCM"}`) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA", SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7516 §9", "RFC 8725 §2.8"}},

		// Claims.
		{ID: "jwt-expired", Title: "Expired token (exp in the past), MAC valid", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, claims("user@example.com", expired)), SignetError: "signet.ErrExpired",
			References: []string{"RFC 7519 §4.1.4"}},
		{ID: "jwt-expired-and-forged", Title: "Expired token whose signature is also invalid: the signature error must come first", Alg: "HS256", Key: keyHS,
			Token: expiredForged, SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2024-51744"},
			Notes:      "An application that tests only for the expiry error must not be handed a forged token as merely expired."},
		{ID: "jwt-missing-exp", Title: "No exp claim (a token that never expires)", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, `{"iss":"https://issuer.example.com","sub":"admin","aud":"https://api.example.com"}`), SignetError: "signet.ErrMissingClaim",
			References: []string{"RFC 7519 §4.1.4", "RFC 8725 §3.10"},
			Notes:      "signet requires exp by default (docs/design.md, \"Defaults\")."},
		{ID: "jwt-nbf-future", Title: "nbf in the future", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":%d,"nbf":%d}`, audience, exp, future)), SignetError: "signet.ErrNotYetValid",
			References: []string{"RFC 7519 §4.1.5"}},
		{ID: "jwt-iat-future", Title: "iat in the future", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":%d,"iat":%d}`, audience, exp, future)), SignetError: "signet.ErrIssuedInFuture",
			References: []string{"RFC 7519 §4.1.6"}},
		{ID: "jwt-exp-boundary", Title: "Verified at exactly its exp second (expired at exp)", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":%d,"iat":%d}`, audience, now, issued)), SignetError: "signet.ErrExpired",
			References: []string{"RFC 7519 §4.1.4"},
			Notes:      "exp is the time \"on or after which the JWT MUST NOT be accepted\": at exp the token is expired, with no leeway unless the verifier sets one."},
		{ID: "jwt-nbf-out-of-range", Title: "nbf 1e19, beyond any int64 second: a reader converting it wraps to the far past", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":%d,"nbf":1e19}`, audience, exp)), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7519 §2 (NumericDate)", "RFC 7519 §4.1.5"},
			Notes:      "A token not valid before a time no clock reaches; a float64-to-int64 conversion that overflows (math.MinInt64 on amd64) makes it valid since forever. signet reads NumericDates from 0 to 2^53 only."},
		{ID: "jwt-aud-other-service", Title: "aud names another service (a token issued for billing, replayed to this API)", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"iss":"https://issuer.example.com","sub":"admin","aud":"https://billing.example.com","exp":%d,"iat":%d}`, exp, issued)), SignetError: "signet.ErrAudience",
			References: []string{"RFC 7519 §4.1.3", "RFC 8725 §3.9"},
			Notes:      "One issuer and one key serve several services: only aud tells them apart."},
		{ID: "jwt-aud-verifier-names-none", Title: "Token with aud, verifier naming no audience", Alg: "HS256", Key: keyHS, Audience: namesNone,
			Token: hs(hHS, admin), SignetError: "signet.ErrAudience",
			References: []string{"RFC 7519 §4.1.3", "RFC 8725 §3.9"},
			Notes:      "RFC 7519 §4.1.3: a principal that does not identify itself with a value of a present aud MUST reject the token. The case's verifier names no audience (the case has none), as an application that never set one; signet refuses unless the policy opts out (IgnoreAudience)."},
		{ID: "jwt-exp-as-string", Title: `exp as a string ("0"): a lax parser skips it and the token never expires`, Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","aud":%q,"exp":"0"}`, audience)), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7519 §2 (NumericDate)", "RFC 7519 §4.1.4"}},
		{ID: "jwt-aud-type-confusion", Title: "aud as an object", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"admin","exp":%d,"aud":{"https://api.example.com":true}}`, exp)), SignetError: "signet.ErrMalformed",
			References: []string{"CVE-2020-26160", "RFC 7519 §4.1.3"}},
		{ID: "jwt-invalid-utf8", Title: "Invalid UTF-8 in a claim", Alg: "HS256", Key: keyHS,
			Token: hs(hHS, fmt.Sprintf(`{"sub":"adm`+"\xff"+`in","aud":%q,"exp":%d}`, audience, exp)), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 8725 §3.7", "RFC 8259 §8.1"}},

		// Tampering and encoding.
		{ID: "jwt-tampered-payload", Title: "Claims changed (sub: admin), original signature kept", Alg: "HS256", Key: keyHS,
			Token: valid[:d1+1] + seg(admin) + valid[d2:], SignetError: "signet.ErrSignatureInvalid",
			References: []string{"RFC 7515 §5.2"}},
		{ID: "jwt-signature-stripped", Title: "Signature removed, alg kept (empty third segment)", Alg: "HS256", Key: keyHS,
			Token: valid[:d2+1], SignetError: "signet.ErrMalformed",
			References: []string{"CVE-2020-28042", "https://www.shielder.com/advisories/servicestack-jwt-signature-verification-bypass/"},
			Notes:      "ServiceStack ≤ 5.9.1 compared only as many bytes as the token carried, so an empty signature passed."},
		{ID: "jwt-truncated-mac", Title: "HMAC cut to its first 16 bytes", Alg: "HS256", Key: keyHS,
			Token: valid[:d2+1] + b64u(must(b64Decode(validSig))[:16]), SignetError: "signet.ErrSignatureInvalid",
			References: []string{"CVE-2020-28042", "RFC 7518 §3.2"}},
		{ID: "jwt-non-canonical-base64", Title: "Signature's last character with non-zero unused bits (same bytes, other text)", Alg: "HS256", Key: keyHS,
			Token: valid[:len(valid)-1] + nonCanonical(valid[len(valid)-1]), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7515 §2", "RFC 4648 §3.5"}},
		{ID: "jwt-padded-signature", Title: "Signature with base64 padding", Alg: "HS256", Key: keyHS,
			Token: valid + "=", SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7515 §2"}},
		{ID: "jwt-standard-base64", Title: "Signature in the standard base64 alphabet (+ and /)", Alg: "HS256", Key: keyHS,
			Token: valid[:d2+1] + stdAlphabet(validSig), SignetError: "signet.ErrMalformed",
			References: []string{"RFC 7515 §2"}},
		{ID: "jwt-dot-flood", Title: "70 000 dots (allocation per dot in a naive split)", Alg: "HS256", Key: keyHS,
			Token: strings.Repeat(".", 70000), SignetError: "signet.ErrTooLarge",
			References: []string{"CVE-2025-30204", "CVE-2025-27144", "CVE-2025-22868"},
			Notes:      "signet refuses any token over its 64 KiB default limit before looking at it."},
	}
	return finish(cases)
}

// attackerCert is a self-signed certificate for the attacker's Ed25519 key.
func (g *gen) attackerCert() []byte {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "victim.example"},
		NotBefore:    time.Unix(issued, 0).UTC(),
		NotAfter:     time.Unix(exp, 0).UTC(),
	}
	return must(x509.CreateCertificate(rand.Reader, tmpl, tmpl, g.edAttacker.Public(), g.edAttacker))
}

// nonCanonical returns a last character that decodes to the same bytes
// with non-zero unused bits (an HS256 signature's 43 characters leave 2).
func nonCanonical(c byte) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(alphabet, c)
	return string(alphabet[i|1])
}

func stdAlphabet(s string) string {
	r := strings.NewReplacer("-", "+", "_", "/").Replace(s)
	if !strings.ContainsAny(r, "+/") {
		panic("signature has no character that differs between the alphabets")
	}
	return r
}
