package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// start runs the server in-process on 127.0.0.1:0 and returns its base
// URL and a function that stops it and returns run's error.
func start(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), pw)
		pw.CloseWithError(io.EOF)
		errc <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("loadsrv %v: %v (%v)", args, err, <-errc)
	}
	go io.Copy(io.Discard, pr)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "loadsrv listening on ")
	if !ok {
		cancel()
		t.Fatalf("loadsrv printed %q", line)
	}
	stop := func() error {
		cancel()
		select {
		case err := <-errc:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("loadsrv did not stop")
			return nil
		}
	}
	return url, stop
}

func post(t *testing.T, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"page":1,"size":20}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestServeStudy: the server writes its tokens, serves /hello, /issue and
// /check with them, refuses a forged one, and stops cleanly; -lib floor
// (the raw primitive) too, answering the study's user whatever the token.
func TestServeStudy(t *testing.T) {
	for _, c := range []struct{ lib, alg, payload string }{
		{"signet", "ES256", "small"}, {"golang-jwt", "EdDSA", "medium"}, {"go-paseto", "v4.local", "large"},
		{"floor", "ES256", "small"}, {"floor", "v4.public", "small"},
	} {
		tokens := filepath.Join(t.TempDir(), "tokens.txt")
		url, stop := start(t, "-lib", c.lib, "-alg", c.alg, "-payload", c.payload, "-tokens", tokens, "-ntokens", "3")
		data, err := os.ReadFile(tokens)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(string(data))
		if len(lines) != 3 {
			t.Fatalf("%v: %d tokens, want 3", c, len(lines))
		}
		if code, body := post(t, url+"/hello", ""); code != 200 || body != `{"message":"hello"}` {
			t.Errorf("%v hello: %d %q", c, code, body)
		}
		if code, body := post(t, url+"/issue", ""); code != 200 || !strings.HasPrefix(body, `{"token":"`) {
			t.Errorf("%v issue: %d %q", c, code, body)
		}
		want := `{"user_id":3,"username":"alice"}`
		if c.lib == "floor" {
			want = `{"user_id":1,"username":"alice"}`
		}
		if code, body := post(t, url+"/check", "Bearer "+lines[2]); code != 200 || body != want {
			t.Errorf("%v check: %d %q", c, code, body)
		}
		forged := lines[0][:len(lines[0])-8] + strings.Repeat("A", 8)
		if forged == lines[0] {
			forged = lines[0][:len(lines[0])-8] + strings.Repeat("B", 8)
		}
		if code, _ := post(t, url+"/check", "Bearer "+forged); code != 401 {
			t.Errorf("%v forged: %d", c, code)
		}
		if err := stop(); err != nil {
			t.Errorf("%v: stop: %v", c, err)
		}
	}
}

// TestServeHello: without -lib the server has /hello alone.
func TestServeHello(t *testing.T) {
	url, stop := start(t)
	defer stop()
	if code, body := post(t, url+"/hello", ""); code != 200 || body != `{"message":"hello"}` {
		t.Errorf("hello: %d %q", code, body)
	}
	if code, _ := post(t, url+"/check", "Bearer x"); code != 404 {
		t.Errorf("/check without a library: %d", code)
	}
}

// TestFlags: bad flag combinations are refused before anything is served.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-lib", "signet"},
		{"-alg", "HS256"},
		{"-tokens", "x"},
		{"-lib", "signet", "-alg", "HS256", "-ntokens", "0"},
		{"-lib", "go-paseto", "-alg", "HS256"},
		{"-lib", "signet", "-alg", "HS256", "-payload", "huge"},
		{"-lib", "signet", "-alg", "RS512"},
		{"-lib", "floor", "-alg", "v4.local"},
		{"extra"},
		{"-nope"},
	} {
		if err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "127.0.0.1"} {
		if err := run(context.Background(), []string{"-addr", addr}, io.Discard); err == nil {
			t.Errorf("-addr %s: accepted", addr)
		}
	}
}
