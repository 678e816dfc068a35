//go:build !unix

package inherited

// closeAll does nothing where there are no Unix descriptors: a child
// process on Windows inherits only the handles it is given.
func closeAll() (int, error) { return 0, nil }
