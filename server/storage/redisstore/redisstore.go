// Package redisstore is the token service's shared store (`signet serve
// --redis URL`): a storage.Store in Redis, so that any number of
// stateless instances behind a load balancer keep one key ring (rotated
// by exactly one of them, by compare-and-swap), and see each other's
// revocations and used assertion ids at once.
//
//	s, err := redisstore.Open(ctx, "redis://127.0.0.1:6379/0", redisstore.Options{})
//	if err != nil { … } // Redis unreachable: ErrUnavailable
//	defer s.Close()
//
// Every operation is bounded by Options.Timeout (250 ms by default, as
// DESIGN §7 says); a timeout, a refused or broken connection or any
// other failure to get Redis's answer returns an error wrapping
// storage.ErrUnavailable, so that the service fails closed (503) and never
// treats a token whose revocation it could not check as valid. The client
// reconnects by itself: when Redis returns, the same Store works again.
//
// Layout, under Options.Prefix ("signet:" by default; give each service
// its own when they share a Redis):
//
//	<prefix>keys          hash: version (decimal), ring (storage.EncodeKeyRing JSON)
//	<prefix>revoked:<jti>  until (20 digits, ordered), with a TTL
//	<prefix>used:<id>      until, with a TTL
//
// SwapKeys is one Lua script that compares the stored version and writes
// the new ring, atomic across instances. Nothing is read back without a
// bound: Keys is a script that sends the ring only when it is at most
// storage.MaxKeyRingSize bytes (a longer one is ErrInvalid), and Revoked
// reads at most 21 bytes of an entry (one not of this package's form
// counts as revoked). Revoke is a script that keeps the
// later until; UseOnce a script that sets the id when absent (SET NX
// semantics, atomic, one winner among any number of callers). An entry
// lives while the store's clock (Options.Now) is before its until: the
// until is compared on every read, and Redis's TTL, until − now +
// Options.Margin, only collects the key afterwards, so clock skew between
// Redis and the instances never ends an entry early by less than the
// margin. Leeway the service grants on exp belongs in the until it passes.
//
// Run Redis with maxmemory-policy noeviction (its default) or with no
// maxmemory: under an eviction policy a full Redis would drop live
// revocations and used ids (every entry has a TTL, so even the volatile-*
// policies pick them), making revoked tokens valid again; with
// noeviction a full Redis refuses writes, which this package reports as
// ErrUnavailable: the service fails closed.
//
// It needs Redis 4.0 or later (Lua scripts, HSET of several fields);
// the tests run against Debian's redis-server 7.0, each starting its own
// on a free loopback port (scripts/install-redis.sh installs it). The
// client speaks to the one server at the URL: Redis Cluster and Sentinel
// are not supported.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signet-go/signet/server/storage"
	istamp "github.com/signet-go/signet/server/storage/internal/stamp"
)

// DefaultPrefix is the key prefix when Options.Prefix is empty.
const DefaultPrefix = "signet:"

// DefaultTimeout bounds each operation when Options.Timeout is zero
// (DESIGN §7: Redis operations time out after 250 ms).
const DefaultTimeout = 250 * time.Millisecond

// DefaultMargin is how long Redis keeps an entry past its until when
// Options.Margin is zero: slack for clock skew between Redis and the
// instances.
const DefaultMargin = 30 * time.Second

// maxTTL caps a TTL so that Redis accepts it (an until in the far future
// is kept for about 35,000 years, which is as good as for ever).
const maxTTL = 1 << 50 // milliseconds

// Options configure a Store. The zero value is the defaults.
type Options struct {
	// Prefix is put before every key (DefaultPrefix when empty).
	Prefix string
	// Timeout bounds each operation, connecting included (DefaultTimeout
	// when zero).
	Timeout time.Duration
	// Margin is how long an entry's key outlives its until in Redis
	// (DefaultMargin when zero).
	Margin time.Duration
	// Now is the store's clock (time.Now when nil): an entry lives while
	// Now() is before its until.
	Now func() time.Time
	// Lazy makes Open return the store without waiting for Redis to
	// answer: until it does, every operation fails with
	// storage.ErrUnavailable (so a service answers 503 and reports not
	// ready), and the store recovers by itself once Redis answers. Without
	// it, Open fails when Redis does not answer.
	Lazy bool
}

// Store is a storage.Store in Redis. Make one with Open; it is safe for
// concurrent use, and any number of Stores (in any number of processes)
// on one Redis with one prefix share their state.
type Store struct {
	rdb     *redis.Client
	prefix  string
	timeout time.Duration
	margin  time.Duration
	now     func() time.Time
	closed  atomic.Bool
}

var _ storage.Store = (*Store)(nil)

