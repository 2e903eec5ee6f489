package keys

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/paserk"
)

// KEKFile is the name of the key-encryption key file LoadOrCreateKEK keeps
// in its directory.
const KEKFile = "kek"

// maxKEKFile bounds what LoadKEK reads: a k4.local PASERK is 52 bytes.
const maxKEKFile = 4 << 10

// ParseKEK reads a key-encryption key in its one text form, a PASERK
// k4.local ("k4.local." and 43 characters of unpadded base64url: 256
// bits), with surrounding white space ignored. Any other key (a k4.public,
// a k3.local, raw bytes) is refused: errors wrap signet.ErrMalformed,
// signet.ErrTooLarge, signet.ErrUnsupported or signet.ErrKeyUsage; so is a
// placeholder whose 32 bytes are all one value (k4.local.AAAA…A), with
// signet.ErrWeakKey.
func ParseKEK(text string) (*signet.Key, error) {
	k, err := paserk.Decode(strings.TrimSpace(text))
	if err != nil {
		return nil, fmt.Errorf("keys: key-encryption key: %w", err)
	}
	if err := checkKEK(k); err != nil {
		return nil, err
	}
	return k, nil
}

// FormatKEK returns kek as the text ParseKEK reads (a PASERK k4.local,
// secret: store it like a password), with a final newline.
func FormatKEK(kek *signet.Key) (string, error) {
	if err := checkKEK(kek); err != nil {
		return "", err
	}
	s, err := paserk.Encode(kek)
	if err != nil {
		return "", fmt.Errorf("keys: key-encryption key: %w", err)
	}
	return s + "\n", nil
}

// GenerateKEK returns a new random key-encryption key.
func GenerateKEK() (*signet.Key, error) {
	return signet.GenerateKey(signet.V4Local)
}

// LoadKEK reads a key-encryption key from file (--kek-file), written as
// ParseKEK reads it. As SSH does with private keys, a file that group or
// others may read or write is refused (signet.ErrKeyUsage): chmod 600 it.
func LoadKEK(file string) (*signet.Key, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%w: keys: key-encryption key: %w", signet.ErrKeyUsage, err)
	}
	defer f.Close()
	if err := checkPerm(f, file); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKEKFile+1))
	if err != nil {
		return nil, fmt.Errorf("%w: keys: key-encryption key %s: %v", signet.ErrKeyUsage, file, err)
	}
	if len(b) > maxKEKFile {
		return nil, fmt.Errorf("%w: keys: key-encryption key %s over %d bytes", signet.ErrTooLarge, file, maxKEKFile)
	}
	k, err := ParseKEK(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return k, nil
}

// KEKFromEnv reads a key-encryption key from the environment variable
// name (the service uses SIGNET_KEK), written as ParseKEK reads it. An
// unset or empty variable is an error wrapping signet.ErrKeyUsage.
func KEKFromEnv(name string) (*signet.Key, error) {
	v := os.Getenv(name)
	if v == "" {
		return nil, fmt.Errorf("%w: keys: %s is not set", signet.ErrKeyUsage, name)
	}
	if len(v) > maxKEKFile {
		return nil, fmt.Errorf("%w: keys: %s over %d bytes", signet.ErrTooLarge, name, maxKEKFile)
	}
	k, err := ParseKEK(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return k, nil
}

// LoadOrCreateKEK returns the key-encryption key in dir/kek (KEKFile),
// generating it on first start, as sshd does its host keys: dir is created
// with mode 0700 when missing and the key written with mode 0600 (never
// over an existing file). An existing file that group or others may read
// or write is refused, as by LoadKEK. Keep the data directory and this
// key apart if the store's backups must not open the keys: use LoadKEK or
// KEKFromEnv then.
func LoadOrCreateKEK(dir string) (*signet.Key, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%w: keys: %v", signet.ErrKeyUsage, err)
	}
	file := filepath.Join(dir, KEKFile)
	k, err := LoadKEK(file)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	kek, err := GenerateKEK()
	if err != nil {
		return nil, fmt.Errorf("keys: generating the key-encryption key: %w", err)
	}
	text, err := FormatKEK(kek)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another process made it first
		return LoadKEK(file)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: keys: %v", signet.ErrKeyUsage, err)
	}
	_, werr := f.WriteString(text)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(file)
		return nil, fmt.Errorf("%w: keys: writing %s: %v", signet.ErrKeyUsage, file, werr)
	}
	return kek, nil
}

// checkPerm refuses a key file that is not a regular file or that group
// or others may access.
func checkPerm(f *os.File, file string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%w: keys: key-encryption key: %v", signet.ErrKeyUsage, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: keys: key-encryption key %s is not a regular file", signet.ErrKeyUsage, file)
	}
	if p := fi.Mode().Perm(); p&0o077 != 0 {
		return fmt.Errorf("%w: keys: key-encryption key %s has permissions %#o: group and others must have none (chmod 600)", signet.ErrKeyUsage, file, p)
	}
	return nil
}

// checkKEK refuses anything but a v4.local key, and one whose bytes are
// all one value (k4.local.AAAA…A: a placeholder, not a secret).
func checkKEK(k *signet.Key) error {
	if k == nil || k.Algorithm() == "" {
		return fmt.Errorf("%w: keys: no key-encryption key", signet.ErrKeyUsage)
	}
	if k.Algorithm() != signet.V4Local {
		return fmt.Errorf("%w: keys: key-encryption key is %s (want a v4.local key)", signet.ErrKeyUsage, k.Algorithm())
	}
	s := k.Secret()
	defer clear(s)
	if len(s) == 0 || bytes.Count(s, s[:1]) == len(s) {
		return fmt.Errorf("%w: keys: key-encryption key is one byte repeated (make one with: signet keygen v4.local)", signet.ErrWeakKey)
	}
	return nil
}
