package lab

import (
	"testing"
	"time"
)

// TestRemoteScenarios runs the remote key sets section in a reduced size
// (1,000 tokens in 1 s) against every library: each produces a row per
// scenario, and signet's rows are the outcomes its defaults promise.
func TestRemoteScenarios(t *testing.T) {
	const d = time.Second
	rs, err := RunRemote(RemoteOptions{Tokens: 1000, Duration: d, FetchDelay: 20 * time.Millisecond, MaxStale: 300 * time.Millisecond, StartWait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]RemoteResult{}
	for _, r := range rs {
		got[[2]string{r.Lib, r.Case}] = r
		t.Logf("%-8s %-18s %-4s %s", r.Lib, r.Case, r.Outcome, r.Detail)
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
	}
	if len(rs) != len(RemoteLibs())*len(RemoteCases) {
		t.Errorf("%d rows, want %d", len(rs), len(RemoteLibs())*len(RemoteCases))
	}
}
