package lab

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/jwk"
	"github.com/signet-go/signet/jwt"
)

// RemoteCooldown is signet's default kid-miss cooldown (docs/design.md,
// 7b): the flood's bound is ⌈T / RemoteCooldown⌉ + 1 fetches.
const RemoteCooldown = 30 * time.Second

// RemoteCase is one scenario of the remote key sets section.
type RemoteCase struct {
	ID    string // results.json's op: "kid-flood-fetches", …
	Title string // the report's row
	Pass  string // what signet's defaults call a pass
}

// RemoteCases lists the scenarios in the report's order.
var RemoteCases = []RemoteCase{
	{"kid-flood-fetches", "kid flood: fetches", "at most ⌈T / 30 s⌉ + 1 fetches while the flood lasts, no flood token accepted"},
	{"kid-flood-latency", "kid flood: latency", "every valid token verified during the flood, their p99 below the IdP's answer time (they never wait on a fetch), and no more flood lookups held for the IdP's answer time than verifiers × the fetch bound (only those sharing an allowed fetch wait)"},
	{"rotation", "rotation picked up", "a key published after start-up verifies its first token (the kid miss refetches the set)"},
	{"start-down", "start-up with the IdP down", "start-up returns within 1 s while the JWKS answers 500, and once it is back a valid token verifies within 3 s"},
	{"unsupported-key", "unsupported keys mixed in", "an Ed448 OKP key and an unknown kty (AKP) next to the ES256 key: the ES256 key still verifies"},
	{"no-alg-key", "key without alg", "an EC P-256 JWK without alg verifies ES256 tokens when ES256 is the configured algorithm"},
	{"outage-cached", "outage: cached keys served", "when the JWKS answers 500, then refuses connections, the cached key keeps verifying"},
	{"outage-bound", "outage: bounded staleness", "with a staleness bound set, past it the set reports unavailable (503), not an invalid token"},
	{"redirect", "redirect not followed", "a 302 to another server is not followed: the key found there is not used"},
	{"huge-body", "10 MiB body refused", "a 10 MiB JWK Set (valid JSON) is refused: the body cap is 1 MiB"},
}

// Outcomes of a remote scenario.
const (
	RemotePass = "pass"
	RemoteFail = "fail"
	RemoteNA   = "n/a" // the library has no such setting
)

// RemoteResult is one library × scenario outcome with its figures.
type RemoteResult struct {
	Case    string `json:"case"`
	Lib     string `json:"lib"`
	Outcome string `json:"outcome"`
	Detail  string `json:"detail"`
	// The flood's figures (kid-flood-*): tokens sent in Seconds, the
	// fetches the server saw meanwhile and the bound, the flood lookups'
	// latency, and the valid tokens' before and during the flood.
	Tokens      int     `json:"tokens,omitempty"`
	Seconds     float64 `json:"seconds,omitempty"`
	Fetches     int64   `json:"fetches,omitempty"`
	Bound       int64   `json:"bound,omitempty"`
	Accepted    int     `json:"accepted,omitempty"`
	P50Ms       float64 `json:"p50_ms,omitempty"`
	P99Ms       float64 `json:"p99_ms,omitempty"`
	MaxMs       float64 `json:"max_ms,omitempty"`
	Held        int     `json:"held,omitempty"` // flood lookups that took at least the IdP's answer time
	ValidP50Ms  float64 `json:"valid_p50_ms,omitempty"`
	ValidP99Ms  float64 `json:"valid_p99_ms,omitempty"`
	BaseP50Ms   float64 `json:"base_p50_ms,omitempty"`
	BaseP99Ms   float64 `json:"base_p99_ms,omitempty"`
	ValidFailed int     `json:"valid_failed,omitempty"`
}

