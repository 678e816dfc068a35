package opt

//go:generate go run ../../internal/gen/opt
