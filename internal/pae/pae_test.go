package pae

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"
)

// The examples of PASETO's Common.md, "Authentication Padding".
func TestSpecExamples(t *testing.T) {
	cases := []struct {
		pieces [][]byte
		want   string
	}{
		{nil, "0000000000000000"},
		{[][]byte{{}}, "0100000000000000" + "0000000000000000"},
		{[][]byte{{}, {}}, "0200000000000000" + "0000000000000000" + "0000000000000000"},
		{[][]byte{[]byte("Paragon")}, "0100000000000000" + "0700000000000000" + hex.EncodeToString([]byte("Paragon"))},
		{[][]byte{[]byte("Paragon"), []byte("Initiative")}, "0200000000000000" + "0700000000000000" + hex.EncodeToString([]byte("Paragon")) + "0a00000000000000" + hex.EncodeToString([]byte("Initiative"))},
	}
	for _, c := range cases {
		got := Append(nil, c.pieces...)
		if hex.EncodeToString(got) != c.want {
			t.Errorf("PAE(%q) = %x, want %s", c.pieces, got, c.want)
		}
		lens := make([]int, len(c.pieces))
		for i, p := range c.pieces {
			lens[i] = len(p)
		}
		if Len(lens...) != len(got) {
			t.Errorf("Len = %d, want %d", Len(lens...), len(got))
		}
	}
}

func ExampleAppend() {
	b := Append(nil, []byte("v4.local."), []byte("n"))
	fmt.Printf("%x\n", b)
	// Output: 0200000000000000090000000000000076342e6c6f63616c2e01000000000000006e
}

// TestWrite: the bytes Write feeds a hash are Append's, for pieces on
// either side of the size written directly.
func TestWrite(t *testing.T) {
	big := bytes.Repeat([]byte{'x'}, direct)
	for _, pieces := range [][][]byte{
		nil, {{}}, {[]byte("Paragon")}, {big}, {[]byte("v4.local."), big[:direct-1], big, nil, []byte("f")},
	} {
		var got bytes.Buffer
		buf := Write(&got, make([]byte, 0, 8), pieces...)
		if want := Append(nil, pieces...); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d pieces: Write gave %x, Append %x", len(pieces), got.Bytes(), want)
		}
		if cap(buf) == 0 {
			t.Error("no buffer returned")
		}
	}
}
