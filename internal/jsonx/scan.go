package jsonx

// Validators for a caller that reads values itself (a decoder that fills
// a struct as it goes), with the same rules as Members: RFC 8259 grammar,
// valid UTF-8, no lone surrogates, depth bounded by MaxDepth, and no
// repeated member names (Names), case-folded with fold.

// ScanValue validates the JSON value at s[i:] and returns its end. depth
// is how deeply the value is nested already (1 for a member of a
// top-level object); fold compares the names of its objects case-folded.
func ScanValue(s string, i, depth int, fold bool) (int, error) {
	p := scanner{fold: fold, i: i, depth: depth}
	if err := p.value(s); err != nil {
		return -1, err
	}
	return p.i, nil
}

// ScanString validates the JSON string at s[i] (a '"') and returns its end,
// past the closing quote, and whether it holds an escape.
func ScanString(s string, i int) (end int, esc bool, err error) {
	if i >= len(s) || s[i] != '"' {
		return -1, false, ErrSyntax
	}
	p := scanner{i: i}
	if err := p.str(s); err != nil {
		return -1, false, err
	}
	return p.i, p.esc, nil
}

// ScanNumber validates the JSON number at s[i:] and returns its end.
func ScanNumber(s string, i int) (int, error) {
	if i >= len(s) {
		return -1, ErrSyntax
	}
	n := numberLen(s[i:])
	if n == 0 {
		return -1, ErrSyntax
	}
	return i + n, nil
}

// Names refuses a member name seen before in one object, as Members does:
// after unescaping, and with fold, names that differ only in case. The
// zero Names is an empty set; it keeps positions in the text, so every
// name must come from the same text.
type Names struct{ o objectState }

// Add records the name s[a:b] (the text between its quotes, esc saying it
// has escapes) and returns it unescaped (a copy, when esc); ErrDuplicate
// when the object had it already.
func (n *Names) Add(s string, a, b int, esc, fold bool) (string, error) {
	if err := n.o.add(s, span{a, b}, esc, fold); err != nil {
		return "", err
	}
	if esc {
		return n.o.last, nil
	}
	return s[a:b], nil
}
