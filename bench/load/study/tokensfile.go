package study

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/signet-go/signet"
)

// WriteTokens writes n tokens issued by t at now to path, one a line, for
// the /check script to send (it cycles through them, so that no two
// consecutive requests carry the same token). Token i is for user i+1.
// The file is written whole, then renamed into place: a reader never sees
// half of it. The floor library's file is signet's tokens: the floor
// answers one pre-made token to /issue, and its /check verifies whatever
// it is sent, so it is sent the same tokens as signet's /check.
func WriteTokens(path string, t Tokens, n int, now time.Time) error {
	if n < 1 {
		return fmt.Errorf("%w: study: %d tokens", signet.ErrMalformed, n)
	}
	if f, ok := t.(*floorTokens); ok {
		t = f.signet
	}
	var b strings.Builder
	for i := range n {
		tok, err := t.Issue(now, uint(i+1))
		if err != nil {
			return fmt.Errorf("study: %s %s: %w", t.Lib(), t.Alg(), err)
		}
		b.WriteString(tok)
		b.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tokens-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