// RemoteOptions sizes a run of the remote scenarios; zero fields take the
// defaults named.
type RemoteOptions struct {
	Libs       []RemoteLib   // default RemoteLibs()
	Tokens     int           // flood tokens with random kids, default 10,000
	Duration   time.Duration // the flood's length T, default 10 s
	Workers    int           // concurrent verifiers of the flood (a server's requests in flight), default 32
	FetchDelay time.Duration // the JWKS server's answer time, default 50 ms
	MaxStale   time.Duration // the staleness bound of outage-bound, default 1 s
	StartWait  time.Duration // bound on a library's start-up, default 5 s
	Progress   io.Writer     // one line per library, when not nil
}

func (o *RemoteOptions) defaults() {
	if o.Libs == nil {
		o.Libs = RemoteLibs()
	}
	if o.Tokens == 0 {
		o.Tokens = 10000
	}
	if o.Duration == 0 {
		o.Duration = 10 * time.Second
	}
	if o.Workers == 0 {
		o.Workers = 32
	}
	if o.FetchDelay == 0 {
		o.FetchDelay = 50 * time.Millisecond
	}
	if o.MaxStale == 0 {
		o.MaxStale = time.Second
	}
	if o.StartWait == 0 {
		o.StartWait = 5 * time.Second
	}
}

// FloodBound is the fetches a flood of d may cause under signet's default
// cooldown: ⌈d / RemoteCooldown⌉ + 1.
func FloodBound(d time.Duration) int64 {
	return int64(math.Ceil(float64(d)/float64(RemoteCooldown))) + 1
}

// remoteFixture holds the keys, sets and tokens every library meets.
type remoteFixture struct {
	cfg        RemoteConfig
	goodToken  string // ES256, kid "good-1", in setGood
	newToken   string // ES256, kid "next-1", in setRotated only
	noAlgToken string // ES256, kid "noalg-1", in setNoAlg (its JWK has no alg)
	unknown    string // ES256 by the attacker, kid not in any set
	flood      []string
	setGood    []byte
	setRotated []byte // good-1 and next-1
	setMixed   []byte // Ed448 OKP, AKP (ML-DSA-44), then good-1
	setNoAlg   []byte
}

const (
	remoteIssuer   = "https://idp.lab.test"
	remoteAudience = "signet-lab"
)

func newRemoteFixture(tokens int) (*remoteFixture, error) {
	f := &remoteFixture{cfg: RemoteConfig{Alg: "ES256", Issuer: remoteIssuer, Audience: remoteAudience}}
	good, err := signet.GenerateKeyWithID(signet.ES256, "good-1")
	if err != nil {
		return nil, err
	}
	next, err := signet.GenerateKeyWithID(signet.ES256, "next-1")
	if err != nil {
		return nil, err
	}
	noAlg, err := signet.GenerateKeyWithID(signet.ES256, "noalg-1")
	if err != nil {
		return nil, err
	}
	attacker, err := signet.GenerateKey(signet.ES256)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	c := jwt.Claims{Issuer: remoteIssuer, Subject: "user-1", Audience: jwt.Audience{remoteAudience}, IssuedAt: jwt.At(now), ExpiresAt: jwt.At(now.Add(2 * time.Hour))}
	if f.goodToken, err = jwt.Sign(good, c); err != nil {
		return nil, err
	}
	if f.newToken, err = jwt.Sign(next, c); err != nil {
		return nil, err
	}
	if f.noAlgToken, err = jwt.Sign(noAlg, c); err != nil {
		return nil, err
	}
	if f.unknown, err = jwt.Sign(attacker.WithKeyID("not-in-the-set"), c); err != nil {
		return nil, err
	}
	f.flood = make([]string, tokens)
	kid := make([]byte, 16)
	for i := range f.flood {
		rand.Read(kid)
		if f.flood[i], err = jwt.Sign(attacker.WithKeyID(hex.EncodeToString(kid)), c); err != nil {
			return nil, err
		}
	}
	goodJWK, err := publicJWK(good)
	if err != nil {
		return nil, err
	}
	nextJWK, err := publicJWK(next)
	if err != nil {
		return nil, err
	}
	noAlgJWK, err := publicJWK(noAlg)
	if err != nil {
		return nil, err
	}
	delete(noAlgJWK, "alg")
	ed448 := map[string]any{"kty": "OKP", "crv": "Ed448", "kid": "ed448-1", "use": "sig", "x": randB64(57)}
	akp := map[string]any{"kty": "AKP", "alg": "ML-DSA-44", "kid": "mldsa-1", "use": "sig", "pub": randB64(1312)}
	if f.setGood, err = jwkSet(goodJWK); err != nil {
		return nil, err
	}
	if f.setRotated, err = jwkSet(goodJWK, nextJWK); err != nil {
		return nil, err
	}
	if f.setMixed, err = jwkSet(ed448, akp, goodJWK); err != nil {
		return nil, err
	}
	if f.setNoAlg, err = jwkSet(noAlgJWK); err != nil {
		return nil, err
	}
	return f, nil
}

