//go:build unix

package main

import (
	"io"
	"io/fs"
	"os"
)

// worldWritable reports whether every local user may write the file fi
// describes.
func worldWritable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o002 != 0 }

// protectSecretFile makes stdout private when it is a regular file that
// others may read: "signet keygen ES256 > es256.jwk" has the shell create
// the file with the umask's mode, 0644 by default, and the key would be
// readable by every local user. The group's and others' bits are cleared
// before the secret is written, with a warning; if that fails, the
// warning says to do it. (A process that opened the file before that
// could still read it: create it with umask 077 to leave no such moment.)
func (c *cli) protectSecretFile(stdout io.Writer) {
	f, ok := stdout.(*os.File)
	if !ok {
		return
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 == 0 {
		return
	}
	mode := fi.Mode().Perm()
	private := mode &^ 0o077
	if err := f.Chmod(private); err != nil {
		c.warn("the key file could be read by others (mode %04o) and its mode could not be changed (%v): make it private with chmod 600", mode, err)
		return
	}
	c.warn("the key file could be read by others (mode %04o): its mode is now %04o (create it with umask 077)", mode, private)
}
