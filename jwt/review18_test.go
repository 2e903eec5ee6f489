package jwt

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/claimsjson"
)

type reviewNested struct {
	Name string         `json:"username"`
	X    map[string]any `json:"x"`
	Kids []reviewKid    `json:"kids"`
	Claims
}

type reviewKid struct {
	N string `json:"n"`
}

// TestReviewGeneralPathFold: a payload that leaves the plain shape (a
// brace past byte 0) goes to the general reader, whose Rest the plan uses:
// names that differ only in case, at any depth, are still refused.
func TestReviewGeneralPathFold(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf(`"m%d":%d`, i, i)
	}
	for _, payload := range []string{
		`{"exp":1800003600,"s":"{","username":"a","USERNAME":"b"}`,
		`{"exp":1800003600,"s":"{","other":"a","OTHER":"b"}`,
		`{"exp":1800003600,"username":"{","Username":"b"}`,
		`{"exp":1800003600,"s":"{","é":1,"É":2}`,
		`{"exp":1800003600,"s":"{","\u0061":1,"A":2}`,
		`{"exp":1800003600,"x":{"k":{"a":1,"A":2}}}`,
		`{"exp":1800003600,"kids":[{"n":"a","N":"b"}]}`,
		`{"exp":1800003600,"s":"{",` + strings.Join(many, ",") + `,"M0":1}`,
		`{"exp":1800003600,"x":{},"username":"a","USERNAME":"b"}`,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		for name, verify := range map[string]func() error{
			"value":   func() error { _, err := Verify[reviewNested](k, tok, p); return err },
			"pointer": func() error { _, err := Verify[*reviewNested](k, tok, p); return err },
			"plan2":   func() error { _, err := Verify[planClaims](k, tok, p); return err },
		} {
			if err := verify(); !errors.Is(err, signet.ErrMalformed) {
				t.Errorf("%s (%s): %v, want ErrMalformed", payload, name, err)
			}
		}
	}
	// And what is fine reads as the split reads it.
	for _, payload := range []string{
		`{"exp":1800003600,"x":{"a":{"b":[1,"{"]}},"username":"u","kids":[{"n":"k"}]}`,
		`{"exp":1800003600,"s":"{","username":"u","USERNAME_":"v"}`,
		`{"exp":1800003600,"s":"{",` + strings.Join(many, ",") + `}`,
	} {
		tok, err := SignBytes(k, []byte(payload), "JWT")
		if err != nil {
			t.Fatal(err)
		}
		out, err := Verify[reviewNested](k, tok, p)
		if err != nil {
			t.Fatalf("%s: %v", payload, err)
		}
		checkSplitDecode[reviewNested](t, k, tok, p, out)
	}
}

type reviewStack struct {
	A  string     `json:"a"`
	At time.Time  `json:"at"` // encoding/json, one value: grows the stack
	B  []string   `json:"b"`
	P  *reviewKid `json:"p"`
	C  string     `json:"c"`
	Claims
}

// TestReviewStackGrowth: the plan reads and writes the caller's stack
// copy through pointers hidden from escape analysis (noescape); new
// goroutines start on small stacks, which encoding/json (a kJSON value)
// grows mid-plan, and a concurrent GC shrinks. Every token and every
// value must still be the one expected.
func TestReviewStackGrowth(t *testing.T) {
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	v := reviewStack{A: strings.Repeat("a", 40), At: now, B: []string{"x", "y"}, P: &reviewKid{N: "kid"}, C: "c",
		Claims: Claims{ExpiresAt: At(now.Add(time.Hour))}}
	// A fixed clock: iat is the signing time, and the tokens are compared
	// byte for byte.
	o := Options{Now: fixed(now)}
	want, err := Sign(k, v, o)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer close(stop)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 400 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var rec func(int) error
			rec = func(d int) error {
				if d > 0 {
					var pad [256]byte
					pad[d%256] = byte(d)
					if err := rec(d - 1); err != nil {
						return err
					}
					_ = pad
					return nil
				}
				got, err := Sign(k, v, o)
				if err != nil || got != want {
					return fmt.Errorf("sign: %v\n%s\n%s", err, got, want)
				}
				out, err := Verify[reviewStack](k, got, p)
				if err != nil || out.A != v.A || !out.At.Equal(v.At) || out.C != "c" || out.P == nil || out.P.N != "kid" || len(out.B) != 2 {
					return fmt.Errorf("verify: %v %+v", err, out)
				}
				return nil
			}
			if err := rec(g % 17); err != nil {
				select {
				case errs <- err:
				default: // the first 64 are enough
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestReviewStackGrowthVerify is TestReviewStackGrowth's decode side
// alone (the token made without the plan).
func TestReviewStackGrowthVerify(t *testing.T) {
	if claimsjsonPlanFor[reviewStack]() == nil {
		t.Fatal("reviewStack has no plan")
	}
	k, _ := signet.GenerateKey(signet.HS256)
	now := time.Unix(1_800_000_000, 0)
	p := Policy{Now: fixed(now), IgnoreAudience: true}
	tok, err := SignBytes(k, []byte(`{"iss":"me","sub":"you","exp":1800003600,"a":"aaaa","at":"2027-01-15T08:00:00Z","b":["x","y"],"p":{"n":"kid"},"c":"c"}`), "JWT")
	if err != nil {
		t.Fatal(err)
	}
	want, err := verifySplit[reviewStack](k, tok, p)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var rec func(int) error
			rec = func(d int) error {
				if d > 0 {
					var pad [256]byte
					pad[d%256] = byte(d)
					err := rec(d - 1)
					_ = pad
					return err
				}
				out, err := Verify[reviewStack](k, tok, p)
				if err != nil || !reflect.DeepEqual(out, want) {
					return fmt.Errorf("verify: %v\n%+v\n%+v", err, out, want)
				}
				return nil
			}
			if err := rec(g % 17); err != nil {
				select {
				case errs <- err:
				default: // the first 64 are enough
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func claimsjsonPlanFor[T any]() any {
	if pl := claimsjson.PlanFor[T](split); pl != nil {
		return pl
	}
	return nil
}
