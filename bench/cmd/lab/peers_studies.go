//go:build studies

package main

import (
	"github.com/signet-go/signet/bench/lab"
	"github.com/signet-go/signet/bench/studies"
)

// studiesPeers returns the studies' libraries: this build has them
// (-modfile=studies.mod -tags studies).
func studiesPeers() (lab.Peers, string) { return studies.Peers(), "" }
