package clock_test

import (
	"fmt"

	"github.com/signet-go/signet/internal/clock"
)

// A validity check compares a token's exp with the clock in seconds.
func ExampleUnix() {
	exp := clock.Unix() + 3600
	fmt.Println(clock.Unix() < exp)
	// Output: true
}
