//go:build !studies

package main

import "github.com/signet-go/signet/bench/lab"

// studiesPeers returns none, and why: this build is go.mod's, without
// the studies' modules (scripts/lab.sh builds with them).
func studiesPeers() (lab.Peers, string) { return lab.Peers{}, "built without the studies' modules" }
