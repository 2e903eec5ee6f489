package claimsjson

import (
	"encoding/json"
	"math"
	"testing"
)

// FuzzPlanDecode decodes arbitrary payloads with the Plans of kitchen (every
// kind a Plan codes), study and nested, through Take and from a Rest, and
// with encoding/json, and requires the same value or an error from both
// (checkDecode); text that is not a valid JSON object must not make the
// plan panic.
func FuzzPlanDecode(f *testing.F) {
	for _, p := range decodeCases {
		f.Add(p)
	}
	for _, p := range nestedCases {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		if len(payload) > MaxSplit {
			return
		}
		checkDecode[kitchen](t, payload)
		checkDecode[study](t, payload)
		checkDecode[*study](t, payload)
		checkDecode[nested](t, payload)
		checkDecode[*nested](t, payload)
		// Whatever the text, the plan returns: an error or a value.
		_, _, _ = takeInto[kitchen](PlanFor[kitchen](testFilter), payload, &testReg{})
	})
}

// FuzzPlanEncode writes values of kitchen made of the inputs with the
// Plan and with encoding/json, and requires the same bytes, or an error
// from both (checkEncode).
func FuzzPlanEncode(f *testing.F) {
	f.Add("alice", "<script>&\u2028", int64(-42), uint64(7), 0.1, float32(1e-7), true, "k")
	f.Add("\xff\xfe\x00", "", int64(1)<<62, ^uint64(0), 1e21, float32(3.4e38), false, "\x7f")
	f.Add("é😀", "\\\"", int64(-1)<<63, uint64(0), 5e-324, float32(math.Copysign(0, -1)), true, "")
	f.Fuzz(func(t *testing.T, s1, s2 string, i int64, u uint64, fl float64, g float32, b bool, key string) {
		checkEncode(t, kitchen{
			S: s1, SE: s2, B: b, BE: !b,
			I: int(i), I8: int8(i), I16: int16(i), I32: int32(i), I64: i,
			U: uint(u), U8: uint8(u), U16: uint16(u), U32: uint32(u), U64: u, UP: uintptr(u),
			F32: g, F64: fl, SS: []string{s1, s2, key}, SI: []int{int(i)}, SF: []float64{fl, float64(g)},
			SB: []bool{b}, SU16: []uint16{uint16(u)}, SR: []role{role(key)},
			M: map[string]string{key: s1, s2: key}, Role: role(s2), NoTag: key, HTML: s1, Case: s2, Uni: key,
		})
		checkEncode(t, study{UserID: uint(u), Username: s1, Perms: []string{s2}})
		n := int(i)
		v := nested{
			base: base{Tenant: s1, Level: int(i)}, base2: base2{Other: s2},
			Data: &inner{Name: s1, Roles: []string{key}, Attrs: map[string]string{key: s2}, N: &n, Kids: []inner{{Blob: s2}}},
			Any:  map[string]any{key: []any{fl, s1, b, nil}, s2: float64(g)}, MA: map[string]any{s1: map[string]any{key: int64(u)}},
			Num: json.Number(key), F: fl, PMs: []ptrM{{X: int(i)}}, Opt: withStringOpt{N: int(i), S: s1},
		}
		checkEncode(t, v)
		checkEncodePtr(t, &v)
	})
}
