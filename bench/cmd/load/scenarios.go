package main

import (
	"io"

	"github.com/signet-go/signet/bench/load"
)

// scenarios composes the lab's scenario lists. Each list's owner adds its
// one line below (keep the blank lines between them: separate hunks merge
// without conflict). A list must not contain "hello": the baseline is
// added here, once. Names are unique across lists (load.Run refuses
// duplicates).
func scenarios(quick bool) []load.Scenario {
	s := []load.Scenario{load.Hello()}

	// The study's shape (h17-study); its bounds are measured in prepare.
	s = append(s, load.StudyScenarios(quick)...)

	// signet serve, signet guard, the middleware (h17-real).
	s = append(s, load.RealScenarios(quick)...)

	// Faults under load (h17-faults): last, one round each, no warm-up.
	s = append(s, load.FaultScenarios(quick)...)

	_ = quick
	return s
}

// prepare runs, once the list is selected (--only) and before load.Run,
// what a list needs done in the driver's process: the study's bounds
// (load.MeasureBounds fills BoundNS from the "primitive" labels). Each
// owner adds its one line, as above.
func prepare(scs []load.Scenario, log io.Writer) error {
	// The study's primitive costs (h17-study): about 3 s per primitive.
	if err := load.MeasureBounds(scs, log); err != nil {
		return err
	}

	_, _ = scs, log
	return nil
}
