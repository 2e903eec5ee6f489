package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of the clients file.
const maxJSONDepth = 16

// checkJSON refuses JSON that encoding/json would read loosely: a member
// name repeated in one object (the last would silently win), invalid
// UTF-8, nesting deeper than maxJSONDepth. Errors name where, as a path
// like clients[1].client_id.
func checkJSON(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("invalid UTF-8")
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	type frame struct {
		object bool
		names  map[string]bool
		key    bool   // in an object: the next token is a member name
		name   string // in an object: the current member
		index  int    // in an array: the current element
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.object {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.name)
			} else {
				b.WriteString("[" + strconv.Itoa(f.index-1) + "]")
			}
		}
		return b.String()
	}
	for {
		t, err := d.Token()
		if err != nil {
			if len(stack) == 0 && errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].object && stack[top].key {
			if name, ok := t.(string); ok {
				stack[top].name = name
				if stack[top].names[name] {
					return fmt.Errorf("%s: member repeated", path())
				}
				stack[top].names[name] = true
				stack[top].key = false
				continue
			}
		}
		if top >= 0 && t != json.Delim('}') && t != json.Delim(']') {
			if stack[top].object {
				stack[top].key = true // this token is the member's value (or starts it)
			} else {
				stack[top].index++
			}
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if len(stack) == maxJSONDepth {
				return fmt.Errorf("%s: nested deeper than %d", path(), maxJSONDepth)
			}
			stack = append(stack, frame{object: t == json.Delim('{'), names: map[string]bool{}, key: true})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
	}
}
