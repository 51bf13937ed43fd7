package cfn

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseJSON decodes a JSON document into JSON-shaped Go values, token by
// token, so that duplicate keys and bad numbers are reported with their
// position.
func parseJSON(data []byte) (any, error) {
	if off := invalidUTF8(data); off >= 0 {
		// encoding/json would turn the bytes into U+FFFD silently: a
		// template that is not UTF-8 is rejected, as YAML ones are.
		return nil, (&jsonParser{data: data}).errAt(int64(off), "invalid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &jsonParser{dec: dec, data: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, p.wrap(err)
		}
		return nil, p.errAt(dec.InputOffset(), "unexpected data after the top-level value")
	}
	return v, nil
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

type jsonParser struct {
	dec  *json.Decoder
	data []byte
}

func (p *jsonParser) value(depth int) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.wrap(err)
	}
	return p.fromToken(tok, depth)
}

func (p *jsonParser) fromToken(tok json.Token, depth int) (any, error) {
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, p.errAt(p.dec.InputOffset(), "nesting deeper than "+strconv.Itoa(maxDepth))
		}
		switch t {
		case '{':
			return p.object(depth + 1)
		case '[':
			return p.array(depth + 1)
		}
		return nil, p.errAt(p.dec.InputOffset(), "unexpected "+string(t))
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, p.errAt(p.dec.InputOffset(), "number "+string(t)+" is out of range")
		}
		return f, nil
	case string, bool, nil:
		return t, nil
	}
	return nil, p.errAt(p.dec.InputOffset(), "unexpected token")
}

func (p *jsonParser) object(depth int) (any, error) {
	m := map[string]any{}
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, p.wrap(err)
		}
		if d, ok := tok.(json.Delim); ok && d == '}' {
			return m, nil
		}
		key, ok := tok.(string)
		if !ok {
			return nil, p.errAt(p.dec.InputOffset(), "object key must be a string")
		}
		if _, dup := m[key]; dup {
			return nil, p.errAt(p.dec.InputOffset(), "duplicate key "+strconv.Quote(key))
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	list := []any{}
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, p.wrap(err)
		}
		if d, ok := tok.(json.Delim); ok && d == ']' {
			return list, nil
		}
		v, err := p.fromToken(tok, depth)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
}

// wrap turns a decoder error into an *Error with a position.
func (p *jsonParser) wrap(err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		// The streaming decoder's offsets are relative to its buffer; a
		// whole-input validity scan gives the absolute position.
		var whole *json.SyntaxError
		if errors.As(json.Unmarshal(p.data, new(json.RawMessage)), &whole) {
			pos := whole.Offset // bytes read, the offending one included
			if pos > 0 && strings.HasPrefix(whole.Error(), "invalid character") {
				pos--
			}
			return p.errAt(pos, whole.Error())
		}
		return p.errAt(p.dec.InputOffset(), syn.Error())
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return p.errAt(int64(len(p.data)), "unexpected end of input")
	}
	return p.errAt(p.dec.InputOffset(), err.Error())
}

func (p *jsonParser) errAt(offset int64, msg string) *Error {
	line, col := lineCol(p.data, offset)
	return &Error{Format: "json", Line: line, Column: col, Offset: offset, Msg: msg}
}

// lineCol converts a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, offset int64) (int, int) {
	if offset < 0 {
		offset = 0
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
