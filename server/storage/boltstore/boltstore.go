// Package boltstore is the token service's embedded store (`signet serve
// --data DIR`): a storage.Store in one bbolt file, surviving restarts,
// for a single instance. Many instances share state through
// storage/redisstore instead; a second process opening the same file
// waits a second for its lock and then fails.
//
//	s, err := boltstore.Open(filepath.Join(dir, "signet.db"), nil)
//	if err != nil { … }
//	defer s.Close()
//
// The file is created with permissions 0600 (and tightened to 0600 when it
// exists). It holds the key ring as one JSON value (storage.EncodeKeyRing:
// times in UTC to the nanosecond; private keys only wrapped), and
// revocations and used ids with their until. Expired entries are never
// reported; they are deleted by every write, a bounded number at a time
// (SweepBatch), in until order through an expiry index, by a background
// sweep every SweepInterval, and all at once by Sweep. Every commit is
// synced to disk before the call returns.
//
// Operations honour a context that is already done (ErrUnavailable) but,
// bbolt being local, do not interrupt a transaction under way. After
// Close every method fails with storage.ErrUnavailable.
package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/signet-go/signet/server/storage"
	istamp "github.com/signet-go/signet/server/storage/internal/stamp"
)

// SweepBatch is how many expired entries each write deletes at most
// besides its own work, so that no write's cost depends on how many
// entries expired meanwhile.
const SweepBatch = 64

// SweepInterval is how often a Store sweeps expired entries in the
// background (besides what writes sweep), until it is closed.
const SweepInterval = time.Minute

// format names this package's layout of the file; a file of another
// layout is refused.
const format = "signet-storage-bolt-1"

var (
	bucketMeta    = []byte("meta")
	bucketRing    = []byte("ring")
	bucketRevoked = []byte("revoked") // jti → until
	bucketUsed    = []byte("used")    // id → until
	bucketExpiry  = []byte("expiry")  // until | kind | id → nothing
	keyFormat     = []byte("format")
	keyRing       = []byte("ring")
)

// The kinds of entries in the expiry index.
const (
	kindRevoked byte = 'r'
	kindUsed    byte = 'u'
)

// Store is a storage.Store in a bbolt file. Make one with Open; it is safe
// for concurrent use.
type Store struct {
	db     *bolt.DB
	now    func() time.Time
	closed atomic.Bool
	stop   chan struct{} // closed by Close: the sweeper ends
	swept  chan struct{} // closed by the sweeper when it has ended
}

var _ storage.Store = (*Store)(nil)

// Open opens the store at path, creating the file (0600) when it does not
// exist. now is its clock (time.Now when nil): an entry lives while now()
// is before its until. It fails when the file is locked by another
// process for more than a second, or is not a store of this package.
func Open(path string, now func() time.Time) (*Store, error) {
	return openStore(path, now, SweepInterval)
}

// openStore is Open with the background sweep's interval.
func openStore(path string, now func() time.Time, sweepEvery time.Duration) (*Store, error) {
	if now == nil {
		now = time.Now
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("%w: boltstore: open %s: %v", storage.ErrUnavailable, path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: %w", err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		switch f := meta.Get(keyFormat); {
		case f == nil:
			if err := meta.Put(keyFormat, []byte(format)); err != nil {
				return err
			}
		case string(f) != format:
			return fmt.Errorf("%w: boltstore: %s holds format %q, want %q", storage.ErrInvalid, path, f, format)
		}
		for _, b := range [][]byte{bucketRing, bucketRevoked, bucketUsed, bucketExpiry} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		if errors.Is(err, storage.ErrInvalid) {
			return nil, err
		}
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	s := &Store{db: db, now: now, stop: make(chan struct{}), swept: make(chan struct{})}
	go s.sweeper(sweepEvery)
	return s, nil
}

// sweeper runs Sweep every interval until the store is closed.
func (s *Store) sweeper(interval time.Duration) {
	defer close(s.swept)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			// An error here is the store's closing or a failing disk, which
			// the next operation reports to its caller.
			_, _ = s.Sweep(context.Background())
		}
	}
}

// check refuses work on a closed store or with a done context.
func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: boltstore: %v", storage.ErrUnavailable, err)
	}
	if s.closed.Load() {
		return fmt.Errorf("%w: boltstore: closed", storage.ErrUnavailable)
	}
	return nil
}

// dbErr wraps an error of bbolt (a closed database, a failed write or
// sync) as unavailability; errors of this package pass unchanged.
func dbErr(err error) error {
	if err == nil || errors.Is(err, storage.ErrInvalid) || errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrUnavailable) {
		return err
	}
	return fmt.Errorf("%w: boltstore: %v", storage.ErrUnavailable, err)
}

// Keys implements storage.Store.
func (s *Store) Keys(ctx context.Context) (storage.KeyRing, error) {
	if err := s.check(ctx); err != nil {
		return storage.KeyRing{}, err
	}
	var ring storage.KeyRing
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRing).Get(keyRing)
		if b == nil {
			return nil
		}
		var err error
		ring, err = storage.DecodeKeyRing(b)
		return err
	})
	if err != nil {
		return storage.KeyRing{}, dbErr(err)
	}
	return ring, nil
}

