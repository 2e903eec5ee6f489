package keys_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
	"github.com/signet-go/signet/server/keys"
	"github.com/signet-go/signet/server/storage"
)

func writeFile(t *testing.T, name, text string, perm os.FileMode) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(text), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, perm); err != nil { // umask-proof
		t.Fatal(err)
	}
	return file
}

func TestKEKFormatParse(t *testing.T) {
	kek, err := keys.GenerateKEK()
	if err != nil {
		t.Fatal(err)
	}
	text, err := keys.FormatKEK(kek)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "k4.local.") || !strings.HasSuffix(text, "\n") {
		t.Fatalf("FormatKEK = %q", text)
	}
	got, err := keys.ParseKEK("  " + text + "\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(kek) {
		t.Fatal("ParseKEK(FormatKEK(k)) is another key")
	}
}

func TestParseKEKRefuses(t *testing.T) {
	ed, err := signet.GenerateKey(signet.V4Public)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := ed.Public()
	pubText, _ := paserk.Encode(pub)
	v3, _ := signet.GenerateKey(signet.V3Local)
	v3Text, _ := paserk.Encode(v3)
	for name, tc := range map[string]struct {
		text string
		want error
	}{
		"empty":          {"", signet.ErrMalformed},
		"raw base64":     {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", signet.ErrMalformed},
		"short k4.local": {"k4.local.AAAA", signet.ErrMalformed},
		"k4.public":      {pubText, signet.ErrKeyUsage},
		"k3.local":       {v3Text, signet.ErrKeyUsage},
		"huge":           {"k4.local." + strings.Repeat("A", 5000), signet.ErrTooLarge},
		// A placeholder (all zero, one byte repeated) hides nothing:
		// whoever has the store would open every key with it.
		"all-zero k4.local": {"k4.local." + base64.RawURLEncoding.EncodeToString(make([]byte, 32)), signet.ErrWeakKey},
		"one byte k4.local": {"k4.local." + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xa5}, 32)), signet.ErrWeakKey},
	} {
		t.Run(name, func(t *testing.T) {
			k, err := keys.ParseKEK(tc.text)
			if !errors.Is(err, tc.want) || k != nil {
				t.Fatalf("ParseKEK = %v, %v; want %v", k, err, tc.want)
			}
		})
	}
	if _, err := keys.FormatKEK(ed); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("FormatKEK(v4.public) = %v", err)
	}
	if _, err := keys.FormatKEK(nil); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("FormatKEK(nil) = %v", err)
	}
	zero, err := signet.NewKey(signet.V4Local, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.FormatKEK(zero); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("FormatKEK(all-zero) = %v", err)
	}
	if _, err := keys.New(storage.NewMemory(nil), keys.Config{KEK: zero}); !errors.Is(err, signet.ErrWeakKey) {
		t.Fatalf("New with an all-zero KEK = %v", err)
	}
}

func TestLoadKEK(t *testing.T) {
	kek, _ := keys.GenerateKEK()
	text, _ := keys.FormatKEK(kek)

	file := writeFile(t, "kek", text, 0o600)
	got, err := keys.LoadKEK(file)
	if err != nil || !got.Equal(kek) {
		t.Fatalf("LoadKEK(0600) = %v, %v", got, err)
	}
	if got, err := keys.LoadKEK(writeFile(t, "kek", text, 0o400)); err != nil || !got.Equal(kek) {
		t.Fatalf("LoadKEK(0400) = %v, %v", got, err)
	}
	for _, perm := range []os.FileMode{0o640, 0o604, 0o620, 0o602, 0o644, 0o666} {
		_, err := keys.LoadKEK(writeFile(t, "kek", text, perm))
		if !errors.Is(err, signet.ErrKeyUsage) || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("LoadKEK(%#o) = %v; want a permission refusal", perm, err)
		}
	}
	if _, err := keys.LoadKEK(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, signet.ErrKeyUsage) || !errors.Is(err, os.ErrNotExist) {
		// the not-exist cause is kept for LoadOrCreateKEK
		t.Errorf("LoadKEK(missing) = %v", err)
	}
	if _, err := keys.LoadKEK(t.TempDir()); !errors.Is(err, signet.ErrKeyUsage) {
		t.Errorf("LoadKEK(dir) = %v", err)
	}
	if _, err := keys.LoadKEK(writeFile(t, "kek", strings.Repeat("k", 5000), 0o600)); !errors.Is(err, signet.ErrTooLarge) {
		t.Errorf("LoadKEK(huge) = %v", err)
	}
	if _, err := keys.LoadKEK(writeFile(t, "kek", "not a key\n", 0o600)); !errors.Is(err, signet.ErrMalformed) {
		t.Errorf("LoadKEK(garbage) = %v", err)
	}
}

func TestKEKFromEnv(t *testing.T) {
	kek, _ := keys.GenerateKEK()
	text, _ := keys.FormatKEK(kek)
	t.Setenv("SIGNET_TEST_KEK", text)
	got, err := keys.KEKFromEnv("SIGNET_TEST_KEK")
	if err != nil || !got.Equal(kek) {
		t.Fatalf("KEKFromEnv = %v, %v", got, err)
	}
	t.Setenv("SIGNET_TEST_KEK", "")
	if _, err := keys.KEKFromEnv("SIGNET_TEST_KEK"); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("KEKFromEnv(empty) = %v", err)
	}
	if _, err := keys.KEKFromEnv("SIGNET_TEST_KEK_UNSET"); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("KEKFromEnv(unset) = %v", err)
	}
	t.Setenv("SIGNET_TEST_KEK", "k4.local.nope")
	if _, err := keys.KEKFromEnv("SIGNET_TEST_KEK"); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("KEKFromEnv(garbage) = %v", err)
	}
}

func TestLoadOrCreateKEK(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "sub")
	kek, err := keys.LoadOrCreateKEK(dir)
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(dir)
	if err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("data dir: %v, %v; want mode 0700", di.Mode(), err)
	}
	file := filepath.Join(dir, keys.KEKFile)
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("kek file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	again, err := keys.LoadOrCreateKEK(dir)
	if err != nil || !again.Equal(kek) {
		t.Fatalf("second start: %v, %v; want the same KEK", again, err)
	}
	fromFile, err := keys.LoadKEK(file)
	if err != nil || !fromFile.Equal(kek) {
		t.Fatalf("LoadKEK of the created file: %v, %v", fromFile, err)
	}
	// An existing file that others can read is refused, not replaced.
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.LoadOrCreateKEK(dir); !errors.Is(err, signet.ErrKeyUsage) {
		t.Fatalf("LoadOrCreateKEK(0644 file) = %v", err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if k, err := keys.LoadOrCreateKEK(dir); err != nil || !k.Equal(kek) {
		t.Fatalf("after chmod 600: %v, %v", k, err)
	}
	// A corrupt file is an error, never silently regenerated (that would
	// orphan every wrapped key).
	if err := os.WriteFile(file, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.LoadOrCreateKEK(dir); !errors.Is(err, signet.ErrMalformed) {
		t.Fatalf("LoadOrCreateKEK(corrupt) = %v", err)
	}
}
