package vimjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

var readSeeds = []string{
	// valid
	`[3,["greet",["CI"]]]`,
	`[0,["$interrupt",[]]]`,
	`[-5,[1,null]]`,
	`[-1,["x",null]]` + "\n" + `[2,["m",[1,2.5,"s",{"a":[true,false,null]}]]]` + "\n",
	`[1,["a",[]]][0,["b",[]]][-2,[3,null]]`,
	" [ 2 ,\r\n [ \"m\" , [ 1 , {\"a\" : [ ] } ] ] ] ",
	`[4,["a\"b\u00e9\ud83c\udf89",["\u0000"]]]`,
	`[-9223372036854775807,[{},null]]`,
	`[-9223372036854775808,[1,null]]`,
	`[9223372036854775807,["m",[]]]`,
	`[-3,[null,"E117: Unknown function: g:Foo"]]`,
	`[-3,[null,null]]`,
	"[-4, [ [1,[2]] ,\n null ] ]",
	`[-2,[1,"boom"]]`,
	`[-6,[null,[0,"x\u00e9"]]]`,
	// answers that are not [result, error]: the call fails
	`[-1,"x"]`,
	`[-7,3]`,
	`[-8,[]]`,
	`[-9,[1]]`,
	`[-10,[1,null,3]]`,
	`[-11,{"a":1}]`,
	`[-12,"ERROR"]`,
	`[-13,["` + "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9" + `",1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35]]`,
	// malformed but recoverable
	`"hello"[1,["m",[]]]`,
	`42`,
	`null`,
	`{"a":1}`,
	`[]`,
	`[1]`,
	`[1,2,3]`,
	`["x",1]`,
	`[1.5,1]`,
	`[7,"oops"]`,
	`[7,["m"]]`,
	`[7,[42,[]]]`,
	`[7,["m",{}]]`,
	`["call","F",[],-1]`,
	`[0,[-1,"F",[]]]`,
	// broken
	`]`,
	`[1,,2]`,
	`[1,["m",[`,
	`[-1,NaN]`,
	"[1,[\"\xff\xfe\",[\"\xc3\"]]]",
	"",
}

// FuzzReadMessage checks that no input makes ReadMessage panic or loop, that
// every message it returns is well formed (an answer has a result or an
// error, never both), and that it survives being encoded again.
func FuzzReadMessage(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := vimjson.New(bytes.NewReader(data))
		// Every message takes at least one byte, so this bounds the loop.
		for i := 0; i <= len(data); i++ {
			var m wire.Message
			err := c.ReadMessage(&m)
			if err != nil {
				if errors.Is(err, wire.ErrMalformed) {
					continue
				}
				return
			}
			checkReadMessage(t, c, &m)
		}
		t.Fatalf("ReadMessage returned more messages than there are bytes in %q", data)
	})
}

