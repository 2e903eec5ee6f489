package lab

import (
	"strings"
	"testing"
	"time"
)

// TestRemoteScenarios runs the remote key sets section in a reduced size
// (1,000 tokens with random kids in 1 s) against every library: each
// produces a row per scenario, and signet's rows are the outcomes its
// defaults promise (the flood's fetches within ⌈T / cooldown⌉ + 1, a
// rotated key picked up, a start-up that does not hang, the unsupported
// keys skipped and counted, the cached set served through an
// outage and unavailable past the bound, no redirect, the body cap). The
// peers' outcomes are reported, not asserted; timing is never asserted
// (the staleness bound of 1 s leaves a second of slack on a busy machine).
func TestRemoteScenarios(t *testing.T) {
	const d = time.Second
	rs, err := RunRemote(RemoteOptions{Tokens: 1000, Duration: d, FetchDelay: 20 * time.Millisecond, MaxStale: time.Second, StartWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]RemoteResult{}
	for _, r := range rs {
		got[[2]string{r.Lib, r.Case}] = r
		t.Logf("%-8s %-18s %-4s %s", r.Lib, r.Case, r.Outcome, r.Detail)
	}
	if len(rs) != len(RemoteLibs())*len(RemoteCases) {
		t.Errorf("%d rows, want %d", len(rs), len(RemoteLibs())*len(RemoteCases))
	}
	for _, lib := range RemoteLibs() {
		for _, c := range RemoteCases {
			r, ok := got[[2]string{lib.Name(), c.ID}]
			if !ok {
				t.Errorf("%s: no row for %s", lib.Name(), c.ID)
				continue
			}
			if r.Outcome != RemotePass && r.Outcome != RemoteFail && r.Outcome != RemoteNA || r.Detail == "" {
				t.Errorf("%s %s: outcome %q, detail %q", lib.Name(), c.ID, r.Outcome, r.Detail)
			}
		}
		if r := got[[2]string{lib.Name(), "kid-flood-fetches"}]; r.Tokens == 0 {
			t.Errorf("%s: the flood sent no token: %s", lib.Name(), r.Detail)
		}
	}

	signet := func(id string) RemoteResult { return got[[2]string{"signet", id}] }
	if r := signet("kid-flood-fetches"); r.Outcome != RemotePass || r.Fetches > FloodBound(d) || r.Bound != FloodBound(d) || r.Accepted != 0 {
		t.Errorf("signet's flood: %+v (want at most %d fetches, every token refused)", r, FloodBound(d))
	}
	if r := signet("kid-flood-latency"); r.ValidFailed != 0 {
		t.Errorf("signet refused valid tokens during the flood: %s", r.Detail)
	}
	if r := signet("unsupported-key"); r.Outcome != RemotePass || !strings.Contains(r.Detail, "2 keys skipped") {
		t.Errorf("signet with unsupported keys mixed in: %s %s (want the ES256 key verifying, 2 keys skipped)", r.Outcome, r.Detail)
	}
	// start-down's outcome is judged on time (returns within 1 s, recovers
	// within 3 s): here only that start-up succeeded with the IdP down.
	if r := signet("start-down"); strings.Contains(r.Detail, "start-up returned an error") {
		t.Errorf("signet's start-up with the IdP down: %s", r.Detail)
	}
	for _, id := range []string{"rotation", "no-alg-key", "outage-cached", "outage-bound", "redirect", "huge-body"} {
		if r := signet(id); r.Outcome != RemotePass {
			t.Errorf("signet %s: %s: %s", id, r.Outcome, r.Detail)
		}
	}
}

// TestFloodBound: the Target's bound, ⌈T / 30 s⌉ + 1.
func TestFloodBound(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{time.Second, 2}, {10 * time.Second, 2}, {30 * time.Second, 2}, {31 * time.Second, 3}, {90 * time.Second, 4}} {
		if got := FloodBound(c.d); got != c.want {
			t.Errorf("FloodBound(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}
