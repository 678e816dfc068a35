// Command tailerr is not a Vigor plugin: its last line on stderr has no
// newline, and it exits before it is ready (e2e/job_test.go).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprint(os.Stderr, "first line\nthe last line, without a newline")
	os.Exit(6)
}
