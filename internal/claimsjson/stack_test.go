package claimsjson

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestStackGrowthEverywhere runs the plan on a caller's stack values
// (NewTaker's out, Append's buffer: noescape) at every stack depth over a
// few growths, so that the stack moves at each point of the run at least
// once, under -race too, where checkptr adds calls (which may grow the
// stack) inside noescape: a pointer kept as a uintptr across such a call
// would be left pointing into the old stack.
var stackDepths = 1500

func TestStackGrowthEverywhere(t *testing.T) {
	pl := PlanFor[study](testFilter)
	const payload = `{"user_id":1,"username":"u","perms":["a"]}`
	rest := restOf(payload)
	if rest == nil {
		t.Fatal("no Rest")
	}
	for d := range stackDepths {
		done := make(chan string)
		go func() { done <- atDepth(d, func() string { return runPlan(pl, payload, rest) }) }()
		if msg := <-done; msg != "" {
			t.Fatalf("depth %d: %s", d, msg)
		}
	}
}

// runPlan decodes payload through a Rest and through Take, and encodes
// the result into a stack buffer; it says what went wrong, "" for nothing.
func runPlan(pl *Plan, payload string, rest *Rest) string {
	out, ok, err := restInto[study](pl, payload, rest, false, &testReg{})
	if !ok || err != nil || out.UserID != 1 || out.Username != "u" || len(out.Perms) != 1 {
		return fmt.Sprintf("Rest: %+v %v %v", out, ok, err)
	}
	out, ok, err = takeInto[study](pl, payload, &testReg{})
	if !ok || err != nil || out.UserID != 1 || out.Username != "u" || len(out.Perms) != 1 {
		return fmt.Sprintf("Take: %+v %v %v", out, ok, err)
	}
	var buf [128]byte
	b, err := pl.Append(append(buf[:0], "{}"...), unsafe.Pointer(&out))
	if err != nil || string(b) != payload {
		return fmt.Sprintf("Append: %s %v", b, err)
	}
	return ""
}

// atDepth calls f under d frames of its own.
//
//go:noinline
func atDepth(d int, f func() string) string {
	if d == 0 {
		return f()
	}
	return atDepth(d-1, f)
}
