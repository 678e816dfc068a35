//go:build !unix

package editortest

import (
	"fmt"
	"os"
)

// private returns an error unless d is a directory. Ownership is not
// checked here.
func private(d string) error {
	st, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("cannot be read (%w)", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("is not a directory")
	}
	return nil
}
