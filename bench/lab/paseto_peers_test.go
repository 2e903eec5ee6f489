package lab

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

var (
	labTestKeysOnce sync.Once
	labTestKeys     *Keys
)

// labKeys returns the key set of the tests, made once.
func labKeys(t *testing.T) *Keys {
	t.Helper()
	labTestKeysOnce.Do(func() {
		k, err := NewKeys()
		if err != nil {
			panic(err)
		}
		labTestKeys = k
	})
	return labTestKeys
}

// pasetoPeer binds the PASETO library named name to purpose.
func pasetoPeer(t *testing.T, name, purpose string, registered bool) PASETO {
	t.Helper()
	return peerNamed[PASETO](t, "PASETO", PASETOLibs(), name, purpose, registered)
}

// peerNamed binds the library named name, one of libs (of the format
// kind), to the lab key of row; registered: the application's claims are
// the registered ones only (KeySpec.Registered).
func peerNamed[X any, L interface {
	Name() string
	New(KeySpec) (X, error)
}](t *testing.T, kind string, libs []L, name, row string, registered bool) X {
	t.Helper()
	spec, err := labKeys(t).Spec(row)
	if err != nil {
		t.Fatal(err)
	}
	spec.Registered = registered
	for _, lib := range libs {
		if lib.Name() == name {
			x, err := lib.New(spec)
			if err != nil {
				t.Fatalf("%s %s: %v", name, row, err)
			}
			return x
		}
	}
	t.Fatalf("no %s library %q", kind, name)
	panic("unreachable")
}

// caseNames builds the lab's cases with o and returns them with the set
// of their names, each of which must be given once.
func caseNames(t *testing.T, o Options) ([]Case, map[string]bool) {
	t.Helper()
	cs, err := Cases(labKeys(t), o)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.Name()] {
			t.Errorf("two cases named %s", c.Name())
		}
		seen[c.Name()] = true
	}
	return cs, seen
}

// TestPASETOCross: a token one library issues, the other opens to the
// same claims, both ways, wherever two libraries share a version and
// purpose (signet and go-paseto: v4 and v3; go-paseto and o1egl: v2).
func TestPASETOCross(t *testing.T) {
	pairs := []struct {
		a, b     string
		purposes []string
	}{
		{"signet", "go-paseto", []string{"v4.local", "v4.public", "v3.local", "v3.public"}},
		{"go-paseto", "o1egl", []string{"v2.local", "v2.public"}},
	}
	for _, pair := range pairs {
		for _, purpose := range pair.purposes {
			for _, size := range []string{"tiny", "small", "medium"} {
				for _, dir := range [][2]string{{pair.a, pair.b}, {pair.b, pair.a}} {
					t.Run(fmt.Sprintf("%s/%s/%s→%s", purpose, size, dir[0], dir[1]), func(t *testing.T) {
						p := NewPayload(size, now)
						// registered claims only: the libraries' own types
						from, to := pasetoPeer(t, dir[0], purpose, p.Data == nil), pasetoPeer(t, dir[1], purpose, p.Data == nil)
						tok, err := from.Seal(p)
						if err != nil {
							t.Fatalf("%s seal: %v", dir[0], err)
						}
						var back Payload
						if err := to.Open(tok, &back); err != nil {
							t.Fatalf("%s does not open %s's token: %v", dir[1], dir[0], err)
						}
						if p.IssuedAt == 0 {
							back.IssuedAt = 0 // signet adds iat to a payload without one
						}
						if !reflect.DeepEqual(&back, p) {
							t.Errorf("%s reads %s's token as\n%+v\nwant\n%+v", dir[1], dir[0], back, *p)
						}
						if to.Open(pasetoForge(tok, pasetoTagSize(purpose)), &back) == nil {
							t.Errorf("%s opens %s's token with a flipped tag or signature", dir[1], dir[0])
						}
					})
				}
			}
		}
	}
}

// TestPASETOExpiry: every library refuses an expired token, its own and
// (where versions overlap) the others'.
func TestPASETOExpiry(t *testing.T) {
	old := time.Now().Add(-2 * time.Hour)
	p := NewPayload("small", old) // exp an hour ago
	for _, purpose := range Purposes {
		var issuers []string
		for _, lib := range PASETOLibs() {
			for _, lp := range lib.Purposes() {
				if lp == purpose {
					issuers = append(issuers, lib.Name())
				}
			}
		}
		for _, from := range issuers {
			for _, to := range issuers {
				t.Run(fmt.Sprintf("%s/%s→%s", purpose, from, to), func(t *testing.T) {
					tok, err := pasetoPeer(t, from, purpose, false).Seal(p)
					if err != nil {
						t.Skipf("%s does not issue an expired token: %v", from, err)
					}
					var back Payload
					if err := pasetoPeer(t, to, purpose, true).Open(tok, &back); err == nil {
						t.Errorf("%s accepts %s's token that expired an hour ago", to, from)
					}
				})
			}
		}
	}
}

// TestPASETOCases: the cases build (every library passes its self-check)
// and their names are docs/design.md's.
func TestPASETOCases(t *testing.T) {
	_, seen := caseNames(t, Options{Formats: []string{"PASETO"}, Parallel: true})
	for _, want := range []string{
		"BenchmarkPASETO/v4.local/Encrypt/floor", "BenchmarkPASETO/v4.local/Decrypt/signet",
		"BenchmarkPASETO/v4.local/Encrypt/Parallel/go-paseto", "BenchmarkPASETO/v4.public/Verify/go-paseto",
		"BenchmarkPASETO/v3.local/Forged/signet", "BenchmarkPASETO/v3.public/RoundTrip/floor",
		"BenchmarkPASETO/v2.local/Decrypt/o1egl", "BenchmarkPASETO/v2.public/Sign/o1egl",
	} {
		if !seen[want] {
			t.Errorf("no case %s", want)
		}
	}
	sz, err := pasetoSizeCases(PASETOLibs(), labKeys(t), "v4.local", "large")
	if err != nil {
		t.Fatal(err)
	}
	if len(sz) != 6 || sz[0].Name() != "BenchmarkPASETOSize/v4.local/large/Encrypt/floor" {
		t.Errorf("size cases: %d, first %s", len(sz), sz[0].Name())
	}
}
