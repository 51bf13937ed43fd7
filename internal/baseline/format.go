package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// kind is the JSON type a format field holds.
type kind uint8

const (
	kString kind = iota
	kNumber
	kObject // with known fields
	kArray  // of one item shape
	kMap    // an object of free keys, one value shape
	kValue  // any JSON value but null (a recorded value)
)

// spec is the shape of one value of the baseline format.
type spec struct {
	kind   kind
	fields map[string]*spec // kObject
	item   *spec            // kArray, kMap
}

var (
	strSpec = &spec{kind: kString}
	numSpec = &spec{kind: kNumber}
)

func objectSpec(fields map[string]*spec) *spec { return &spec{kind: kObject, fields: fields} }
func arraySpec(item *spec) *spec               { return &spec{kind: kArray, item: item} }
func mapSpec(item *spec) *spec                 { return &spec{kind: kMap, item: item} }

// formats are the fields each schemaVersion defines (cdk-real-drift's
// baseline-file format, seed 002 §8). Version 2 added completeResources;
// the additive optional fields (recordedPhysicalIds,
// recordedSourceFingerprints, observedDefaults, enumeratedParents, watched)
// are read in either version. A field not listed for the file's version is an error.
var formats = func() map[int]*spec {
	v2 := map[string]*spec{
		"schemaVersion": numSpec,
		"stackName":     strSpec,
		"region":        strSpec,
		"accountId":     strSpec,
		"capturedAt":    strSpec,
		"templateHash":  strSpec,
		"recorded": arraySpec(objectSpec(map[string]*spec{
			"logicalId": strSpec, "resourceType": strSpec, "path": strSpec, "value": {kind: kValue},
		})),
		"completeResources":          arraySpec(strSpec),
		"recordedPhysicalIds":        mapSpec(strSpec),
		"recordedSourceFingerprints": mapSpec(strSpec),
		"observedDefaults": arraySpec(objectSpec(map[string]*spec{
			"logicalId": strSpec, "resourceType": strSpec, "path": strSpec,
		})),
		"enumeratedParents": arraySpec(objectSpec(map[string]*spec{
			"logicalId": strSpec, "resourceType": strSpec,
		})),
		"watched": arraySpec(objectSpec(map[string]*spec{
			"logicalId": strSpec, "resourceType": strSpec, "path": strSpec, "value": {kind: kValue},
		})),
	}
	v1 := map[string]*spec{}
	for k, v := range v2 {
		if k != "completeResources" {
			v1[k] = v
		}
	}
	return map[int]*spec{1: objectSpec(v1), 2: objectSpec(v2)}
}()

// formatProblem is where a document breaks the format, and how.
type formatProblem struct {
	off  int64
	path string
	msg  string
}

// checkFormat reads a baseline document strictly against the format of its
// schemaVersion: no byte that is not UTF-8, no duplicate key at any depth,
// no field the version does not define, no null where the format expects a
// value (a recorded value may hold nulls inside it, but is never null
// itself). It returns the first problem, or nil. data has already decoded
// as one JSON object.
func checkFormat(data []byte, version int) *formatProblem {
	if off := invalidUTF8(data); off >= 0 {
		return &formatProblem{off: int64(off), msg: "invalid UTF-8"}
	}
	top, ok := formats[version]
	if !ok {
		return &formatProblem{msg: fmt.Sprintf("no format for schemaVersion %d", version)}
	}
	w := &walker{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	w.dec.UseNumber()
	w.value(top, "", version)
	return w.problem
}

// walker reads a document token by token against a spec, keeping the
// first problem.
type walker struct {
	dec     *json.Decoder
	data    []byte
	problem *formatProblem
}

// at is the offset of the next value: past the whitespace, colon or comma
// after the last token.
func (w *walker) at() int64 {
	off := w.dec.InputOffset()
	for off < int64(len(w.data)) && strings.IndexByte(" \t\r\n:,", w.data[off]) >= 0 {
		off++
	}
	return off
}

func (w *walker) fail(off int64, path, format string, a ...any) {
	if w.problem == nil {
		w.problem = &formatProblem{off: off, path: path, msg: fmt.Sprintf(format, a...)}
	}
}

func (w *walker) token() (json.Token, bool) {
	tok, err := w.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		w.fail(w.at(), "", "invalid JSON: %v", err)
		return nil, false
	}
	return tok, true
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return "an array"
	}
	return fmt.Sprintf("%T", tok)
}

var kindNames = map[kind]string{kString: "a string", kNumber: "a number", kObject: "an object", kArray: "an array", kMap: "an object", kValue: "a value"}

// value reads one value against s (nil: any value, nulls included) at path.
func (w *walker) value(s *spec, path string, version int) {
	off := w.at()
	tok, ok := w.token()
	if !ok {
		return
	}
	if tok == nil && s != nil {
		w.fail(off, path, "null where %s is expected", kindNames[s.kind])
		return
	}
	d, isDelim := tok.(json.Delim)
	want := kValue
	if s != nil {
		want = s.kind
	}
	match := want == kValue ||
		(want == kString && describe(tok) == "a string") ||
		(want == kNumber && describe(tok) == "a number") ||
		((want == kObject || want == kMap) && isDelim && d == '{') ||
		(want == kArray && isDelim && d == '[')
	if !match {
		w.fail(off, path, "got %s, want %s", describe(tok), kindNames[want])
		if isDelim {
			w.skip(d)
		}
		return
	}
	if !isDelim {
		return
	}
	if d == '[' {
		var item *spec
		if s != nil && s.kind == kArray {
			item = s.item
		}
		for i := 0; w.dec.More(); i++ {
			w.value(item, fmt.Sprintf("%s[%d]", path, i), version)
			if w.problem != nil {
				return
			}
		}
		w.token() // ]
		return
	}
	seen := map[string]bool{}
	for w.dec.More() {
		koff := w.at()
		tok, ok := w.token()
		if !ok {
			return
		}
		key, _ := tok.(string)
		kp := joinPath(path, key)
		if seen[key] {
			w.fail(koff, kp, "duplicate key %q", key)
			return
		}
		seen[key] = true
		var vs *spec
		switch {
		case s == nil || s.kind == kValue:
			// inside a recorded value: anything goes
		case s.kind == kMap:
			vs = s.item
		default:
			vs = s.fields[key]
			if vs == nil {
				w.fail(koff, kp, "unknown field %q (not in the schemaVersion %d format)", key, version)
				return
			}
		}
		w.value(vs, kp, version)
		if w.problem != nil {
			return
		}
	}
	w.token() // }
}

// skip reads past the rest of the container opened by d.
func (w *walker) skip(d json.Delim) {
	depth := 1
	for depth > 0 {
		tok, err := w.dec.Token()
		if err != nil {
			return
		}
		if t, ok := tok.(json.Delim); ok {
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// invalidUTF8 returns the offset of the first byte of data that is not
// valid UTF-8, or -1.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	return bytes.Count(before, []byte("\n")) + 1, int(off) - bytes.LastIndexByte(before, '\n')
}