// publicJWK is k's public JWK (signet's jwk.MarshalSet) as members.
func publicJWK(k *signet.Key) (map[string]any, error) {
	pub, err := k.Public()
	if err != nil {
		return nil, err
	}
	data, err := jwk.MarshalSet(pub)
	if err != nil {
		return nil, err
	}
	var set struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, err
	}
	if len(set.Keys) != 1 {
		return nil, fmt.Errorf("lab: a set of one key has %d", len(set.Keys))
	}
	return set.Keys[0], nil
}

func jwkSet(keys ...map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"keys": keys})
}

func randB64(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// RunRemote runs every scenario against every library and returns one
// result per library and scenario, in RemoteCases' order per library.
func RunRemote(o RemoteOptions) ([]RemoteResult, error) {
	o.defaults()
	f, err := newRemoteFixture(o.Tokens)
	if err != nil {
		return nil, err
	}
	var out []RemoteResult
	for _, lib := range o.Libs {
		started := time.Now()
		r := &remoteRun{o: o, f: f, lib: lib}
		rs := r.all()
		out = append(out, rs...)
		if o.Progress != nil {
			pass := 0
			for _, x := range rs {
				if x.Outcome == RemotePass {
					pass++
				}
			}
			fmt.Fprintf(o.Progress, "lab: remote key sets: %s: %d of %d cases pass signet's defaults (%v)\n", lib.Name(), pass, len(rs), time.Since(started).Round(100*time.Millisecond))
		}
	}
	return out, nil
}

// remoteRun is one library's pass through the scenarios.
type remoteRun struct {
	o   RemoteOptions
	f   *remoteFixture
	lib RemoteLib
}

func (r *remoteRun) all() []RemoteResult {
	var out []RemoteResult
	out = append(out, r.flood()...)
	out = append(out, r.rotation(), r.startDown(), r.unsupported(), r.noAlg(), r.outage(), r.outageBound(), r.redirect(), r.hugeBody())
	for i := range out {
		out[i].Lib = r.lib.Name()
	}
	return out
}

// open starts the library on srv within StartWait (a start-up that hangs
// is cut there and reported).
func (r *remoteRun) open(url string, cfg RemoteConfig) (RemoteSet, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.o.StartWait)
	defer cancel()
	type opened struct {
		s   RemoteSet
		err error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := r.lib.Open(ctx, url, cfg)
		done <- opened{s, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, fmt.Errorf("start-up failed (bounded at %v): %w", r.o.StartWait, o.err)
		}
		return o.s, nil
	case <-time.After(r.o.StartWait + time.Second):
		// The library ignored its context: close what it opens later.
		go func() {
			if o := <-done; o.s != nil {
				o.s.Close()
			}
		}()
		return nil, fmt.Errorf("start-up hung past %v", r.o.StartWait)
	}
}

// verify is one request's verification, under a request's deadline.
func (r *remoteRun) verify(s RemoteSet, token string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	t := time.Now()
	err := safeVerify(ctx, s, token)
	return time.Since(t), err
}

