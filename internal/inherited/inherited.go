// Package inherited closes the descriptors that a process inherited by
// accident from the process that started it.
//
// Vim's job_start() leaves open, in every job it starts, the descriptors
// that Vim itself holds without close-on-exec: the editor's ends of the
// pipes of the jobs started before, its sockets and other files. A plugin
// that keeps them can read another plugin's replies or write into its
// channel, and keeps the other plugin's input open, so that the other
// plugin sees the end of its channel only when every plugin started after
// it has exited too.
//
// Go opens every descriptor close-on-exec (os.Open, os.Pipe, net, the
// runtime's poller), so a descriptor from 3 up without FD_CLOEXEC at the
// start of a Go program came from the parent: CloseAll closes those.
// Descriptors 0, 1 and 2 stay.
package inherited

// CloseAll closes every descriptor from 3 up that is not close-on-exec.
// Call it before anything can start a child process or open a descriptor
// without close-on-exec (syscall.Open without O_CLOEXEC, C code). It
// returns how many it closed, and an error if it could not list the
// process's descriptors (then it closed none).
func CloseAll() (int, error) { return closeAll() }
