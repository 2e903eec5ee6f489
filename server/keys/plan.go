package keys

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/server/storage"
)

// plan is one step of the rotation state machine: from the stored keys
// and the time, the ring that should be stored, whether it differs, and
// the private keys it generated (by kid, so they need no unwrapping).
//
// The rules, applied in order:
//
//  1. a retired key whose RemoveAt has passed leaves the ring;
//  2. of several active keys (never written by this package) the one
//     activated last stays active, the others retire;
//     of several next keys the one due first stays, the others go (they
//     never signed); so does a next key of another algorithm than
//     Algorithm made before this Manager (a restart with another
//     algorithm: one made since, by an instance configured otherwise, is
//     left alone, or the two would replace each other's keys);
//  3. a next key whose ActivateAt has passed becomes active, until
//     now+Rotate, and the active key retires, until now+grace; with no
//     active key at all a next key is promoted at once;
//  4. with no active key one is generated, signing at once (a first
//     start: no token and no cached key set exists yet);
//  5. with no next key one is generated, due at the later of
//     now+2×MaxAge+Leeway and the active key's RetireAt (at the former
//     when it replaces one of another algorithm: the switch is due).
func (c *Config) plan(stored []storage.Key, now time.Time) ([]storage.Key, bool, map[string]*signet.Key, error) {
	changed := false
	var active, next, retired []storage.Key
	for _, k := range stored {
		switch k.State {
		case storage.KeyRetired:
			if !now.Before(k.RemoveAt) {
				changed = true
				continue
			}
			retired = append(retired, k)
		case storage.KeyActive:
			active = append(active, k)
		case storage.KeyNext:
			next = append(next, k)
		default:
			return nil, false, nil, fmt.Errorf("%w: keys: key %q in state %q", signet.ErrMalformed, k.ID, k.State)
		}
	}
	retire := func(k storage.Key) storage.Key {
		k.State = storage.KeyRetired
		k.RetireAt = now
		k.RemoveAt = now.Add(c.retiredGrace())
		return k
	}
	if len(active) > 1 {
		slices.SortStableFunc(active, func(a, b storage.Key) int { return b.ActivateAt.Compare(a.ActivateAt) })
		for _, k := range active[1:] {
			retired = append(retired, retire(k))
		}
		active, changed = active[:1], true
	}
	if len(next) > 1 {
		slices.SortStableFunc(next, func(a, b storage.Key) int { return a.ActivateAt.Compare(b.ActivateAt) })
		next, changed = next[:1], true
	}
	switching := len(next) == 1 && next[0].Algorithm != string(c.Algorithm) && next[0].Created.Before(c.since)
	if switching {
		next, changed = nil, true
	}
	if len(next) == 1 && (len(active) == 0 || !now.Before(next[0].ActivateAt)) {
		if len(active) == 1 {
			retired = append(retired, retire(active[0]))
		}
		k := next[0]
		k.State = storage.KeyActive
		if now.Before(k.ActivateAt) {
			k.ActivateAt = now
		}
		k.RetireAt = now.Add(c.Rotate)
		active, next, changed = []storage.Key{k}, nil, true
	}
	gen := map[string]*signet.Key{}
	if len(active) == 0 {
		priv, k, err := generate(c.Algorithm, c.KEK, now)
		if err != nil {
			return nil, false, nil, err
		}
		k.State, k.ActivateAt, k.RetireAt = storage.KeyActive, now, now.Add(c.Rotate)
		gen[k.ID] = priv
		active, changed = []storage.Key{k}, true
	}
	if len(next) == 0 {
		priv, k, err := generate(c.Algorithm, c.KEK, now)
		if err != nil {
			return nil, false, nil, err
		}
		k.State = storage.KeyNext
		k.ActivateAt = now.Add(c.publishLead())
		if r := active[0].RetireAt; k.ActivateAt.Before(r) && !switching {
			k.ActivateAt = r
		}
		gen[k.ID] = priv
		next, changed = []storage.Key{k}, true
	}
	slices.SortStableFunc(retired, func(a, b storage.Key) int {
		return cmp.Or(b.RetireAt.Compare(a.RetireAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]storage.Key, 0, 2+len(retired))
	out = append(out, active[0], next[0])
	out = append(out, retired...)
	return out, changed, gen, nil
}
