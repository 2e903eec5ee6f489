package oauth

import (
	"encoding/json"
	"testing"
)

// testClientsEdited is the env's clients file as edit leaves it.
func testClientsEdited(t *testing.T, e *env, edit func([]map[string]json.RawMessage) []map[string]json.RawMessage) *Clients {
	t.Helper()
	var file struct {
		Clients []map[string]json.RawMessage `json:"clients"`
	}
	if err := json.Unmarshal(testClientsJSON(t, publicSet(t, e.jwtKey, e.jwtKey2), publicSet(t, e.otherKey)), &file); err != nil {
		t.Fatal(err)
	}
	file.Clients = edit(file.Clients)
	b, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ParseClients(b)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// testClientsWithout is the env's clients without client id.
func testClientsWithout(t *testing.T, e *env, id string) *Clients {
	return testClientsEdited(t, e, func(cs []map[string]json.RawMessage) []map[string]json.RawMessage {
		kept := cs[:0]
		for _, c := range cs {
			if string(c["client_id"]) != `"`+id+`"` {
				kept = append(kept, c)
			}
		}
		return kept
	})
}

// testClientsSetting is the env's clients with member name of client id
// set to value (JSON).
func testClientsSetting(t *testing.T, e *env, id, name, value string) *Clients {
	return testClientsEdited(t, e, func(cs []map[string]json.RawMessage) []map[string]json.RawMessage {
		for _, c := range cs {
			if string(c["client_id"]) == `"`+id+`"` {
				c[name] = json.RawMessage(value)
			}
		}
		return cs
	})
}

// TestIntrospectRemovedClient: once a client is no longer registered
// (the clients file reloaded without it, as for a compromised or
// decommissioned client), its access tokens are inactive at once, in
// both formats: it cannot revoke them itself any more (it no longer
// authenticates) and no other client may (invalid_grant), so without
// this the operator could do nothing about them until they expired.
// Registered again, its unexpired tokens are active again.
func TestIntrospectRemovedClient(t *testing.T) {
	for _, format := range []Format{FormatJWT, FormatPASETO} {
		t.Run(string(format), func(t *testing.T) {
			e := newEnv(t, format)
			tok := e.accessToken() // svc-basic's
			post := map[string][]string(nil)
			asPost := func() *resp {
				return e.do(req{path: PathIntrospect, form: "token=" + tok + "&client_id=svc-post&client_secret=" + secretPost, header: post})
			}
			wantActive(t, asPost(), true)
			all := e.srv.Clients()
			e.srv.SetClients(testClientsWithout(t, e, "svc-basic"))
			wantActive(t, asPost(), false)
			if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 401 {
				t.Fatalf("the removed client revoked: %d %s", r.status, r.body)
			}
			e.srv.SetClients(all)
			wantActive(t, asPost(), true)
		})
	}
}

// TestIntrospectNarrowedClient: when a reload takes a scope or an
// audience from a client, its tokens that carry it are inactive at once
// (the operator narrowed what the client may hold); its tokens within
// what it keeps stay active, and widening it again restores them.
func TestIntrospectNarrowedClient(t *testing.T) {
	for _, format := range []Format{FormatJWT, FormatPASETO} {
		t.Run(string(format), func(t *testing.T) {
			e := newEnv(t, format)
			all := e.srv.Clients()
			get := func(extra string) string {
				t.Helper()
				r := e.tokenBasic(extra)
				if r.status != 200 {
					t.Fatalf("token%s: %d %s", extra, r.status, r.body)
				}
				return r.json["access_token"].(string)
			}
			full := get("")            // scope "read write admin", aud apiA
			read := get("&scope=read") // scope "read", aud apiA
			toB := get("&resource=" + apiB + "&scope=read")
			introspect := func(tok string) *resp {
				return e.do(req{path: PathIntrospect, form: "token=" + tok + "&client_id=svc-post&client_secret=" + secretPost})
			}
			for _, tok := range []string{full, read, toB} {
				wantActive(t, introspect(tok), true)
			}

			e.srv.SetClients(testClientsSetting(t, e, "svc-basic", "scope", `"read write"`))
			wantActive(t, introspect(full), false)
			wantActive(t, introspect(read), true)
			wantActive(t, introspect(toB), true)

			e.srv.SetClients(testClientsSetting(t, e, "svc-basic", "audience", `["`+apiB+`"]`))
			wantActive(t, introspect(full), false)
			wantActive(t, introspect(read), false)
			wantActive(t, introspect(toB), true)

			e.srv.SetClients(all)
			for _, tok := range []string{full, read, toB} {
				wantActive(t, introspect(tok), true)
			}
		})
	}
}
