package fn

import "github.com/vigorvim/vigor/std/internal/avail"

// Truth is the Boolean that an editor's result stands for, as the
// wrappers with a bool result compute it: a Number is true when it is not
// zero, v:true is true, anything else is false. In a batch, a bool
// receives such a result directly when it is 0, 1, v:true or v:false
// (b.Into(&exists)); Truth is for the rare function whose "true" is
// another Number.
func Truth(v any) bool { return avail.Truth(v) }
