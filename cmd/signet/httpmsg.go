package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/signet-go/signet"
)

// httpMessage is one raw HTTP/1.x message, a request or a response, as the
// httpsig commands read it from stdin or a --request file.
type httpMessage struct {
	raw  []byte         // the message as given, with a blank line added when it had none
	req  *http.Request  // the request; nil for a response
	resp *http.Response // the response; nil for a request
	body []byte         // the content, decoded when it was chunked
}

// header is the message's header section, as net/http parsed it.
func (m *httpMessage) header() http.Header {
	if m.resp != nil {
		return m.resp.Header
	}
	return m.req.Header
}

// parseHTTPMessage reads data, named what in errors, as an HTTP/1.x
// message: a response when it starts "HTTP/", a request otherwise. Lines
// may end in CRLF or LF alone (as in RFC 9421's examples), and a message
// without a body may lack the blank line that ends its header section.
// The body is read whole (as delimited by Content-Length or chunked
// coding; a response without either runs to the end); anything after it
// but line endings is refused. related is the request a response answers,
// or nil.
func parseHTTPMessage(data []byte, what string, related *http.Request) (*httpMessage, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: no HTTP message in %s", signet.ErrMalformed, what)
	}
	if _, ok := headerEnd(data); !ok {
		// A header section cut short of its blank line, as the RFC prints
		// GET requests.
		eol := lineEnding(data)
		data = bytes.Clone(data)
		if !bytes.HasSuffix(data, []byte("\n")) {
			data = append(data, eol...)
		}
		data = append(data, eol...)
	}
	m := &httpMessage{raw: data}
	rd := bufio.NewReader(bytes.NewReader(data))
	var body io.ReadCloser
	if bytes.HasPrefix(data, []byte("HTTP/")) {
		resp, err := http.ReadResponse(rd, related)
		if err != nil {
			return nil, fmt.Errorf("%w: %s is not an HTTP/1.x response: %v", signet.ErrMalformed, what, err)
		}
		m.resp, body = resp, resp.Body
	} else {
		req, err := http.ReadRequest(rd)
		if err != nil {
			return nil, fmt.Errorf("%w: %s is not an HTTP/1.x request: %v", signet.ErrMalformed, what, err)
		}
		m.req, body = req, req.Body
	}
	var err error
	if body != nil {
		m.body, err = io.ReadAll(body)
		body.Close()
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: %s: the body is shorter than its Content-Length or chunked coding says", signet.ErrMalformed, what)
		}
		return nil, fmt.Errorf("%w: %s: body: %v", signet.ErrMalformed, what, err)
	}
	rest, _ := io.ReadAll(rd)
	if n := len(bytes.Trim(rest, "\r\n")); n > 0 {
		return nil, fmt.Errorf("%w: %s has %d bytes after the body (a request body needs Content-Length or chunked coding)", signet.ErrMalformed, what, len(rest))
	}
	newBody := func() io.ReadCloser {
		if len(m.body) == 0 {
			return http.NoBody
		}
		return io.NopCloser(bytes.NewReader(m.body))
	}
	if m.resp != nil {
		m.resp.Body = newBody()
	} else {
		m.req.Body = newBody()
		m.req.GetBody = func() (io.ReadCloser, error) { return newBody(), nil }
	}
	return m, nil
}

// headerEnd finds the blank line that ends the header section of data and
// returns the offset where it starts. Lines end in LF, optionally preceded
// by CR, as net/http reads them.
func headerEnd(data []byte) (at int, ok bool) {
	for start := 0; start < len(data); {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return 0, false
		}
		line := data[start : start+i]
		if start > 0 && (len(line) == 0 || (len(line) == 1 && line[0] == '\r')) {
			return start, true
		}
		start += i + 1
	}
	return 0, false
}

// lineEnding is the line ending of the first line of data: CRLF or LF.
func lineEnding(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// withFields returns the raw message with field lines added at the end of
// its header section, in the order given, with the message's own line
// ending. Every other byte is kept as it was: the start line, the fields
// already there and their order, the body.
func (m *httpMessage) withFields(fields [][2]string) []byte {
	at, ok := headerEnd(m.raw)
	if !ok { // parseHTTPMessage makes sure there is one
		panic("httpsig: message without a header section end")
	}
	eol := "\n" // the line ending of the last line before the blank one
	if at >= 2 && m.raw[at-2] == '\r' {
		eol = "\r\n"
	}
	var b bytes.Buffer
	b.Grow(len(m.raw) + 256)
	b.Write(m.raw[:at])
	for _, f := range fields {
		b.WriteString(f[0])
		b.WriteString(": ")
		b.WriteString(f[1])
		b.WriteString(eol)
	}
	b.Write(m.raw[at:])
	return b.Bytes()
}
