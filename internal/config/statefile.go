package config

import (
	"io"
	"os"
	"path/filepath"
)

// OpenStateFile opens a file the console keeps under the state directory for reading,
// refusing anything but a regular file before opening it (a FIFO would block, a
// device never ends). The caller bounds how much it reads.
func OpenStateFile(path string) (*os.File, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// WriteStateFileWith writes a file under the state directory from what write writes,
// so a large file is never whole in memory: its directory 0700 when created, a
// temporary file beside it, 0600, renamed over path once write and the sync succeed, so
// a crash leaves the old file or the new one.
func WriteStateFileWith(path string, write func(io.Writer) error) error {
	if err := ensurePrivateDir(filepath.Dir(path)); err != nil {
		return err
	}
	return writeAtomicWith(path, 0o600, write)
}
