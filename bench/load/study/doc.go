// Package study is the handler shape of the Go JWT QPS study the HTTP lab
// reproduces (issue 17): a minimal handler that issues a token per request
// (/issue), one that checks the Bearer token per request (/check), and the
// /hello baseline, for golang-jwt v5 and signet (HS256, RS256, PS256,
// ES256, EdDSA) and for go-paseto and signet (PASETO v4.public, v4.local).
//
// Every library runs in the same shape (handler.go): the same claims
// (the study's user_id and username, exp = now + 24 h, iat = now, and for
// the larger payload classes a list of permissions), the same Bearer
// parsing, the same JSON response written by the same function. Only the
// call into the library differs, and each library is called as the study
// calls golang-jwt (NewWithClaims, SignedString, ParseWithClaims) or as its
// documentation shows.
//
//	keys, _ := study.NewKeys()
//	toks, _ := study.New("signet", "ES256", "small", keys)
//	http.ListenAndServe("127.0.0.1:8080", study.Handler(toks))
//
// The scenario server (bench/cmd/loadsrv) serves this handler, writes the
// tokens wrk's scripts send to /check (WriteTokens), and the lab's scenario
// list (package load) takes each primitive's cost from Floor: the raw
// signature or verification on the bytes of the same token, the bound the
// Targets of issue 17 compare against.
package study
