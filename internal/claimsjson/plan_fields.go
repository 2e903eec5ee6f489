package claimsjson

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// cutTag splits a json tag into its name and options.
func cutTag(tag string) (name, opts string, found bool) { return strings.Cut(tag, ",") }

// jsonField is a field encoding/json codes in a struct: its JSON name,
// where it is (the offset from the struct's start, through embedded
// structs) and how it was named.
type jsonField struct {
	name   string
	tagged bool // the name comes from a tag
	opts   string
	depth  int   // how many embedded structs it is in
	index  []int // the path of field indices, for encoding/json's order
	off    uintptr
	typ    reflect.Type
}

// structFields lists the fields encoding/json codes in the struct t, in
// its order, with its rules for embedded structs: the fields of an
// embedded struct (without a tag naming it) are promoted; of the fields
// that share a name, the shallowest wins, or at the same depth the one
// tagged; otherwise none of them is coded. ok is false for what the plan
// leaves to encoding/json: a struct embedded through a pointer (it is
// allocated on decode and skipped when nil on encode). skip, when not nil,
// names embedded fields that are not looked into (the registered claims:
// the format codes them), each recorded in skipped by its offset; named
// says one has a tag that names it (encoding/json would code it as a
// member of that name).
func structFields(t reflect.Type, skip reflect.Type) (fields []jsonField, skipped []uintptr, named, ok bool) {
	type level struct {
		typ   reflect.Type
		index []int
		off   uintptr
	}
	var all []jsonField
	next := []level{{typ: t}}
	visited := map[reflect.Type]bool{}
	var count, nextCount map[reflect.Type]int
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, l := range current {
			if visited[l.typ] {
				continue
			}
			visited[l.typ] = true
			for i := range l.typ.NumField() {
				sf := l.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if sf.Anonymous && skip != nil && sf.Type == skip && len(l.index) == 0 {
					// The registered claims: embedded, or left out ("-"),
					// are the format's; under a tag name encoding/json
					// would code them as a member of that name.
					if n, _, _ := cutTag(tag); tag != "-" && validTag(n) {
						named = true
					}
					skipped = append(skipped, sf.Offset)
					continue
				}
				if tag == "-" {
					continue
				}
				name, opts, _ := cutTag(tag)
				if !validTag(name) {
					name = ""
				}
				index := append(slices.Clip(l.index), i)
				off := l.off + sf.Offset
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					f := jsonField{name: name, tagged: tagged, opts: opts, depth: len(index) - 1, index: index, off: off, typ: sf.Type}
					all = append(all, f)
					if count[l.typ] > 1 {
						// The same embedded type twice at this depth: its
						// fields annihilate one another (two copies).
						all = append(all, f)
					}
					continue
				}
				if sf.Type.Kind() == reflect.Pointer {
					return nil, nil, false, false
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, level{typ: ft, index: index, off: off})
				}
			}
		}
	}
	slices.SortStableFunc(all, func(a, b jsonField) int {
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(a.depth, b.depth); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		group := all[i:j]
		// The dominant field: the first (shallowest, tagged first), unless
		// the second is as deep and as tagged.
		if len(group) == 1 || group[0].depth != group[1].depth || group[0].tagged != group[1].tagged {
			fields = append(fields, group[0])
		}
		i = j
	}
	slices.SortFunc(fields, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return fields, skipped, named, true
}
