package buffer

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vigorvim/vigor"
)

// DecodeOptions say how Decode reads bytes.
type DecodeOptions struct {
	// Encoding is the encoding of the bytes, in Vim's names
	// (:help encoding-names), such as "utf-8", "latin1", "cp1252" or
	// "sjis"; empty to detect it.
	Encoding string `json:"encoding"`
	// Encodings are those to try, in order, when the bytes have no BOM
	// and are not UTF-8 and Encoding is empty; none means the editor's
	// 'fileencodings' (without "ucs-bom", "utf-8" and "default").
	Encodings []string `json:"encodings"`
	// Fileformat is "unix" (lines end in "\n"), "dos" ("\r\n") or "mac"
	// ("\r"); empty to detect it.
	Fileformat string `json:"fileformat"`
}

// Decoded is the text of Decode, and what it found.
type Decoded struct {
	Lines      []string `json:"lines"`      // the lines, in UTF-8, without their line ends
	Encoding   string   `json:"encoding"`   // the encoding: given, or detected
	BOM        bool     `json:"bom"`        // whether the bytes started with a byte order mark (not in Lines)
	Fileformat string   `json:"fileformat"` // "unix", "dos" or "mac": given, or detected
}

// Decode turns the contents of a file into lines, as the editor reads it
// into a buffer.
//
// The encoding, unless given, is detected in this order: a byte order
// mark (UTF-8, UTF-16LE or UTF-16BE; "utf-8" or "utf-16le"/"utf-16" is
// reported, and BOM set), then valid UTF-8 ("utf-8"), then the first of
// o.Encodings (or of the editor's 'fileencodings') that the editor's
// iconv() converts. UTF-8, UTF-16 and Latin-1 ("latin1") are decoded in
// Go, without a call; any other encoding takes one call, which cannot be
// made in a batch. Bytes that no encoding converts are an error, and so
// are NUL bytes where iconv() has to convert (a String cannot hold one).
//
// The fileformat, unless given, is "dos" if every "\n" follows a "\r"
// (and there is one), "mac" if there is no "\n" but a "\r", and "unix"
// otherwise, the choice the editor makes with 'fileformats' "unix,dos,mac".
// A line end at the end of the data ends the last line, as in a file.
func Decode(ctx context.Context, c vigor.Caller, data []byte, o DecodeOptions) (Decoded, error) {
	return decode(ctx, c, "buffer.Decode", data, o)
}

// decode is Decode for the function fn.
func decode(ctx context.Context, c vigor.Caller, fn string, data []byte, o DecodeOptions) (Decoded, error) {
	d := Decoded{Encoding: normEncoding(o.Encoding), Fileformat: o.Fileformat}
	switch d.Fileformat {
	case "", "unix", "dos", "mac":
	default:
		return Decoded{}, fmt.Errorf("%s: %q is not a fileformat (unix, dos or mac)", fn, o.Fileformat)
	}
	text, ok := decodeGo(&d, data)
	if !ok {
		var err error
		if text, err = decodeEditor(ctx, c, fn, &d, data, o.Encodings); err != nil {
			return Decoded{}, err
		}
	}
	if d.Fileformat == "" {
		d.Fileformat = detectFileformat(text)
	}
	d.Lines = splitLines(text, d.Fileformat)
	return d, nil
}

