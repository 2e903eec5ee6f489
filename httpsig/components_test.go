package httpsig

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet/internal/sf"
)

// TestComponents: the 26 component cases of RFC 9421 §2
// (testdata/rfc9421/components.json), each line of the expected base
// rebuilt from its message.
func TestComponents(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(vectorDir, "components.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			ID      string   `json:"id"`
			Message *string  `json:"message"`
			Scheme  *string  `json:"scheme"`
			Lines   []string `json:"expected_base_lines"`
			Invalid bool     `json:"invalid"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) != 26 {
		t.Fatalf("%d cases, want 26", len(file.Cases))
	}
	bb := baseBuilder{fields: map[string]FieldType{"example-dict": Dictionary}}
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			if c.ID == "rfc9421-2.3-signature-params" {
				comps, err := ParseComponents(`"@target-uri" "@authority" "date" "cache-control"`)
				if err != nil {
					t.Fatal(err)
				}
				text, err := sigInputText(comps, sf.Params{
					{Key: "keyid", Value: "test-key-rsa-pss"}, {Key: "alg", Value: "rsa-pss-sha512"},
					{Key: "created", Value: int64(1618884475)}, {Key: "expires", Value: int64(1618884775)},
				})
				if err != nil {
					t.Fatal(err)
				}
				if got := `"@signature-params": ` + text; got != c.Lines[0] {
					t.Fatalf("got %q\nwant %q", got, c.Lines[0])
				}
				return
			}
			msg := "GET /path HTTP/1.1\nHost: www.example.com"
			if c.Message != nil {
				msg = *c.Message
			}
			if !strings.HasPrefix(msg, "HTTP/") && !strings.Contains(strings.SplitN(msg, "\n", 2)[0], " HTTP/1.1") {
				msg = "GET / HTTP/1.1\n" + msg
			}
			if !strings.HasSuffix(msg, "\n\n") {
				msg += "\n\n" // ends the header, or the trailer of a chunked body
			}
			var m message
			if strings.HasPrefix(msg, "HTTP/") {
				// CRLF: Go's chunked reader refuses bare LF line ends.
				crlf := strings.ReplaceAll(msg, "\n", "\r\n")
				resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(crlf)), nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body) // trailers arrive after the body
				m = responseMessage(resp.StatusCode, resp.Header, resp.Trailer, nil)
			} else {
				r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(msg)))
				if err != nil {
					t.Fatal(err)
				}
				var o *Origin
				if c.Scheme != nil {
					o = &Origin{Scheme: *c.Scheme}
				}
				m = requestMessage(r, o)
			}
			var got []string
			for _, line := range c.Lines {
				id, _, ok := strings.Cut(line, ": ")
				if !ok {
					continue // a continuation of an invalid multi-line value
				}
				comp, err := ParseComponent(id)
				if err != nil && c.Invalid {
					return // the un-encoded name is not even an identifier
				}
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				b, err := bb.appendValue([]byte(comp.String()+": "), &m, &comp)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				got = append(got, string(b))
			}
			want := strings.Join(c.Lines, "\n")
			if c.Invalid {
				// The RFC's counter-example: what a base would be without
				// re-encoding. signet must not produce it.
				if strings.Join(got, "\n") == want {
					t.Fatal("produced the invalid, un-encoded lines")
				}
				return
			}
			if strings.Join(got, "\n") != want {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
			}
		})
	}
}
