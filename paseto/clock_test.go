package paseto_test

import "time"

// fixed is a clock that always reads t (Policy.Now, Options.Now).
func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }
