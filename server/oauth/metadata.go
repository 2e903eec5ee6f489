package oauth

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/signet-go/signet"
)

// metadataDoc is the RFC 8414 §2 authorization server metadata.
type metadataDoc struct {
	Issuer                   string   `json:"issuer"`
	TokenEndpoint            string   `json:"token_endpoint"`
	JWKSURI                  string   `json:"jwks_uri,omitempty"`
	ScopesSupported          []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported   []string `json:"response_types_supported"`
	GrantTypesSupported      []string `json:"grant_types_supported"`
	TokenAuthMethods         []string `json:"token_endpoint_auth_methods_supported"`
	TokenAuthAlgs            []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	RevocationEndpoint       string   `json:"revocation_endpoint"`
	RevocationAuthMethods    []string `json:"revocation_endpoint_auth_methods_supported"`
	RevocationAuthAlgs       []string `json:"revocation_endpoint_auth_signing_alg_values_supported"`
	IntrospectionEndpoint    string   `json:"introspection_endpoint"`
	IntrospectionAuthMethods []string `json:"introspection_endpoint_auth_methods_supported"`
	IntrospectionAuthAlgs    []string `json:"introspection_endpoint_auth_signing_alg_values_supported"`
}

// metadata is the discovery document for clients cs. Every client
// authentication method is listed at every endpoint; the assertion
// algorithms are the asymmetric JWS algorithms (a client registers keys
// of any of them), with "Ed25519" after "EdDSA": an assertion from an
// EdDSA client key may name it either way (RFC 9864's fully-specified
// name, which openid-client 6 writes, or RFC 8037's). There is no authorization endpoint: the list of
// response types is empty, as RFC 8414 requires the member.
func (s *Server) metadata(cs *Clients) []byte {
	methods := []string{string(ClientSecretBasic), string(ClientSecretPost), string(PrivateKeyJWT)}
	var algs []string
	for _, a := range signet.JWSAlgorithms() {
		if !a.Symmetric() {
			algs = append(algs, string(a))
		}
		if a == signet.EdDSA {
			algs = append(algs, "Ed25519")
		}
	}
	d := metadataDoc{
		Issuer:                   s.issuer,
		TokenEndpoint:            s.issuer + PathToken,
		ScopesSupported:          cs.Scopes(),
		ResponseTypesSupported:   []string{},
		GrantTypesSupported:      []string{"client_credentials"},
		TokenAuthMethods:         methods,
		TokenAuthAlgs:            algs,
		RevocationEndpoint:       s.issuer + PathRevoke,
		RevocationAuthMethods:    methods,
		RevocationAuthAlgs:       algs,
		IntrospectionEndpoint:    s.issuer + PathIntrospect,
		IntrospectionAuthMethods: methods,
		IntrospectionAuthAlgs:    algs,
	}
	if s.jwks != nil && s.format == FormatJWT {
		d.JWKSURI = s.issuer + PathJWKS
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		panic(err) // strings and lists of strings always encode
	}
	return append(b, '\n')
}

// MetadataMaxAge is the max-age of the discovery document: it changes
// only when the clients (and so scopes_supported) are replaced.
const MetadataMaxAge = 300

func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	b := s.state.Load().metadata
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age="+strconv.Itoa(MetadataMaxAge))
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}
