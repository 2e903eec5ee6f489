package lab

import (
	"strings"
	"time"
)

// The payload classes, sized as docs/design.md says: String ≈ 50 B, SimpleStruct ≈ 200 B, ComplexStruct
// ≈ 2 KiB, LargeData ≈ 50 KiB, VeryLargeData ≈ 500 KiB of claims; "typed"
// is a small token whose application data is a user's struct of every
// kind (strings, numbers, a slice, a map and a nested struct), about 400 B.
var Sizes = []string{"tiny", "small", "typed", "medium", "large", "verylarge"}

// Payload is what every library signs: registered claims and, by size
// class, application data. JSON names are the registered claim names.
type Payload struct {
	Issuer    string `json:"iss,omitempty"`
	Subject   string `json:"sub,omitempty"`
	Audience  string `json:"aud,omitempty"`
	ExpiresAt int64  `json:"exp,omitempty"`
	IssuedAt  int64  `json:"iat,omitempty"`
	Data      *Data  `json:"data,omitempty"`
}

// Data is the application part of a payload.
type Data struct {
	Name  string            `json:"name,omitempty"`
	Email string            `json:"email,omitempty"`
	Roles []string          `json:"roles,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
	Level int               `json:"level,omitempty"`
	Score float64           `json:"score,omitempty"`
	Org   *Org              `json:"org,omitempty"`
	Blob  string            `json:"blob,omitempty"`
}

// Org is a struct nested in Data.
type Org struct {
	Name string `json:"name"`
	ID   int64  `json:"id"`
}

// NewPayload returns the payload of a size class, valid for an hour from
// now. The base claims (the reference claims) are the "small" class, about 200
// bytes as JSON; "tiny" carries only sub and exp.
func NewPayload(size string, now time.Time) *Payload {
	p := &Payload{Issuer: "https://issuer.example.com", Subject: "user@example.com", Audience: "https://api.example.com",
		ExpiresAt: now.Add(time.Hour).Unix(), IssuedAt: now.Unix()}
	switch size {
	case "tiny":
		p = &Payload{Subject: "u1", ExpiresAt: now.Add(time.Hour).Unix()}
	case "typed":
		p.Data = &Data{Name: "Ada Lovelace", Email: "ada@example.com", Roles: []string{"admin", "dev", "ops"},
			Attrs: map[string]string{"team": "analytical-engines", "region": "eu-west-1"}, Level: 3, Score: 0.75,
			Org: &Org{Name: "Analytical Engines", ID: 1843}}
	case "medium":
		p.Data = &Data{Name: "Ada Lovelace", Email: "ada@example.com", Roles: []string{"admin", "dev", "ops"},
			Attrs: map[string]string{"team": "analytical-engines", "region": "eu-west-1"}, Blob: strings.Repeat("m", 1700)}
	case "large":
		p.Data = &Data{Name: "Ada Lovelace", Blob: strings.Repeat("L", 50<<10)}
	case "verylarge":
		p.Data = &Data{Name: "Ada Lovelace", Blob: strings.Repeat("V", 500<<10)}
	}
	return p
}
