package paserk

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/binary"
	"fmt"

	"golang.org/x/crypto/argon2"

	"github.com/signet-go/signet"
	"github.com/signet-go/signet/internal/b64"
)

// PasswordParams are the costs of password-based wrapping (WrapPassword).
// k4 uses Argon2id (Memory, Time, Parallelism), k3 uses PBKDF2-SHA-384
// (Iterations); the fields of the other version are ignored. A zero field
// takes its default. The costs are written into the PASERK, so
// UnwrapPassword needs only the password.
type PasswordParams struct {
	// Memory is the Argon2id memory cost in KiB: default 65536 (64 MiB),
	// at least 8 per lane, at most MaxMemory.
	Memory uint32
	// Time is the number of Argon2id passes: default 2, at most MaxTime.
	Time uint32
	// Parallelism is the number of Argon2id lanes: default 1, at most
	// MaxParallelism.
	Parallelism uint8
	// Iterations is the PBKDF2-SHA-384 iteration count: default 100000,
	// at most MaxIterations.
	Iterations uint32
}

// The default costs: Argon2id 64 MiB, 2 passes, 1 lane (libsodium's
// "interactive" limits, which PASERK implementations built on libsodium
// use) and PBKDF2-SHA-384 with 100,000 iterations (the PASERK default).
const (
	DefaultMemory      = 64 * 1024 // Argon2id memory, KiB: 64 MiB
	DefaultTime        = 2         // Argon2id passes
	DefaultParallelism = 1         // Argon2id lanes
	DefaultIterations  = 100_000   // PBKDF2-SHA-384 iterations
)

// The largest costs WrapPassword writes and UnwrapPassword accepts. A
// password-wrapped PASERK carries its own costs, so without these bounds a
// crafted string could make UnwrapPassword allocate and compute without
// limit; above them it fails with signet.ErrTooLarge before any work.
const (
	MaxMemory      = 1 << 20    // Argon2id memory, KiB: 1 GiB
	MaxTime        = 16         // Argon2id passes
	MaxParallelism = 8          // Argon2id lanes
	MaxIterations  = 10_000_000 // PBKDF2-SHA-384 iterations
)

// Sizes of the k4 (Argon2id) and k3 (PBKDF2) password-wrapped data, before
// the encrypted key.
const (
	pwSaltLen4  = 16
	pwNonceLen4 = 24
	pwHead4     = pwSaltLen4 + 8 + 4 + 4 + pwNonceLen4 // salt, mem, time, para, nonce
	pwTagLen4   = 32
	pwSaltLen3  = 32
	pwNonceLen3 = 16
	pwHead3     = pwSaltLen3 + 4 + pwNonceLen3 // salt, iterations, nonce
	pwTagLen3   = 48
)

// withDefaults returns p with its zero fields set to the defaults.
func (p PasswordParams) withDefaults() PasswordParams {
	if p.Memory == 0 {
		p.Memory = DefaultMemory
	}
	if p.Time == 0 {
		p.Time = DefaultTime
	}
	if p.Parallelism == 0 {
		p.Parallelism = DefaultParallelism
	}
	if p.Iterations == 0 {
		p.Iterations = DefaultIterations
	}
	return p
}

// checkArgon2 checks Argon2id costs: memory in KiB.
func checkArgon2(memory uint64, time, para uint32) error {
	switch {
	case memory > MaxMemory || time > MaxTime || para > MaxParallelism:
		return fmt.Errorf("%w: paserk: Argon2id costs %d KiB, %d passes, %d lanes exceed %d KiB, %d, %d",
			signet.ErrTooLarge, memory, time, para, MaxMemory, MaxTime, MaxParallelism)
	case time < 1 || para < 1 || memory < 8*uint64(para):
		return fmt.Errorf("%w: paserk: Argon2id costs %d KiB, %d passes, %d lanes are below the minimum",
			signet.ErrMalformed, memory, time, para)
	}
	return nil
}

// checkPBKDF2 checks a PBKDF2 iteration count.
func checkPBKDF2(iterations uint32) error {
	switch {
	case iterations > MaxIterations:
		return fmt.Errorf("%w: paserk: %d PBKDF2 iterations exceed %d", signet.ErrTooLarge, iterations, MaxIterations)
	case iterations < 1:
		return fmt.Errorf("%w: paserk: zero PBKDF2 iterations", signet.ErrMalformed)
	}
	return nil
}

