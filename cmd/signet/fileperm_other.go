//go:build !unix

package main

import (
	"io"
	"io/fs"
)

// worldWritable is false outside Unix, where a file's mode bits do not
// say who may write it.
func worldWritable(fs.FileInfo) bool { return false }

// protectSecretFile does nothing outside Unix, where a file's access is
// not given by its mode bits.
func (c *cli) protectSecretFile(io.Writer) {}
