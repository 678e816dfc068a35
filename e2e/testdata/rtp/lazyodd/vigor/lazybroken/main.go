// Command lazybroken is declared lazy and does not compile, on purpose.
package main

import "github.com/vigorvim/vigor"

func main() {
	vigor.Main(nil)
	undefinedFunction()
}
