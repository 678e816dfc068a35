// Command bad.name has an invalid plugin name; discovery skips it.
package main

func main() {}