// WrapPassword encrypts k with a key derived from password: a local key
// becomes k4.local-pw or k3.local-pw, a private v4.public or v3.public key
// k4.secret-pw or k3.secret-pw. k4 derives the key with Argon2id, k3 with
// PBKDF2-SHA-384, at the costs of p (zero fields take the defaults), with a
// fresh random salt and nonce.
//
// Password-wrapped keys are for storage by a person who remembers the
// password; they must not be put in a token footer, where anyone could try
// passwords offline.
//
// Errors wrap signet.ErrKeyUsage (k is a public key: use Encode),
// signet.ErrWeakKey (empty password), signet.ErrTooLarge or
// signet.ErrMalformed (costs above the maxima or below the minima) or
// signet.ErrUnsupported (k is not a PASETO key).
func WrapPassword(k *signet.Key, password []byte, p PasswordParams) (string, error) {
	v, kd, raw, err := rawKey(k)
	if err != nil {
		return "", err
	}
	defer clear(raw)
	h := v.name + "." + typeLocalPW + "."
	switch kd {
	case kindPublic:
		return "", fmt.Errorf("%w: paserk: a public key is not wrapped: use Encode", signet.ErrKeyUsage)
	case kindSecret:
		h = v.name + "." + typeSecretPW + "."
	}
	if len(password) == 0 {
		return "", fmt.Errorf("%w: paserk: empty password", signet.ErrWeakKey)
	}
	p = p.withDefaults()
	var out []byte
	if v == k4 {
		if err := checkArgon2(uint64(p.Memory), p.Time, uint32(p.Parallelism)); err != nil {
			return "", err
		}
		head, err := random(pwHead4)
		if err != nil {
			return "", err
		}
		binary.BigEndian.PutUint64(head[pwSaltLen4:], uint64(p.Memory)*1024)
		binary.BigEndian.PutUint32(head[pwSaltLen4+8:], p.Time)
		binary.BigEndian.PutUint32(head[pwSaltLen4+12:], uint32(p.Parallelism))
		ek, ak := pbkw4Keys(password, head[:pwSaltLen4], p.Time, p.Memory, p.Parallelism)
		edk := xchacha20(ek, head[pwHead4-pwNonceLen4:], raw)
		out = append(head, edk...)
		out = append(out, blake2bSum(pwTagLen4, ak, []byte(h), out)...)
	} else {
		if err := checkPBKDF2(p.Iterations); err != nil {
			return "", err
		}
		head, err := random(pwHead3)
		if err != nil {
			return "", err
		}
		binary.BigEndian.PutUint32(head[pwSaltLen3:], p.Iterations)
		ek, ak, err := pbkw3Keys(password, head[:pwSaltLen3], p.Iterations)
		if err != nil {
			return "", err
		}
		edk := aes256CTR(ek, head[pwHead3-pwNonceLen3:], raw)
		out = append(head, edk...)
		out = append(out, hmacSHA384(ak, []byte(h), out)...)
	}
	return h + b64.EncodeToString(out), nil
}

// UnwrapPassword decrypts a k4.local-pw, k4.secret-pw, k3.local-pw or
// k3.secret-pw with password, and returns the key, bound to the algorithm
// the PASERK names (check its Algorithm when only one is acceptable).
//
// The costs written in s are checked against MaxMemory, MaxTime,
// MaxParallelism and MaxIterations before the key derivation runs; the
// authentication tag is checked, in constant time, before the key is
// decrypted. Even within the bounds, an Argon2id derivation may take
// seconds and up to MaxMemory of memory: do not unwrap strings from
// untrusted sources at a rate they choose.
//
// Errors wrap signet.ErrSignatureInvalid (wrong password, or tampered
// data), signet.ErrTooLarge (s is too long, or its costs exceed the
// maxima), signet.ErrMalformed, signet.ErrUnsupported (s is not
// password-wrapped) or signet.ErrWeakKey.
func UnwrapPassword(s string, password []byte) (*signet.Key, error) {
	w, err := parsePassword(s)
	if err != nil {
		return nil, err
	}
	return w.open(password)
}

// A pwWrapped is a password-wrapped PASERK whose form and costs have been
// checked: parsePassword does every check and no key derivation, so a
// string with costs above the maxima fails before any work.
type pwWrapped struct {
	p    parsed
	kd   kind
	d    []byte // salt, costs, nonce, encrypted key and tag
	mem  uint32 // k4: Argon2id memory, KiB
	time uint32 // k4: Argon2id passes
	para uint8  // k4: Argon2id lanes
	iter uint32 // k3: PBKDF2 iterations
}

