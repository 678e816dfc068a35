" Sourced by helper.Load in TestStdHelper: an error in a script.
call NoSuchFunction()
