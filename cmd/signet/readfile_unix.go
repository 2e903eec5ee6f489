//go:build unix

package main

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading with O_NONBLOCK: a named pipe opens
// at once even with no writer (and is then refused by its type); the flag
// changes nothing for a regular file.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