// parsePassword decodes a password-wrapped PASERK and checks its costs.
func parsePassword(s string) (pwWrapped, error) {
	p, err := parse(s)
	if err != nil {
		return pwWrapped{}, err
	}
	w := pwWrapped{p: p, kd: kindLocal}
	switch p.typ {
	case typeLocalPW:
	case typeSecretPW:
		w.kd = kindSecret
	default:
		return pwWrapped{}, fmt.Errorf("%w: paserk: %s is not a password-wrapped key", signet.ErrUnsupported, p.header)
	}
	if w.d, err = p.decodeData(); err != nil {
		return pwWrapped{}, err
	}
	head, tagLen := pwSizes(p.v)
	if want := head + p.v.rawLen(w.kd) + tagLen; len(w.d) != want {
		return pwWrapped{}, fmt.Errorf("%w: paserk: %s data is %d bytes, must be %d", signet.ErrMalformed, p.header, len(w.d), want)
	}
	if p.v != k4 {
		w.iter = binary.BigEndian.Uint32(w.d[pwSaltLen3:])
		if err := checkPBKDF2(w.iter); err != nil {
			return pwWrapped{}, err
		}
		return w, nil
	}
	mem := binary.BigEndian.Uint64(w.d[pwSaltLen4:])
	time := binary.BigEndian.Uint32(w.d[pwSaltLen4+8:])
	para := binary.BigEndian.Uint32(w.d[pwSaltLen4+12:])
	if mem%1024 != 0 {
		return pwWrapped{}, fmt.Errorf("%w: paserk: Argon2id memory %d is not a whole number of KiB", signet.ErrMalformed, mem)
	}
	if err := checkArgon2(mem/1024, time, para); err != nil {
		return pwWrapped{}, err
	}
	w.mem, w.time, w.para = uint32(mem/1024), time, uint8(para)
	return w, nil
}

// open derives the wrapping keys from password at w's costs, checks the
// tag and decrypts the key. w must come from parsePassword.
func (w pwWrapped) open(password []byte) (*signet.Key, error) {
	head, tagLen := pwSizes(w.p.v)
	msg, t := w.d[:len(w.d)-tagLen], w.d[len(w.d)-tagLen:]
	var ptk []byte
	if w.p.v == k4 {
		ek, ak := pbkw4Keys(password, w.d[:pwSaltLen4], w.time, w.mem, w.para)
		if !hmac.Equal(t, blake2bSum(pwTagLen4, ak, []byte(w.p.header), msg)) {
			return nil, fmt.Errorf("%w: paserk: %s tag does not verify (wrong password?)", signet.ErrSignatureInvalid, w.p.header)
		}
		ptk = xchacha20(ek, w.d[head-pwNonceLen4:head], msg[head:])
	} else {
		ek, ak, err := pbkw3Keys(password, w.d[:pwSaltLen3], w.iter)
		if err != nil {
			return nil, err
		}
		if !hmac.Equal(t, hmacSHA384(ak, []byte(w.p.header), msg)) {
			return nil, fmt.Errorf("%w: paserk: %s tag does not verify (wrong password?)", signet.ErrSignatureInvalid, w.p.header)
		}
		ptk = aes256CTR(ek, w.d[head-pwNonceLen3:head], msg[head:])
	}
	defer clear(ptk)
	return keyFromRaw(w.p.v, w.kd, ptk)
}

// pwSizes returns the length of a password-wrapped PASERK's data before
// the encrypted key, and of its tag, for version v.
func pwSizes(v *version) (head, tagLen int) {
	if v == k4 {
		return pwHead4, pwTagLen4
	}
	return pwHead3, pwTagLen3
}

// pbkw4Keys derives the k4 encryption and authentication keys: Argon2id
// pre-key k, then BLAKE2b-256 of 0xFF‖k and 0xFE‖k.
func pbkw4Keys(password, salt []byte, time, memory uint32, para uint8) (ek, ak []byte) {
	k := argon2.IDKey(password, salt, time, memory, para, 32)
	defer clear(k)
	return blake2bSum(32, nil, []byte{0xFF}, k), blake2bSum(32, nil, []byte{0xFE}, k)
}

// pbkw3Keys derives the k3 encryption and authentication keys: PBKDF2
// pre-key k, then SHA-384 of 0xFF‖k (first 32 bytes) and of 0xFE‖k.
func pbkw3Keys(password, salt []byte, iterations uint32) (ek, ak []byte, err error) {
	k, err := pbkdf2.Key(sha512.New384, string(password), salt, int(iterations), 32)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: paserk: PBKDF2: %v", signet.ErrUnsupported, err)
	}
	defer clear(k)
	return sha384([]byte{0xFF}, k)[:32], sha384([]byte{0xFE}, k), nil
}
