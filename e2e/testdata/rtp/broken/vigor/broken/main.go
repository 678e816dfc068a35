// Command broken does not compile, on purpose.
package main

import "github.com/vigorvim/vigor"

func main() {
	vigor.Main(nil)
	undefinedFunction()
}