// SwapKeys implements storage.Store.
func (s *Store) SwapKeys(ctx context.Context, old uint64, keys []storage.Key) (storage.KeyRing, error) {
	if err := s.check(ctx); err != nil {
		return storage.KeyRing{}, err
	}
	enc, err := storage.EncodeSwap(old, keys)
	if err != nil {
		return storage.KeyRing{}, err
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRing)
		var cur uint64
		if v := b.Get(keyRing); v != nil {
			ring, err := storage.DecodeKeyRing(v)
			if err != nil {
				return err
			}
			cur = ring.Version
		}
		if cur != old {
			return fmt.Errorf("%w: stored version %d, expected %d", storage.ErrConflict, cur, old)
		}
		return b.Put(keyRing, enc)
	})
	if err != nil {
		return storage.KeyRing{}, dbErr(err)
	}
	return storage.DecodeKeyRing(enc)
}

// Revoke implements storage.Store.
func (s *Store) Revoke(ctx context.Context, jti string, until time.Time) error {
	if err := storage.CheckID(jti); err != nil {
		return err
	}
	if err := s.check(ctx); err != nil {
		return err
	}
	now := s.now()
	if !until.After(now) {
		return nil // the token has expired: nothing to refuse
	}
	u := stamp(until)
	return dbErr(s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRevoked)
		if cur := b.Get([]byte(jti)); cur != nil {
			if bytes.Compare(cur, u) >= 0 {
				return nil // revoked until as late already
			}
			if err := tx.Bucket(bucketExpiry).Delete(indexKey(cur, kindRevoked, jti)); err != nil {
				return err
			}
		}
		if err := put(tx, b, kindRevoked, jti, u); err != nil {
			return err
		}
		_, err := sweep(tx, stamp(now), SweepBatch)
		return err
	}))
}

// Revoked implements storage.Store.
func (s *Store) Revoked(ctx context.Context, jti string) (bool, error) {
	if err := storage.CheckID(jti); err != nil {
		return false, err
	}
	if err := s.check(ctx); err != nil {
		return false, err
	}
	now := stamp(s.now())
	var revoked bool
	err := s.db.View(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bucketRevoked).Get([]byte(jti))
		revoked = cur != nil && bytes.Compare(cur, now) > 0
		return nil
	})
	if err != nil {
		return false, dbErr(err)
	}
	return revoked, nil
}

// UseOnce implements storage.Store.
func (s *Store) UseOnce(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := storage.CheckID(id); err != nil {
		return false, err
	}
	if err := s.check(ctx); err != nil {
		return false, err
	}
	nowT := s.now()
	now, u := stamp(nowT), stamp(until)
	first := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUsed)
		if cur := b.Get([]byte(id)); cur != nil {
			if bytes.Compare(cur, now) > 0 {
				return nil // used, and still remembered
			}
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
			if err := tx.Bucket(bucketExpiry).Delete(indexKey(cur, kindUsed, id)); err != nil {
				return err
			}
		}
		first = true
		if until.After(nowT) {
			if err := put(tx, b, kindUsed, id, u); err != nil {
				return err
			}
		}
		_, err := sweep(tx, now, SweepBatch)
		return err
	})
	if err != nil {
		return false, dbErr(err)
	}
	return first, nil
}

// Sweep deletes every expired entry, in transactions of a thousand, and
// returns how many it deleted. Writes sweep a few as they go; Sweep is
// for a periodic clean-up or after a long pause.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	total := 0
	for {
		if err := s.check(ctx); err != nil {
			return total, err
		}
		var n int
		err := s.db.Update(func(tx *bolt.Tx) error {
			var err error
			n, err = sweep(tx, stamp(s.now()), 1000)
			return err
		})
		total += n
		if err != nil {
			return total, dbErr(err)
		}
		if n < 1000 {
			return total, nil
		}
	}
}

// Ping implements storage.Store.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	return dbErr(s.db.View(func(*bolt.Tx) error { return nil }))
}

// Close implements storage.Store: it closes the file; later calls fail
// with storage.ErrUnavailable. Closing twice is no error.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	close(s.stop)
	<-s.swept
	return s.db.Close()
}

// put stores id → u in b and in the expiry index.
func put(tx *bolt.Tx, b *bolt.Bucket, kind byte, id string, u []byte) error {
	if err := b.Put([]byte(id), u); err != nil {
		return err
	}
	return tx.Bucket(bucketExpiry).Put(indexKey(u, kind, id), nil)
}

// sweep deletes at most limit entries whose until is not after now, in
// until order, and returns how many.
func sweep(tx *bolt.Tx, now []byte, limit int) (int, error) {
	idx := tx.Bucket(bucketExpiry)
	var gone [][]byte
	c := idx.Cursor()
	for k, _ := c.First(); k != nil && len(gone) < limit; k, _ = c.Next() {
		if len(k) < 9 || bytes.Compare(k[:8], now) > 0 {
			break
		}
		gone = append(gone, bytes.Clone(k))
	}
	for _, k := range gone {
		b := tx.Bucket(bucketRevoked)
		if k[8] == kindUsed {
			b = tx.Bucket(bucketUsed)
		}
		id := k[9:]
		// The entry goes only when the index names its current until.
		if cur := b.Get(id); cur != nil && bytes.Equal(cur, k[:8]) {
			if err := b.Delete(id); err != nil {
				return 0, err
			}
		}
		if err := idx.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(gone), nil
}

// indexKey is the expiry index's key for an entry: until, kind, id, so
// that a cursor meets the entries in until order.
func indexKey(u []byte, kind byte, id string) []byte {
	k := make([]byte, 0, 9+len(id))
	k = append(k, u...)
	k = append(k, kind)
	return append(k, id...)
}

// stamp encodes t as 8 bytes that sort as the times do: stamp.Of,
// big-endian.
func stamp(t time.Time) []byte {
	return binary.BigEndian.AppendUint64(nil, istamp.Of(t))
}
