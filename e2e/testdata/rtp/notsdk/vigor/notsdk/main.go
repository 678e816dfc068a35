// Command notsdk is not a Vigor plugin: it prints and exits.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "fatal error: this program is not a plugin")
	os.Exit(5)
}