// Open connects to the Redis at url (redis://[user:password@]host:port/db,
// rediss:// for TLS, or unix://path) and checks that it answers. A url
// that does not parse is ErrInvalid; a Redis that does not answer within
// the timeout is ErrUnavailable (no Store is returned: the caller retries
// or exits). The url, which may hold a password, never appears in errors.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("%w: redisstore: the Redis URL does not parse", storage.ErrInvalid)
	}
	s := &Store{prefix: opts.Prefix, timeout: opts.Timeout, margin: opts.Margin, now: opts.Now}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	if s.margin <= 0 {
		s.margin = DefaultMargin
	}
	if s.now == nil {
		s.now = time.Now
	}
	ro.DialTimeout = s.timeout
	ro.ReadTimeout = s.timeout
	ro.WriteTimeout = s.timeout
	ro.PoolTimeout = s.timeout
	ro.ContextTimeoutEnabled = true
	// One retry, within the same deadline, of a command whose connection
	// broke (a pooled connection Redis closed). Every operation stays
	// correct when sent twice: a repeated UseOnce answers "used" (refusing,
	// never accepting twice), a repeated SwapKeys ErrConflict.
	ro.MaxRetries = 1
	ro.DisableIdentity = true
	s.rdb = redis.NewClient(ro)
	if opts.Lazy {
		return s, nil
	}
	if err := s.Ping(ctx); err != nil {
		s.rdb.Close()
		return nil, err
	}
	return s, nil
}

// op starts an operation: it refuses a closed store or a done context
// and bounds ctx by the timeout.
func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: redisstore: %v", storage.ErrUnavailable, err)
	}
	if s.closed.Load() {
		return nil, nil, fmt.Errorf("%w: redisstore: closed", storage.ErrUnavailable)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	return ctx, cancel, nil
}

// unavailable wraps a failure to get Redis's answer.
func unavailable(what string, err error) error {
	return fmt.Errorf("%w: redisstore: %s: %v", storage.ErrUnavailable, what, err)
}

// keysScript: KEYS[1] the ring's hash; ARGV[1] the longest ring read.
// Returns {version, ring} (each false when absent), or {version, false,
// length} for a ring over ARGV[1] bytes, which is not sent: every
// instance reads the ring every reload, and a string may hold 512 MB.
var keysScript = redis.NewScript(`
local n = redis.call('HSTRLEN', KEYS[1], 'ring')
local v = redis.call('HGET', KEYS[1], 'version')
if n > tonumber(ARGV[1]) then return {v, false, n} end
return {v, redis.call('HGET', KEYS[1], 'ring')}
`)

// Keys implements storage.Store.
func (s *Store) Keys(ctx context.Context) (storage.KeyRing, error) {
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return storage.KeyRing{}, err
	}
	defer cancel()
	vals, err := keysScript.Run(ctx, s.rdb, []string{s.prefix + "keys"}, storage.MaxKeyRingSize).Slice()
	if err != nil {
		return storage.KeyRing{}, unavailable("keys", err)
	}
	if len(vals) == 3 {
		return storage.KeyRing{}, fmt.Errorf("%w: redisstore: stored key ring of %v bytes (at most %d)", storage.ErrInvalid, vals[2], storage.MaxKeyRingSize)
	}
	if len(vals) != 2 {
		return storage.KeyRing{}, unavailable("keys", fmt.Errorf("script reply of %d values", len(vals)))
	}
	if vals[0] == nil && vals[1] == nil {
		return storage.KeyRing{}, nil
	}
	v, _ := vals[0].(string)
	enc, _ := vals[1].(string)
	version, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return storage.KeyRing{}, fmt.Errorf("%w: redisstore: stored key ring version %q", storage.ErrInvalid, v)
	}
	ring, err := storage.DecodeKeyRing([]byte(enc))
	if err != nil {
		return storage.KeyRing{}, err
	}
	ring.Version = version
	return ring, nil
}