// safeVerify turns a library's panic into an error.
func safeVerify(ctx context.Context, s RemoteSet, token string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return s.Verify(ctx, token)
}

func res(c, outcome, detail string) RemoteResult {
	return RemoteResult{Case: c, Outcome: outcome, Detail: detail}
}

func passIf(ok bool) string {
	if ok {
		return RemotePass
	}
	return RemoteFail
}

// short clips an error message for the report: its start and its end
// (where a wrapped cause says why), at most 160 bytes.
func short(err error) string {
	s := strings.ReplaceAll(err.Error(), "\n", " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 160 {
		head, tail := s[:60], s[len(s)-97:]
		for !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
		for !utf8.ValidString(tail) {
			tail = tail[1:]
		}
		s = head + " … " + tail
	}
	return s
}

// pluralFetch is "1 fetch" or "n fetches".
func pluralFetch(n int64) string {
	if n == 1 {
		return "1 fetch"
	}
	return fmt.Sprintf("%d fetches", n)
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

// percentile is the p-th percentile (0..100) of ds, sorted in place.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(math.Ceil(p/100*float64(len(ds)))) - 1
	return ds[max(0, min(i, len(ds)-1))]
}

// flood sends Tokens tokens with random kids over Duration from Workers
// verifiers, while a prober verifies the valid token every 5 ms.
func (r *remoteRun) flood() []RemoteResult {
	fail := func(msg string) []RemoteResult {
		return []RemoteResult{res("kid-flood-fetches", RemoteFail, msg), res("kid-flood-latency", RemoteFail, msg)}
	}
	srv := newJWKSServer(r.f.setGood, r.o.FetchDelay)
	defer srv.Close()
	s, err := r.open(srv.URL(), r.f.cfg)
	if err != nil {
		return fail(err.Error())
	}
	defer s.Close()
	if _, err := r.verify(s, r.f.goodToken); err != nil {
		return fail("the valid token was refused before the flood: " + short(err))
	}
	// The valid token's latency, as the prober sees it, for a while
	// before the flood: the figure the flood's is compared with.
	stop := make(chan struct{})
	time.AfterFunc(max(200*time.Millisecond, r.o.Duration/5), func() { close(stop) })
	base, baseFail := r.probe(s, stop)
	if baseFail > 0 {
		return fail(fmt.Sprintf("the valid token was refused %d times before the flood", baseFail))
	}

	var (
		mu        sync.Mutex
		lookups   []time.Duration
		valid     []time.Duration
		validFail int
		accepted  atomic.Int64
		sent      int
	)
	f0 := srv.Fetches()
	start := time.Now()
	end := start.Add(r.o.Duration)
	jobs := make(chan string, r.o.Workers)
	var wg sync.WaitGroup
	for range r.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for tok := range jobs {
				d, err := r.verify(s, tok)
				if err == nil {
					accepted.Add(1)
				}
				mine = append(mine, d)
			}
			mu.Lock()
			lookups = append(lookups, mine...)
			mu.Unlock()
		}()
	}
	stopProbe := make(chan struct{})
	probed := make(chan struct{})
	go func() {
		defer close(probed)
		valid, validFail = r.probe(s, stopProbe)
	}()
	// Dispatch: every 10 ms, the tokens due by then; a library that holds
	// its callers cuts the flood short at T plus a grace of T/10.
	n := len(r.f.flood)
	deadline := time.NewTimer(r.o.Duration + r.o.Duration/10)
