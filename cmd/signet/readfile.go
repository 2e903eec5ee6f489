package main

import (
	"fmt"
	"io/fs"

	"github.com/signet-go/signet"
)

// readFile reads the file at path (a key, claims, JWK Set or request
// file), at most maxInput bytes. Only a regular file (or a symbolic link
// to one) is read: a named pipe, a device such as /dev/zero, a socket or a
// directory is refused, never waited on. The file is opened without
// blocking (openNoBlock), so that opening a named pipe with no writer
// returns at once, and its type is read from the open file, so that it
// cannot change between the check and the read.
func readFile(path, what string) ([]byte, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s: %w: %s, not a regular file: signet reads keys, claims and messages from regular files only (pipe data to stdin instead)", what, path, signet.ErrUnsupported, fileKind(fi.Mode()))
	}
	if fi.Size() > maxInput {
		return nil, fmt.Errorf("%w: %s %s is larger than %d bytes", signet.ErrTooLarge, what, path, maxInput)
	}
	return readLimited(f, what+" "+path) // the file may grow after Stat
}

// fileKind names the type of a file that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