// normEncoding is enc in lower case, with the names Go decodes itself in
// one form.
func normEncoding(enc string) string {
	enc = strings.ToLower(enc)
	switch enc {
	case "utf8":
		return "utf-8"
	case "latin-1", "iso-8859-1", "iso8859-1":
		return "latin1"
	case "ucs-2le", "utf-16le":
		return "utf-16le"
	case "ucs-2", "ucs-2be", "utf-16", "utf-16be":
		return "utf-16"
	}
	return enc
}

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// decodeGo decodes data by d.Encoding, or detects it, for the encodings
// that Go decodes. It reports false when the editor has to.
func decodeGo(d *Decoded, data []byte) (string, bool) {
	if d.Encoding == "" {
		switch {
		case bytes.HasPrefix(data, bomUTF8):
			d.Encoding = "utf-8"
		case bytes.HasPrefix(data, bomUTF16LE):
			d.Encoding = "utf-16le"
		case bytes.HasPrefix(data, bomUTF16BE):
			d.Encoding = "utf-16"
		case utf8.Valid(data):
			d.Encoding = "utf-8"
		default:
			return "", false
		}
	}
	switch d.Encoding {
	case "utf-8":
		if rest, ok := bytes.CutPrefix(data, bomUTF8); ok {
			d.BOM, data = true, rest
		}
		return strings.ToValidUTF8(string(data), "\uFFFD"), true
	case "utf-16le", "utf-16":
		bom := bomUTF16BE
		if d.Encoding == "utf-16le" {
			bom = bomUTF16LE
		}
		if rest, ok := bytes.CutPrefix(data, bom); ok {
			d.BOM, data = true, rest
		}
		u := make([]uint16, len(data)/2)
		for i := range u {
			lo, hi := data[2*i], data[2*i+1]
			if d.Encoding == "utf-16" {
				lo, hi = hi, lo
			}
			u[i] = uint16(lo) | uint16(hi)<<8
		}
		s := string(utf16.Decode(u))
		if len(data)%2 != 0 {
			s += "\uFFFD"
		}
		return s, true
	case "latin1":
		r := make([]rune, len(data))
		for i, b := range data {
			r[i] = rune(b)
		}
		return string(r), true
	}
	return "", false
}

// decodeEditor converts data with the editor's iconv(), from d.Encoding
// or the first of encs (or 'fileencodings') that converts it.
func decodeEditor(ctx context.Context, c vigor.Caller, fn string, d *Decoded, data []byte, encs []string) (string, error) {
	if err := noBatch(c, fn, "it needs the editor's iconv() for "+nameOr(d.Encoding, "bytes that are not UTF-8")); err != nil {
		return "", err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", fmt.Errorf("%s: the bytes hold a NUL byte, which iconv() cannot convert from %s", fn, nameOr(d.Encoding, "an encoding that is not UTF-8 or UTF-16"))
	}
	if d.Encoding != "" {
		encs = []string{d.Encoding}
	}
	if encs == nil {
		encs = []string{}
	}
	var r []string
	if err := call(ctx, c, &r, fn, "decode", data, encs); err != nil {
		return "", err
	}
	if len(r) != 2 || r[0] == "" {
		if d.Encoding != "" {
			return "", fmt.Errorf("%s: the bytes are not %s (or the editor's iconv() does not know it)", fn, d.Encoding)
		}
		return "", fmt.Errorf("%s: the bytes are not UTF-8, and no encoding of %q converts them", fn, encs)
	}
	d.Encoding = r[0]
	return r[1], nil
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// detectFileformat returns the fileformat of text (see Decode).
func detectFileformat(text string) string {
	n := strings.Count(text, "\n")
	switch {
	case n > 0 && strings.Count(text, "\r\n") == n:
		return "dos"
	case n == 0 && strings.Contains(text, "\r"):
		return "mac"
	}
	return "unix"
}

// splitLines splits text into lines that end as ff says; a line end at
// the end of text ends the last line.
func splitLines(text, ff string) []string {
	sep := "\n"
	switch ff {
	case "dos":
		sep = "\r\n"
	case "mac":
		sep = "\r"
	}
	text = strings.TrimSuffix(text, sep)
	if text == "" {
		return []string{}
	}
	return strings.Split(text, sep)
}

// Assign makes the bytes data the contents of the buffer bufnr, decoded
// as Decode does, and sets its 'fileencoding', 'fileformat' and 'bomb'
// to what Decode found, as if the buffer had been read from a file; it
// works on hidden and 'nomodifiable' buffers as Replace does. It returns
// what Decode found. It is one call, or two when the editor's iconv()
// converts (which cannot be made in a batch); in a batch it returns what
// Decode found at once.
func Assign(ctx context.Context, c vigor.Caller, bufnr int, data []byte, o DecodeOptions) (Decoded, error) {
	const fn = "buffer.Assign"
	if err := checkBuf(fn, bufnr); err != nil {
		return Decoded{}, err
	}
	d, err := decode(ctx, c, fn, data, o)
	if err != nil {
		return Decoded{}, err
	}
	if err := call(ctx, c, nil, fn, "assign", bufnr, d.Lines, d.Encoding, d.Fileformat, d.BOM); err != nil {
		return Decoded{}, err
	}
	return d, nil
}
