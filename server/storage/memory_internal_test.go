package storage

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMemoryFullRefuses: a full Memory store refuses new entries
// (ErrUnavailable: the service fails closed) and never evicts a live one,
// since an evicted revocation would make its token valid again; expired
// entries make room.
func TestMemoryFullRefuses(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewMemory(func() time.Time { return now })
	m.max = 3
	if err := m.Revoke(ctx, "a", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := m.Revoke(ctx, "b", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if first, err := m.UseOnce(ctx, "c", now.Add(time.Hour)); err != nil || !first {
		t.Fatalf("UseOnce: %v, %v", first, err)
	}
	if err := m.Revoke(ctx, "d", now.Add(time.Hour)); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Revoke on a full store: %v, want ErrUnavailable", err)
	}
	if first, err := m.UseOnce(ctx, "e", now.Add(time.Hour)); !errors.Is(err, ErrUnavailable) || first {
		t.Fatalf("UseOnce on a full store: %v, %v; want false, ErrUnavailable", first, err)
	}
	// Extending a present entry needs no room.
	if err := m.Revoke(ctx, "a", now.Add(2*time.Minute)); err != nil {
		t.Fatalf("extending a revocation on a full store: %v", err)
	}
	for _, jti := range []string{"a", "b"} {
		if r, err := m.Revoked(ctx, jti); err != nil || !r {
			t.Fatalf("Revoked(%q) on a full store: %v, %v; want true", jti, r, err)
		}
	}
	now = now.Add(2 * time.Minute) // a expires
	if err := m.Revoke(ctx, "d", now.Add(time.Hour)); err != nil {
		t.Fatalf("Revoke once an entry expired: %v", err)
	}
	if r, err := m.Revoked(ctx, "b"); err != nil || !r {
		t.Fatalf("b after making room: %v, %v; want still revoked", r, err)
	}
}
