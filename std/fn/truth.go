package fn

import "github.com/vigorvim/vigor/std/internal/avail"

// Truth is the Boolean that an editor's result stands for, as the
// wrappers with a bool result compute it: a Number is true when it is not
// zero, v:true is true, anything else is false. In a batch, receive such
// a result into an any and pass it to Truth, since most of these
// functions return the Number 0 or 1, which does not decode into a bool:
//
//	var exists any
//	_, err := fn.Bufexists(ctx, b.Into(&exists), name)
//	// after the batch: fn.Truth(exists)
func Truth(v any) bool { return avail.Truth(v) }