dispatch:
	for sent < n {
		due := n
		if el := time.Since(start); el < r.o.Duration {
			due = min(n, int(float64(n)*float64(el)/float64(r.o.Duration))+1)
		}
		for sent < due {
			select {
			case jobs <- r.f.flood[sent]:
				sent++
			case <-deadline.C:
				break dispatch
			}
		}
		if sent < n {
			time.Sleep(min(10*time.Millisecond, max(time.Millisecond, time.Until(end))))
		}
	}
	deadline.Stop()
	close(jobs)
	wg.Wait()
	close(stopProbe)
	<-probed
	elapsed := time.Since(start)
	fetches := srv.Fetches() - f0

	bound := FloodBound(r.o.Duration)
	fr := RemoteResult{Case: "kid-flood-fetches", Tokens: sent, Seconds: math.Round(elapsed.Seconds()*100) / 100, Fetches: fetches, Bound: bound, Accepted: int(accepted.Load())}
	fr.Outcome = passIf(fetches <= bound && fr.Accepted == 0)
	fr.Detail = fmt.Sprintf("%s for %d tokens with random kids in %.1f s (bound %d; %s at start-up)", pluralFetch(fetches), sent, elapsed.Seconds(), bound, pluralFetch(f0))
	if fetches == 0 {
		fr.Detail += "; no refetch on an unknown kid, so a key rotated in waits for the next scheduled refresh"
	}
	if sent < n {
		fr.Detail += fmt.Sprintf("; only %d of %d tokens could be sent (the library held its callers)", sent, n)
	}
	if fr.Accepted > 0 {
		fr.Detail += fmt.Sprintf("; **%d flood tokens ACCEPTED**", fr.Accepted)
	}

	held := 0
	for _, d := range lookups {
		if d >= r.o.FetchDelay {
			held++
		}
	}
	lr := RemoteResult{Case: "kid-flood-latency", Tokens: sent, Held: held, ValidFailed: validFail}
	lr.P50Ms, lr.P99Ms, lr.MaxMs = ms(percentile(lookups, 50)), ms(percentile(lookups, 99)), ms(percentile(lookups, 100))
	lr.BaseP50Ms, lr.BaseP99Ms = ms(percentile(base, 50)), ms(percentile(base, 99))
	lr.ValidP50Ms, lr.ValidP99Ms = ms(percentile(valid, 50)), ms(percentile(valid, 99))
	// Only the lookups that share an allowed fetch may wait on the IdP:
	// at most one per verifier (Workers) for each of the bound's fetches.
	lr.Outcome = passIf(lr.ValidFailed == 0 && len(valid) > 0 && percentile(valid, 99) < r.o.FetchDelay && int64(held) <= bound*int64(r.o.Workers))
	lr.Detail = fmt.Sprintf("valid p50/p99 %.2f/%.2f ms (before %.2f/%.2f); flood lookups p50/p99/max %.2f/%.2f/%.1f ms, %d held ≥ %v",
		lr.ValidP50Ms, lr.ValidP99Ms, lr.BaseP50Ms, lr.BaseP99Ms, lr.P50Ms, lr.P99Ms, lr.MaxMs, held, r.o.FetchDelay)
	if lr.ValidFailed > 0 {
		lr.Detail += fmt.Sprintf("; **%d of %d valid tokens refused**", lr.ValidFailed, len(valid))
	}
	return []RemoteResult{fr, lr}
}

// probe verifies the valid token every 5 ms until stop is closed, and
// returns the latencies and the number refused.
func (r *remoteRun) probe(s RemoteSet, stop <-chan struct{}) ([]time.Duration, int) {
	var ds []time.Duration
	failed := 0
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return ds, failed
		case <-tick.C:
			d, err := r.verify(s, r.f.goodToken)
			if err != nil {
				failed++
			}
			ds = append(ds, d)
		}
	}
}

