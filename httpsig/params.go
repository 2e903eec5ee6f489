package httpsig

import (
	"fmt"

	"github.com/signet-go/signet/internal/clip"
	"github.com/signet-go/signet/internal/sf"
)

// maxComponents bounds the components of one signature.
const maxComponents = 64

// sigInput is one member of Signature-Input: the covered components and
// the signature parameters, in received order (RFC 9421 §2.3, §4.1).
type sigInput struct {
	comps      []Component
	params     sf.Params
	created    int64
	expires    int64
	hasCreated bool
	hasExpires bool
	nonce      string
	alg        string
	keyid      string
	tag        string
	text       string // the @signature-params value: the member re-serialized strictly
}

// parseSigInput reads a Signature-Input member. Unknown parameters are
// kept (they are part of the signed @signature-params line); the six
// registered ones must have their registered types. In Accept-Signature
// (accept), created and expires are requests without values.
func parseSigInput(m sf.Member, accept bool) (sigInput, error) {
	il, ok := m.(sf.InnerList)
	if !ok {
		return sigInput{}, fmt.Errorf("member is not an inner list")
	}
	if len(il.Items) > maxComponents {
		return sigInput{}, fmt.Errorf("%w: more than %d components", ErrComponent, maxComponents)
	}
	in := sigInput{params: il.Params, comps: make([]Component, 0, len(il.Items))}
	for _, it := range il.Items {
		c, err := componentOf(it)
		if err != nil {
			return in, err
		}
		in.comps = append(in.comps, c)
	}
	if err := checkUnique(in.comps); err != nil {
		return in, err
	}
	for _, p := range il.Params {
		var ok bool
		switch p.Key {
		case "created", "expires":
			var v int64
			if v, ok = p.Value.(int64); ok && v < 0 {
				ok = false
			}
			if b, isBool := p.Value.(bool); accept && isBool && b {
				ok = true
			}
			if p.Key == "created" {
				in.created, in.hasCreated = v, true
			} else {
				in.expires, in.hasExpires = v, true
			}
		case "nonce":
			in.nonce, ok = p.Value.(string)
		case "alg":
			in.alg, ok = p.Value.(string)
		case "keyid":
			in.keyid, ok = p.Value.(string)
		case "tag":
			in.tag, ok = p.Value.(string)
		default:
			ok = true
		}
		if !ok {
			return in, fmt.Errorf("parameter %s has the wrong type", clip.String(p.Key))
		}
	}
	text, err := sf.SerializeList(sf.List{il})
	if err != nil {
		return in, err
	}
	in.text = text
	return in, nil
}

// sigInputText serializes components and parameters as a Signature-Input
// member value: ("@method" "@path");created=1618884473;keyid="k".
func sigInputText(comps []Component, params sf.Params) (string, error) {
	il := sf.InnerList{Items: make([]sf.Item, len(comps)), Params: params}
	for i, c := range comps {
		il.Items[i] = sf.Item{Value: c.name, Params: c.params}
	}
	return sf.SerializeList(sf.List{il})
}
