package cfn

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"gopkg.in/yaml.v3"
)

// ResourceLines maps each logical id under Resources to the 1-based line
// of the template that declares it (its key), for reports that point at
// the template (SARIF). It reads positions only; Parse stays the model.
// A template whose Resources cannot be found maps nothing.
func ResourceLines(data []byte) (map[string]int, error) {
	if looksLikeJSON(data) {
		return jsonResourceLines(data)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlSyntaxError(data, err)
	}
	out := map[string]int{}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return out, nil
	}
	top := doc.Content[0].Content
	for i := 0; i+1 < len(top); i += 2 {
		if top[i].Value != "Resources" || top[i+1].Kind != yaml.MappingNode {
			continue
		}
		res := top[i+1].Content
		for j := 0; j+1 < len(res); j += 2 {
			out[res[j].Value] = res[j].Line
		}
	}
	return out, nil
}

// jsonResourceLines walks the JSON tokens: a key of the object that is
// the value of the top-level "Resources" key is a logical id.
func jsonResourceLines(data []byte) (map[string]int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	out := map[string]int{}
	// frames are the open containers: object or not, whether the next
	// string is a key, and whether it is the Resources object.
	type frame struct{ object, wantKey, resources bool }
	var frames []frame
	lastTopKey := ""
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) && len(frames) == 0 {
			return out, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			line, col := lineCol(data, dec.InputOffset())
			return nil, &Error{Format: "json", Line: line, Column: col, Offset: dec.InputOffset(), Msg: err.Error()}
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			frames = append(frames, frame{object: d == '{', wantKey: d == '{', resources: d == '{' && len(frames) == 1 && lastTopKey == "Resources"})
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			frames = frames[:len(frames)-1]
		} else if k, ok := tok.(string); ok && len(frames) > 0 && frames[len(frames)-1].wantKey {
			top := &frames[len(frames)-1]
			top.wantKey = false
			if len(frames) == 1 {
				lastTopKey = k
			}
			if top.resources {
				off := before + int64(bytes.IndexByte(data[before:], '"'))
				out[k], _ = lineCol(data, off)
			}
			continue
		}
		// A value ended: in an object the next string is a key.
		if n := len(frames); n > 0 && frames[n-1].object {
			frames[n-1].wantKey = true
		}
	}
}
