package oauth

import (
	"encoding/json"
	"testing"
)

// testClientsJSONWithout is the env's clients file without client id.
func testClientsJSONWithout(t *testing.T, e *env, id string) []byte {
	t.Helper()
	var file struct {
		Clients []map[string]json.RawMessage `json:"clients"`
	}
	if err := json.Unmarshal(testClientsJSON(t, publicSet(t, e.jwtKey, e.jwtKey2), publicSet(t, e.otherKey)), &file); err != nil {
		t.Fatal(err)
	}
	kept := file.Clients[:0]
	for _, c := range file.Clients {
		if string(c["client_id"]) != `"`+id+`"` {
			kept = append(kept, c)
		}
	}
	file.Clients = kept
	b, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
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
			without, err := ParseClients(testClientsJSONWithout(t, e, "svc-basic"))
			if err != nil {
				t.Fatal(err)
			}
			e.srv.SetClients(without)
			wantActive(t, asPost(), false)
			if r := e.revokeAs(tok, basicHeader("svc-basic", secretBasic)); r.status != 401 {
				t.Fatalf("the removed client revoked: %d %s", r.status, r.body)
			}
			e.srv.SetClients(all)
			wantActive(t, asPost(), true)
		})
	}
}
