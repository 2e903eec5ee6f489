package sf

import "reflect"

// equalValue compares parsed values, nil and empty slices alike.
func equalValue(a, b any) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

func normalize(v any) any {
	switch v := v.(type) {
	case List:
		out := List{}
		for _, m := range v {
			out = append(out, normalize(m).(Member))
		}
		return out
	case Dictionary:
		out := Dictionary{}
		for _, kv := range v {
			out = append(out, DictMember{kv.Key, normalize(kv.Value).(Member)})
		}
		return out
	case InnerList:
		out := InnerList{Items: []Item{}, Params: normalize(v.Params).(Params)}
		for _, it := range v.Items {
			out.Items = append(out.Items, normalize(it).(Item))
		}
		return out
	case Item:
		return Item{normalize(v.Value), normalize(v.Params).(Params)}
	case Params:
		out := Params{}
		for _, p := range v {
			out = append(out, Param{p.Key, normalize(p.Value)})
		}
		return out
	case []byte:
		return append([]byte{}, v...)
	}
	return v
}
