package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/signet-go/signet/bench/load"
)

// selectScenarios keeps the scenarios --only names (a group; a name; a
// name's prefix before "/"; a glob of names) and the baselines they need;
// "" keeps all.
func selectScenarios(all []load.Scenario, only string) ([]load.Scenario, error) {
	if only == "" {
		return all, nil
	}
	keep := map[string]bool{}
	for _, s := range all {
		m, _ := path.Match(only, s.Name)
		if s.Group == only || s.Name == only || strings.HasPrefix(s.Name, only+"/") || m {
			keep[s.Name] = true
			if s.Baseline != "" {
				keep[s.Baseline] = true
			}
		}
	}
	var out []load.Scenario
	for _, s := range all {
		if keep[s.Name] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		var groups []string
		seen := map[string]bool{}
		for _, s := range all {
			if !seen[s.Group] {
				seen[s.Group] = true
				groups = append(groups, s.Group)
			}
		}
		return nil, fmt.Errorf("--only %q matches no scenario (groups: %s; --list shows the names)", only, strings.Join(groups, ", "))
	}
	return out, nil
}
