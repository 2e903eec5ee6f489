package published

// HTTPSigRow is one algorithm and operation of the RFC 9421 study: each
// library's figure.
type HTTPSigRow struct {
	Alg  string // the lab's name: "rsa-pss-sha512", "ecdsa-p256-sha256", "hmac-sha256"
	Op   string // "Sign", "Verify"
	Figs map[string]Fig
}

// RangeClaim is one of the study's "Key Observations": forcebit faster
// than the alternatives by Lo–Hi, as a ratio of times (an alternative's
// time over forcebit's: 1.02 for "2% faster", 2 for "2x faster").
type RangeClaim struct {
	Text    string // as printed
	Alg, Op string
	Lo, Hi  float64
}

// HTTPSigStudy is the RFC 9421 library benchmarks: four Go libraries
// signing and verifying the same request.
type HTTPSigStudy struct {
	Source Source
	// Libs are the libraries in the study's column order, by the lab's
	// names; Headline is the one it compares the others with.
	Libs     []string
	Headline string
	Rows     []HTTPSigRow
	// Speed are its speed observations; MemoryLess and FewerAllocs its
	// memory ones: forcebit uses Lo–Hi less memory (a fraction: 0.35 for
	// 35%) and makes Lo–Hi fewer allocations than the alternatives.
	Speed                   []RangeClaim
	MemoryLess, FewerAllocs [2]float64
}

// HTTPSig is "HTTP Message Signatures Library Benchmarks": the comparison
// published with forcebit's library (its benchmarks/comparison).
var HTTPSig = HTTPSigStudy{
	Source: Source{
		Title:   "HTTP Message Signatures Library Benchmarks",
		URL:     "github.com/forcebit/http-message-signatures-rfc9421-go (benchmarks/comparison; the text gives the import paths, no address)",
		Machine: "Apple M2 (darwin/arm64), Go 1.24",
		What:    "sign and verify of one HTTP request (@method, @authority/@target-uri, @path, content-type) by forcebit, yaronf/httpsign, remitly-oss/httpsig-go and common-fate/httpsig: ns/op, B/op, allocs/op for RSA-PSS-SHA512 (2048-bit), ECDSA-P256-SHA256 and HMAC-SHA256 (64-byte key)",
	},
	Libs:     []string{"forcebit", "yaronf", "remitly", "common-fate"},
	Headline: "forcebit",
	Rows: []HTTPSigRow{
		{"rsa-pss-sha512", "Sign", map[string]Fig{"forcebit": {923264, 8058, 56}, "yaronf": {987610, 12275, 115}, "remitly": {959115, 12363, 124}, "common-fate": {940884, 14357, 126}}},
		{"ecdsa-p256-sha256", "Sign", map[string]Fig{"forcebit": {24926, 13220, 108}, "yaronf": {28924, 17326, 185}, "remitly": {28202, 17294, 181}, "common-fate": {29739, 19271, 183}}},
		{"hmac-sha256", "Sign", map[string]Fig{"forcebit": {2580, 7650, 55}, "yaronf": {5071, 10817, 113}, "remitly": {5803, 11322, 121}, "common-fate": {6931, 14725, 124}}},
		{"rsa-pss-sha512", "Verify", map[string]Fig{"forcebit": {29538, 1792, 15}, "yaronf": {37494, 11869, 200}, "remitly": {34307, 7115, 126}, "common-fate": {35055, 9248, 126}}},
		{"ecdsa-p256-sha256", "Verify", map[string]Fig{"forcebit": {54853, 816, 11}, "yaronf": {63615, 10604, 207}, "remitly": {60453, 6570, 133}, "common-fate": {60990, 8744, 134}}},
		{"hmac-sha256", "Verify", map[string]Fig{"forcebit": {460, 776, 8}, "yaronf": {7186, 9740, 192}, "remitly": {4257, 5834, 118}, "common-fate": {6347, 8888, 118}}},
	},
	Speed: []RangeClaim{
		{"RSA-PSS-SHA512: forcebit is fastest (~923μs), 2-7% faster than alternatives", "rsa-pss-sha512", "Sign", 1.02, 1.07},
		{"ECDSA-P256-SHA256: forcebit is 13-19% faster than alternatives", "ecdsa-p256-sha256", "Sign", 1.13, 1.19},
		{"HMAC-SHA256: forcebit is 2-2.7x faster than alternatives", "hmac-sha256", "Sign", 2, 2.7},
		{"RSA-PSS-SHA512: forcebit is 14-27% faster than alternatives", "rsa-pss-sha512", "Verify", 1.14, 1.27},
		{"ECDSA-P256-SHA256: forcebit is 10-16% faster than alternatives", "ecdsa-p256-sha256", "Verify", 1.10, 1.16},
		{"HMAC-SHA256: forcebit is 9-16x faster than alternatives", "hmac-sha256", "Verify", 9, 16},
	},
	MemoryLess:  [2]float64{0.35, 0.85},
	FewerAllocs: [2]float64{0.50, 0.90},
}
