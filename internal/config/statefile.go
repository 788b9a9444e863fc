package config

import (
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

// WriteStateFile writes a file under the state directory: its directory 0700 when
// created, the file 0600, replaced whole through a rename so a crash leaves the old
// file or the new one.
func WriteStateFile(path string, data []byte) error {
	if err := ensurePrivateDir(filepath.Dir(path)); err != nil {
		return err
	}
	return writeFileAtomic(path, data, 0o600)
}
