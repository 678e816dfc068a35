//go:build unix

package editortest

import (
	"fmt"
	"os"
	"syscall"
)

// private returns an error, worded to follow the directory's name, unless
// d is a directory (not a symbolic link) owned by the current user that
// neither group nor others can write to.
func private(d string) error {
	st, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("cannot be read (%w)", err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("is a symbolic link, not a directory")
	}
	if !st.IsDir() {
		return fmt.Errorf("is not a directory")
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("is owned by uid %d, not by you (uid %d)", sys.Uid, os.Getuid())
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("is writable by others (mode %04o)", st.Mode().Perm())
	}
	return nil
}