func checkReadMessage(t *testing.T, c *vimjson.Codec, m *wire.Message) {
	switch m.Kind {
	case wire.Request:
		if m.ID <= 0 {
			t.Fatalf("request with id %d", m.ID)
		}
	case wire.Notification:
		if m.ID != 0 {
			t.Fatalf("notification with id %d", m.ID)
		}
	case wire.Response:
		if m.ID == 0 || m.Params != nil || m.Method != "" {
			t.Fatalf("bad response %+v", m)
		}
	default:
		t.Fatalf("message of kind %s", m.Kind)
	}
	if m.Kind == wire.Response {
		// [-id, [result, null]] or [-id, [null, error]]; a body that is
		// neither becomes an error, so that the caller does not wait
		// forever.
		if (m.Result == nil) == (m.Error == nil) {
			t.Fatalf("answer with result %q and error %q: want exactly one", m.Result, m.Error)
		}
		if m.Error != nil && string(m.Error) == "null" {
			t.Fatalf("error slot is null")
		}
	} else if m.Error != nil || m.Result != nil {
		t.Fatalf("%s with a result %q or an error %q", m.Kind, m.Result, m.Error)
	}
	// The framing checks only where values end; an item that is not JSON
	// (Vim's NaN, or junk) fails when it is decoded, and must not panic.
	valid := true
	params := make([]any, len(m.Params))
	for i, p := range append(append([]wire.Raw{}, m.Params...), m.Result, m.Error) {
		if p == nil {
			continue
		}
		if len(p) == 0 {
			t.Fatalf("an empty item in %+v", m)
		}
		_ = vimjson.TypeName(p)
		var v any
		_ = vimjson.Unmarshal(p, &v)
		valid = valid && json.Valid(p)
		if i < len(params) {
			params[i] = p
		}
	}
	if !valid {
		return
	}

	// Encode the message again the way Vim would send it and read it back.
	var frame any
	switch m.Kind {
	case wire.Response:
		// A nil wire.Raw would write nothing: send null for the empty slot.
		var res, errVal any
		if m.Result != nil {
			res = m.Result
		}
		if m.Error != nil {
			errVal = m.Error
		}
		frame = []any{-m.ID, []any{res, errVal}}
	case wire.Request, wire.Notification:
		frame = []any{m.ID, []any{m.Method, params}}
	}
	b, err := vimjson.AppendValue(nil, frame)
	if err != nil {
		t.Fatalf("re-encoding %+v: %v", m, err)
	}
	var again wire.Message
	if err := vimjson.New(bytes.NewReader(b)).ReadMessage(&again); err != nil {
		t.Fatalf("reading back %q: %v", b, err)
	}
	if again.Kind != m.Kind || again.ID != m.ID || again.Method != m.Method ||
		!bytes.Equal(again.Result, m.Result) || !bytes.Equal(again.Error, m.Error) ||
		(again.Result == nil) != (m.Result == nil) || len(again.Params) != len(m.Params) {
		t.Fatalf("round trip changed the message:\n%+v\n%+v", m, &again)
	}
	for i := range m.Params {
		if !bytes.Equal(again.Params[i], m.Params[i]) {
			t.Fatalf("round trip changed param %d: %q -> %q", i, m.Params[i], again.Params[i])
		}
	}

	// And the frames we send must be valid JSON too.
	var out []byte
	switch m.Kind {
	case wire.Request:
		out, err = c.AppendRequest(nil, m.ID, m.Method, params)
	case wire.Notification:
		out, err = c.AppendNotification(nil, m.Method, params)
	case wire.Response:
		// Our answers to Vim carry any value, an error pair included.
		v := m.Result
		if v == nil {
			v = m.Error
		}
		out, err = c.AppendResponse(nil, m.ID, v)
	}
	if err != nil || !json.Valid(out) {
		t.Fatalf("encoding %+v: %q, %v", m, out, err)
	}
}

var valueSeeds = []string{
	`1`, `-7`, `2.0`, `1.0e+20`, `0.5`, `"s"`, `"a\u0000b"`, `"\ud83c\udf89"`, `null`, `true`,
	`[1,2,255]`, `[256]`, `[]`, `{}`, `{"x":1,"y":"b","inner":{"n":2},"tags":["a"]}`,
	`[1,"a",[2.0,null],{"b":true,"a":[1]}]`, `18446744073709551615`, `1e400`, `-0`, `"\xff"`,
	`NaN`, `[1,`, ``, ` [ 1 ] `, `1 2`,
}

// FuzzUnmarshal decodes arbitrary text into the usual targets; it must never
// panic, and a value decoded into any must survive AppendValue and Unmarshal.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := wire.Raw(data)
		_ = vimjson.TypeName(r)
		var (
			s  string
			n  int64
			fl float64
			bs []byte
			p  point
			mp map[string]any
			l  []any
		)
		for _, v := range []any{&s, &n, &fl, &bs, &p, &mp, &l} {
			_ = vimjson.Unmarshal(r, v)
		}
		if err := vimjson.Unmarshal(r, &bs); err == nil {
			enc, err := vimjson.AppendValue(nil, bs)
			if err != nil {
				t.Fatal(err)
			}
			var again []byte
			if err := vimjson.Unmarshal(enc, &again); err != nil || !bytes.Equal(again, bs) {
				t.Fatalf("[]byte %v: %s -> %v, %v", bs, enc, again, err)
			}
		}
		var v any
		if err := vimjson.Unmarshal(r, &v); err != nil {
			return
		}
		if hasNonFinite(v) {
			return // Vim's words for these are not JSON; see TestReadMessageNonFiniteFloats
		}
		enc, err := vimjson.AppendValue(nil, v)
		if err != nil {
			t.Fatalf("AppendValue(%#v): %v", v, err)
		}
		if !json.Valid(enc) {
			t.Fatalf("AppendValue(%#v) = %q is not valid JSON", v, enc)
		}
		var again any
		if err := vimjson.Unmarshal(enc, &again); err != nil {
			t.Fatalf("Unmarshal(%q): %v", enc, err)
		}
		if !reflect.DeepEqual(v, again) {
			t.Fatalf("round trip of %q: %#v -> %q -> %#v", data, v, enc, again)
		}
	})
}

func hasNonFinite(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsInf(x, 0) || math.IsNaN(x)
	case []any:
		for _, e := range x {
			if hasNonFinite(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasNonFinite(e) {
				return true
			}
		}
	}
	return false
}
