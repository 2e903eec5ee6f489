//go:build !unix

package main

import "os"

// openNoBlock opens path for reading. Outside Unix, opening a file does not
// wait for a writer, so no flag is needed; readFile then refuses anything
// but a regular file.
func openNoBlock(path string) (*os.File, error) {
	return os.Open(path)
}
