package jwt

import (
	"reflect"

	"github.com/signet-go/signet/internal/claimsjson"
)

// split decodes and encodes types embedding Claims in two parts (see
// claimsjson.Filter): the registered claims with this package's codec,
// the rest with encoding/json.
var split = claimsjson.NewFilter(reflect.TypeFor[Claims](), "iss", "sub", "aud", "exp", "nbf", "iat", "jti")

func canFilter[T any]() bool { return split.Can(reflect.TypeFor[T]()) }
