package oauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxJSONDepth bounds the nesting of the clients file.
const maxJSONDepth = 16

// checkJSON refuses JSON that encoding/json would read loosely: a member
// name repeated in one object (the last would silently win), invalid
// UTF-8, nesting deeper than maxJSONDepth.
func checkJSON(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("invalid UTF-8")
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	type frame struct {
		object bool
		names  map[string]bool
		key    bool // in an object, the next token is a member name
	}
	var stack []frame
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
				if stack[top].names[name] {
					return fmt.Errorf("member %q repeated", name)
				}
				stack[top].names[name] = true
				stack[top].key = false
				continue
			}
		}
		if top >= 0 && stack[top].object && !stack[top].key {
			stack[top].key = true // this token is the member's value (or starts it)
		}
		switch t {
		case json.Delim('{'):
			if len(stack) == maxJSONDepth {
				return fmt.Errorf("nested deeper than %d", maxJSONDepth)
			}
			stack = append(stack, frame{object: true, names: map[string]bool{}, key: true})
		case json.Delim('['):
			if len(stack) == maxJSONDepth {
				return fmt.Errorf("nested deeper than %d", maxJSONDepth)
			}
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
	}
}
