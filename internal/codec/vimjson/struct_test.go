package vimjson_test

import "testing"

type embedded struct {
	E int `json:"e"`
}

type record struct {
	embedded
	Name    string   `json:"name"`
	F       float64  `json:"f"`
	B       []byte   `json:"b"`
	Skip    int      `json:"-"`
	Empty   string   `json:"empty,omitempty"`
	Nil     []string `json:"nil"`
	NoTag   bool
	private int
}

// Structs follow their json tags like encoding/json, with this package's
// forms for the values: a []byte field is a List of bytes (Vim's Blob in
// JSON) and an integral float stays a Float.
func TestAppendStruct(t *testing.T) {
	r := record{embedded: embedded{E: 1}, Name: "x", F: 3, B: []byte{1, 2}, Skip: 9, NoTag: true, private: 5}
	want := `{"e":1,"name":"x","f":3.0,"b":[1,2],"nil":null,"NoTag":true}`
	if got := appendValue(t, r); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := appendValue(t, &r); got != want {
		t.Fatalf("pointer: got %s", got)
	}
}