// single serves body, opens the library and verifies token once.
func (r *remoteRun) single(body []byte, token string) (RemoteSet, error) {
	srv := newJWKSServer(body, 0)
	defer srv.Close()
	s, err := r.open(srv.URL(), r.f.cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	_, err = r.verify(s, token)
	return s, err
}

func (r *remoteRun) rotation() RemoteResult {
	srv := newJWKSServer(r.f.setGood, 0)
	defer srv.Close()
	s, err := r.open(srv.URL(), r.f.cfg)
	if err != nil {
		return res("rotation", RemoteFail, err.Error())
	}
	defer s.Close()
	if _, err := r.verify(s, r.f.goodToken); err != nil {
		return res("rotation", RemoteFail, "refused before the rotation: "+short(err))
	}
	srv.set(r.f.setRotated, 0, "", 0)
	f0 := srv.Fetches()
	if _, err := r.verify(s, r.f.newToken); err != nil {
		return res("rotation", RemoteFail, fmt.Sprintf("the new key's first token refused (%s since): %s", pluralFetch(srv.Fetches()-f0), short(err)))
	}
	return res("rotation", RemotePass, fmt.Sprintf("the new key's first token verified (%s)", pluralFetch(srv.Fetches()-f0)))
}

func (r *remoteRun) startDown() RemoteResult {
	srv := newJWKSServer(r.f.setGood, 0)
	defer srv.Close()
	srv.fail()
	t := time.Now()
	s, err := r.open(srv.URL(), r.f.cfg)
	took := time.Since(t)
	if err != nil {
		return res("start-down", RemoteFail, fmt.Sprintf("start-up returned an error after %.1f s: %s", took.Seconds(), short(err)))
	}
	defer s.Close()
	srv.set(r.f.setGood, 0, "", 0)
	back := time.Now()
	for {
		_, err = r.verify(s, r.f.goodToken)
		if err == nil || time.Since(back) > 3*time.Second {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	switch {
	case err != nil:
		return res("start-down", RemoteFail, fmt.Sprintf("start-up returned in %.2f s, but the token was still refused 3 s after the IdP came back: %s", took.Seconds(), short(err)))
	case took > time.Second:
		return res("start-down", RemoteFail, fmt.Sprintf("start-up held the caller %.1f s; the token verified %.1f s after the IdP came back", took.Seconds(), time.Since(back).Seconds()))
	}
	return res("start-down", RemotePass, fmt.Sprintf("start-up returned in %.2f s; the token verified %.1f s after the IdP came back", took.Seconds(), time.Since(back).Seconds()))
}

func (r *remoteRun) unsupported() RemoteResult {
	s, err := r.single(r.f.setMixed, r.f.goodToken)
	if err != nil {
		return res("unsupported-key", RemoteFail, "the ES256 key does not verify (the set was not taken): "+short(err))
	}
	detail := "the ES256 key verifies"
	if sk, ok := s.(remoteSkipped); ok {
		detail += fmt.Sprintf("; %d keys skipped and counted", sk.SkippedKeys())
	}
	return res("unsupported-key", RemotePass, detail)
}

func (r *remoteRun) noAlg() RemoteResult {
	if _, err := r.single(r.f.setNoAlg, r.f.noAlgToken); err != nil {
		return res("no-alg-key", RemoteFail, "refused: "+short(err))
	}
	return res("no-alg-key", RemotePass, "verifies with the configured ES256")
}

// trigger is what an application meets during an outage: an explicit
// refresh where the library has one, and a token with an unknown kid
// (the kid-miss refetch).
func (r *remoteRun) trigger(s RemoteSet) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.Refresh(ctx)
	r.verify(s, r.f.unknown)
}

func (r *remoteRun) outage() RemoteResult {
	srv := newJWKSServer(r.f.setGood, 0)
	defer srv.Close()
	s, err := r.open(srv.URL(), r.f.cfg)
	if err != nil {
		return res("outage-cached", RemoteFail, err.Error())
	}
	defer s.Close()
	if _, err := r.verify(s, r.f.goodToken); err != nil {
		return res("outage-cached", RemoteFail, "refused before the outage: "+short(err))
	}
	srv.fail()
	f0 := srv.Fetches()
	r.trigger(s)
	_, err500 := r.verify(s, r.f.goodToken)
	attempts := srv.Fetches() - f0
	srv.Close()
	r.trigger(s)
	_, errRefused := r.verify(s, r.f.goodToken)
	switch {
	case err500 != nil:
		return res("outage-cached", RemoteFail, fmt.Sprintf("the cached key was dropped after a 500 (%s tried): %s", pluralFetch(attempts), short(err500)))
	case errRefused != nil:
		return res("outage-cached", RemoteFail, "the cached key was dropped after a refused connection: "+short(errRefused))
	}
	return res("outage-cached", RemotePass, fmt.Sprintf("served through 500s (%s tried) and refused connections", pluralFetch(attempts)))
}

func (r *remoteRun) outageBound() RemoteResult {
	cfg := r.f.cfg
	if r.lib.StaleBound() {
		cfg.MaxStale = r.o.MaxStale
	}
	srv := newJWKSServer(r.f.setGood, 0)
	defer srv.Close()
	s, err := r.open(srv.URL(), cfg)
	if err != nil {
		return res("outage-bound", RemoteFail, err.Error())
	}
	defer s.Close()
	if _, err := r.verify(s, r.f.goodToken); err != nil {
		return res("outage-bound", RemoteFail, "refused before the outage: "+short(err))
	}
	srv.fail()
	r.trigger(s)
	_, errEarly := r.verify(s, r.f.goodToken)
	wait := r.o.MaxStale + 200*time.Millisecond
	time.Sleep(wait)
	r.trigger(s)
	_, errLate := r.verify(s, r.f.goodToken)
	if !r.lib.StaleBound() {
		served := "still verified"
		if errLate != nil {
			served = "refused (" + short(errLate) + ")"
		}
		return res("outage-bound", RemoteNA, fmt.Sprintf("no setting bounds staleness; after %.1f s of outage the cached key %s", wait.Seconds(), served))
	}
	u, _ := s.(remoteUnavailable)
	switch {
	case errEarly != nil:
		return res("outage-bound", RemoteFail, "refused within the bound: "+short(errEarly))
	case errLate == nil:
		return res("outage-bound", RemoteFail, fmt.Sprintf("still served %.1f s into an outage bounded at %v", wait.Seconds(), r.o.MaxStale))
	case u == nil || !u.Unavailable(errLate):
		return res("outage-bound", RemoteFail, "refused past the bound, but not as unavailable: "+short(errLate))
	}
	return res("outage-bound", RemotePass, fmt.Sprintf("served within the %v bound, then unavailable (503) at %.1f s", r.o.MaxStale, wait.Seconds()))
}

func (r *remoteRun) redirect() RemoteResult {
	target := newJWKSServer(r.f.setGood, 0)
	defer target.Close()
	srv := newJWKSServer(nil, 0)
	defer srv.Close()
	srv.set(nil, 0, target.URL(), 0)
	s, err := r.open(srv.URL(), r.f.cfg)
	if err == nil {
		defer s.Close()
		_, err = r.verify(s, r.f.goodToken)
	}
	if err == nil || target.Fetches() > 0 {
		verified := "the token verified"
		if err != nil {
			verified = "the token was refused"
		}
		return res("redirect", RemoteFail, fmt.Sprintf("followed: the redirect's target was fetched %d time(s); %s", target.Fetches(), verified))
	}
	return res("redirect", RemotePass, "not followed (the target was never fetched): "+short(err))
}

func (r *remoteRun) hugeBody() RemoteResult {
	const size = 10 << 20
	srv := newJWKSServer(r.f.setGood, 0)
	defer srv.Close()
	srv.set(r.f.setGood, 0, "", size-len(r.f.setGood))
	s, err := r.open(srv.URL(), r.f.cfg)
	if err == nil {
		defer s.Close()
		_, err = r.verify(s, r.f.goodToken)
	}
	if err == nil {
		return res("huge-body", RemoteFail, "read the 10 MiB set and verified with it")
	}
	return res("huge-body", RemotePass, "refused: "+short(err))
}
