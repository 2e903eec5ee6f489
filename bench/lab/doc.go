// Package lab is signet's benchmark-and-security lab: the libraries people
// would pick instead of signet, each behind one small adapter, the
// benchmark cases of the reference workloads (named as docs/design.md says),
// and the attack corpus run against every library.
//
// An adapter wraps one library for one format (JWTLib, PASETOLib,
// HTTPSigLib). Cases turns the adapters into benchmark cases, each with the
// floor of its group (the raw primitive on input of the same size), which
// both `go test -bench` (bench_test.go) and the report generator
// (cmd/lab) run. Keys are made once per process and shared by every
// library, so that all sign and verify the same thing.
//
// The libraries of a run are a Peers set, given to Cases (Options.Peers),
// RunAttacks and RunConformance: DefaultPeers, the lab's own adapters,
// and any added with Peers.Add, such as the studies' own libraries
// (bench/studies, built with -tags studies):
//
//	peers := lab.DefaultPeers().Add(more)
//	cases, err := lab.Cases(keys, lab.Options{Quick: true, Peers: &peers})
//	results, err := lab.RunAttacks("../attacks", peers)
package lab
