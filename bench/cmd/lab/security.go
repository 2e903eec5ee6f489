package main

import "strings"

// security is the attack corpus and conformance results (filled in by
// runSecurity once the corpus runner lands).
type security struct{}

func runSecurity(cfg config) (*security, error) { return nil, nil }

func (s *security) signetAttackTally() (n, asIntended int) { return 0, 0 }

func (r *report) writeSecurity(b *strings.Builder) {}