// swapScript: KEYS[1] the ring's hash; ARGV: expected version, new
// version, new ring. Returns {1} on success, {0, stored version} on a
// conflict.
var swapScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'version') or '0'
if v ~= ARGV[1] then return {0, v} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'ring', ARGV[3])
return {1}
`)

// SwapKeys implements storage.Store.
func (s *Store) SwapKeys(ctx context.Context, old uint64, keys []storage.Key) (storage.KeyRing, error) {
	enc, err := storage.EncodeSwap(old, keys)
	if err != nil {
		return storage.KeyRing{}, err
	}
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return storage.KeyRing{}, err
	}
	defer cancel()
	res, err := swapScript.Run(ctx, s.rdb, []string{s.prefix + "keys"},
		strconv.FormatUint(old, 10), strconv.FormatUint(old+1, 10), enc).Slice()
	if err != nil {
		return storage.KeyRing{}, unavailable("swap keys", err)
	}
	if len(res) == 0 {
		return storage.KeyRing{}, unavailable("swap keys", errors.New("empty script reply"))
	}
	if ok, _ := res[0].(int64); ok != 1 {
		var stored any = "?"
		if len(res) > 1 {
			stored = res[1]
		}
		return storage.KeyRing{}, fmt.Errorf("%w: stored version %v, expected %d", storage.ErrConflict, stored, old)
	}
	return storage.DecodeKeyRing(enc)
}

// laterLua defines later(a, b): whether until a is at or after until b,
// comparing the 20-digit form in two halves that Lua's numbers hold
// exactly (a byte-wise string comparison would depend on Redis's locale).
const laterLua = `
local function later(a, b)
  local ah, bh = tonumber(string.sub(a, 1, 10)), tonumber(string.sub(b, 1, 10))
  if ah ~= bh then return ah > bh end
  return tonumber(string.sub(a, 11)) >= tonumber(string.sub(b, 11))
end
`

// revokeScript: KEYS[1] the revocation; ARGV: until, TTL in ms. Keeps the
// later until.
var revokeScript = redis.NewScript(laterLua + `
local cur = redis.call('GET', KEYS[1])
if cur and later(cur, ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`)

// Revoke implements storage.Store.
func (s *Store) Revoke(ctx context.Context, jti string, until time.Time) error {
	if err := storage.CheckID(jti); err != nil {
		return err
	}
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	now := s.now()
	if !until.After(now) {
		return nil // the token has expired: nothing to refuse
	}
	err = revokeScript.Run(ctx, s.rdb, []string{s.prefix + "revoked:" + jti}, stamp(until), s.ttl(now, until)).Err()
	if err != nil {
		return unavailable("revoke", err)
	}
	return nil
}

// Revoked implements storage.Store.
func (s *Store) Revoked(ctx context.Context, jti string) (bool, error) {
	if err := storage.CheckID(jti); err != nil {
		return false, err
	}
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return false, err
	}
	defer cancel()
	// At most 21 bytes: one more than this package writes, so that a
	// longer value is seen as foreign without being read whole. A key
	// that is absent (or, foreign, empty) reads as "".
	cur, err := s.rdb.GetRange(ctx, s.prefix+"revoked:"+jti, 0, 20).Result()
	if err != nil {
		return false, unavailable("revoked", err)
	}
	if cur == "" {
		return false, nil
	}
	// A value not of this package's form counts as revoked: fail closed.
	return len(cur) != 20 || cur > stamp(s.now()), nil
}

// useScript: KEYS[1] the used id; ARGV: until, now, TTL in ms ("0" when
// until is past: first use, nothing to remember). Returns 1 for a first
// use.
var useScript = redis.NewScript(laterLua + `
local cur = redis.call('GET', KEYS[1])
if cur and not later(ARGV[2], cur) then return 0 end
if ARGV[3] == '0' then
  redis.call('DEL', KEYS[1])
  return 1
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
`)

// UseOnce implements storage.Store.
func (s *Store) UseOnce(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := storage.CheckID(id); err != nil {
		return false, err
	}
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return false, err
	}
	defer cancel()
	now := s.now()
	ttl := "0"
	if until.After(now) {
		ttl = s.ttl(now, until)
	}
	first, err := useScript.Run(ctx, s.rdb, []string{s.prefix + "used:" + id}, stamp(until), stamp(now), ttl).Int()
	if err != nil {
		return false, unavailable("use once", err)
	}
	return first == 1, nil
}

// Ping implements storage.Store: it fails when Redis does not answer
// within the timeout.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel, err := s.op(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return unavailable("ping", err)
	}
	return nil
}

// Close implements storage.Store: it closes the connections; later calls
// fail with storage.ErrUnavailable. Closing twice is no error.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.rdb.Close()
}

// ttl is the key's TTL in milliseconds for an entry until until, seen at
// now (until after now): rounded up, plus the margin, capped.
func (s *Store) ttl(now, until time.Time) string {
	d := until.Sub(now) + s.margin // saturates rather than overflows
	ms := (d + time.Millisecond - 1) / time.Millisecond
	if ms > maxTTL || ms <= 0 {
		ms = maxTTL
	}
	return strconv.FormatInt(int64(ms), 10)
}

// stamp is the stored form of a time: stamp.Of (whose order is the
// order of the times) in 20 decimal digits (so that the order of the
// strings is too).
func stamp(t time.Time) string {
	return fmt.Sprintf("%020d", istamp.Of(t))
}
