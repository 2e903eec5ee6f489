package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/signet-go/signet/attacks"
	"github.com/signet-go/signet/bench/lab"
)

// security is the attack corpus and the published vectors run against
// every library (lab.RunAttacks, lab.RunConformance).
type security struct {
	attacks     []lab.AttackResult
	conformance []lab.ConformanceResult
}

func runSecurity(cfg config) (*security, error) {
	rs, err := lab.RunAttacks(cfg.attacks, cfg.peers)
	if err != nil {
		return nil, err
	}
	cs, err := lab.RunConformance(cfg.vectors, cfg.peers)
	if err != nil {
		return nil, err
	}
	return &security{attacks: rs, conformance: cs}, nil
}

// signetAttackTally counts the corpus's cases and those signet judged as
// the corpus expects: a control accepted, an attack refused with the
// sentinel the case names (a refusal for another reason is not counted).
func (s *security) signetAttackTally() (n, asIntended int) {
	for _, r := range s.attacks {
		n++
		for _, v := range r.Verdicts {
			if v.Lib == "signet" && intended(r, v) {
				asIntended++
			}
		}
	}
	return n, asIntended
}

// intended reports whether verdict v on case r is the one the corpus
// expects, with the intended error for a refusal.
func intended(r lab.AttackResult, v lab.Verdict) bool {
	switch {
	case v.Outcome == lab.NotApplicable || v.Wrong(r.Expect):
		return false
	case r.Expect == attacks.Reject:
		want := attacks.Sentinel(r.SignetError)
		return want != nil && strings.Contains(v.Detail, want.Error())
	}
	return true
}

// writeSecurity adds the security matrix and the conformance table.
func (r *report) writeSecurity(b *strings.Builder) {
	if r.sec == nil {
		return
	}
	if err := lab.WriteSecurityReport(b, r.sec.attacks, r.sec.conformance); err != nil {
		b.WriteString("(security report failed: " + err.Error() + ")\n\n")
	}
	b.WriteString("\n")
}

// writeSecurityJSON writes security.json: every verdict and vector result.
func (r *report) writeSecurityJSON(dir string) error {
	if r.sec == nil {
		return nil
	}
	data, err := json.MarshalIndent(struct {
		Attacks     []lab.AttackResult      `json:"attacks"`
		Conformance []lab.ConformanceResult `json:"conformance"`
	}{r.sec.attacks, r.sec.conformance}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "security.json"), append(data, '\n'), 0o644)
}
