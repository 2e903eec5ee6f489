package jwk_test

import (
	"testing"
	"time"
	"bytes"

	"github.com/signet-go/signet/jwk"
)

func TestZZSlow(t *testing.T) {
	o := vectorObject(t, "rfc7520-4.1-rs256.json").with("alg", "RS256")
	for _, size := range []int{200, 2000, 20000, 40000} {
		p := bytes.Repeat([]byte{0xff}, size)
		start := time.Now()
		_, err := jwk.ParseKey(o.with("p", b64(p), "dp", nil, "dq", nil, "qi", nil).json(t))
		t.Logf("p %d bytes: %v %v", size, time.Since(start), err)
	}
}
