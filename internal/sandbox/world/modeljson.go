package world

import "fmt"
import "bytes"
import "strings"
import "github.com/evanphx/json-patch/v5"
import "encoding/json"

func PatchOne(doc []byte, op, path string, value json.RawMessage) ([]byte, error) {
	o := map[string]any{"op": op, "path": path}
	if value != nil {
		o["value"] = value
	}
	b, err := json.Marshal([]any{o})
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(b)
	if err != nil {
		return nil, err
	}
	if len(doc) == 0 {
		doc = []byte(`{}`)
	}
	return p.Apply(doc)
}

// toPointer turns a dotted path into a JSON pointer; pointers pass through.
func ToPointer(p string) string {
	if p == "" || strings.HasPrefix(p, "/") {
		return p
	}
	segs := strings.Split(p, ".")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(segs, "/")
}

func Compact(b []byte) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, fmt.Errorf("the patched model is not valid JSON: %w", err)
	}
	if buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return nil, fmt.Errorf("the patched model is not a JSON object")
	}
	return buf.Bytes(), nil
}

func MarshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
