//go:build !unix

package main

import "io"

// protectSecretFile does nothing outside Unix, where a file's access is
// not given by its mode bits.
func (c *cli) protectSecretFile(io.Writer) {}
