package httpsig

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"fmt"
	"hash"
	"io"
	"math"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/sf"
)

// The Content-Digest algorithms of RFC 9530 that signet computes and
// accepts: the two the registry lists as Active. The Deprecated ones (md5,
// sha, unixsum, unixcksum, adler, crc32c) are never accepted.
const (
	SHA256 = "sha-256"
	SHA512 = "sha-512"
)

// DefaultMaxBody is the largest body a Verifier reads to check its digest,
// unless Policy.MaxBody says otherwise.
const DefaultMaxBody = 8 << 20

func newDigestHash(alg string) (hash.Hash, error) {
	switch alg {
	case SHA256:
		return sha256.New(), nil
	case SHA512:
		return sha512.New(), nil
	}
	return nil, fmt.Errorf("%w: digest algorithm %q is not sha-256 or sha-512", ErrDigest, clip.String(alg))
}

// ContentDigest returns the Content-Digest field value (RFC 9530) of body
// with alg, SHA256 or SHA512: "sha-256=:…:".
func ContentDigest(alg string, body []byte) (string, error) {
	h, err := newDigestHash(alg)
	if err != nil {
		return "", err
	}
	h.Write(body)
	return sf.SerializeDictionary(sf.Dictionary{{Key: alg, Value: sf.Item{Value: h.Sum(nil)}}})
}

// digestCheck holds the digests a Content-Digest field claims, for the
// algorithms signet accepts.
type digestCheck struct {
	algs   []string
	want   [][]byte
	hashes []hash.Hash
}

// parseDigest reads a Content-Digest value. Members with other algorithms
// are ignored; at least one sha-256 or sha-512 member must be present.
func parseDigest(value string) (*digestCheck, error) {
	d, err := sf.ParseDictionary(value)
	if err != nil {
		return nil, sfError("Content-Digest", err)
	}
	dc := &digestCheck{}
	for _, m := range d {
		h, err := newDigestHash(m.Key)
		if err != nil {
			continue
		}
		it, ok := m.Value.(sf.Item)
		b, isBytes := it.Value.([]byte)
		if !ok || !isBytes || len(b) != h.Size() {
			return nil, fmt.Errorf("%w: Content-Digest %s is not a %d-byte Byte Sequence", ErrDigest, m.Key, h.Size())
		}
		dc.algs = append(dc.algs, m.Key)
		dc.want = append(dc.want, b)
		dc.hashes = append(dc.hashes, h)
	}
	if len(dc.algs) == 0 {
		return nil, fmt.Errorf("%w: Content-Digest names neither sha-256 nor sha-512", ErrDigest)
	}
	return dc, nil
}

func (dc *digestCheck) Write(p []byte) (int, error) {
	for _, h := range dc.hashes {
		h.Write(p)
	}
	return len(p), nil
}

// verify compares every digest, in constant time.
func (dc *digestCheck) verify() error {
	for i, h := range dc.hashes {
		if subtle.ConstantTimeCompare(h.Sum(nil), dc.want[i]) != 1 {
			return fmt.Errorf("%w: %s of the body differs from Content-Digest", ErrDigest, dc.algs[i])
		}
	}
	return nil
}

// readDigested reads body whole, at most max bytes, hashing it as it
// streams in, and checks the digests. The bytes are returned so that the
// body can be handed on.
func readDigested(body io.Reader, max int64, dc *digestCheck) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.Copy(io.MultiWriter(&buf, dc), io.LimitReader(body, overLimit(max)))
	if err != nil {
		return nil, fmt.Errorf("%w: reading the body: %w", ErrDigest, err)
	}
	if n > max {
		return nil, fmt.Errorf("%w: body over %d bytes", signet.ErrTooLarge, max)
	}
	return buf.Bytes(), dc.verify()
}

// overLimit is how much to read of a body limited to max bytes to tell
// whether it is longer: max+1, or max itself for the largest int64 (a
// caller's "no limit"), where max+1 would overflow to a negative limit
// that reads nothing.
func overLimit(max int64) int64 {
	if max == math.MaxInt64 {
		return max
	}
	return max + 1
}

// DigestReader checks a body against its Content-Digest as it is read,
// without holding it in memory: it reads through to body and, at the end
// of the body, returns an error wrapping ErrDigest instead of io.EOF if
// the digests differ. Use it for bodies too large to buffer; the caller
// must not act on the data before reading to the end.
type DigestReader struct {
	body io.Reader
	dc   *digestCheck
	err  error
}

// NewDigestReader returns a DigestReader of body for the Content-Digest
// field value contentDigest.
func NewDigestReader(body io.Reader, contentDigest string) (*DigestReader, error) {
	dc, err := parseDigest(contentDigest)
	if err != nil {
		return nil, err
	}
	return &DigestReader{body: body, dc: dc}, nil
}

// Read reads from the body, hashing what it returns.
func (d *DigestReader) Read(p []byte) (int, error) {
	if d == nil || d.body == nil || d.dc == nil {
		return 0, fmt.Errorf("%w: a DigestReader not made by NewDigestReader", ErrDigest)
	}
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.body.Read(p)
	d.dc.Write(p[:n])
	if err == io.EOF {
		if verr := d.dc.verify(); verr != nil {
			err = verr
		}
	}
	if err != nil {
		d.err = err
	}
	return n, err
}
