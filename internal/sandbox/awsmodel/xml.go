package awsmodel

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
)

// element is one XML element of a REST-XML body: its local name, text and
// child elements in order.
type element struct {
	name string
	text string
	kids []*element
}

// parseXML reads a body's document element.
func parseXML(b []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []*element
	var root *element
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			el := &element{name: t.Name.Local}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.kids = append(parent.kids, el)
			} else if root == nil {
				root = el
			}
			stack = append(stack, el)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no document element")
	}
	return root, nil
}

// xmlName is the element name a member is carried in.
func xmlName(name string, r *Ref) string {
	if r.LocationName != "" {
		return r.LocationName
	}
	return name
}

// xmlValue reads el as a value of shape, as REST-XML serialises it:
// a structure's members are child elements (by location name), a list's
// items are children named by the member's location name ("member" by
// default), or repeated elements when flattened; a map's entries are
// "entry" children with key and value; a scalar is the element's text.
func (c *checker) xmlValue(el *element, shape string) any {
	s := c.shapes[shape]
	if s == nil {
		return el.text
	}
	switch s.Type {
	case "structure":
		out := map[string]any{}
		for name, m := range s.Members {
			if m.Location != "" {
				continue
			}
			ms := c.shapes[m.Shape]
			xn := xmlName(name, m)
			if ms != nil && ms.Type == "list" && (ms.Flattened || m.Flattened) {
				var items []any
				for _, k := range el.kids {
					if k.name == xn {
						items = append(items, c.xmlValue(k, ms.Member.Shape))
					}
				}
				if items != nil {
					out[name] = items
				}
				continue
			}
			for _, k := range el.kids {
				if k.name == xn {
					out[name] = c.xmlValue(k, m.Shape)
					break
				}
			}
		}
		return out
	case "list":
		item := "member"
		if s.Member.LocationName != "" {
			item = s.Member.LocationName
		}
		out := []any{}
		for _, k := range el.kids {
			if k.name == item {
				out = append(out, c.xmlValue(k, s.Member.Shape))
			}
		}
		return out
	case "map":
		keyName, valueName := s.entryNames()
		out := map[string]any{}
		for i, e := range el.kids {
			var k string
			var v any
			for _, kv := range e.kids {
				switch kv.name {
				case keyName:
					k = kv.text
				case valueName:
					v = c.xmlValue(kv, s.Value.Shape)
				}
			}
			if k == "" {
				k = strconv.Itoa(i)
			}
			out[k] = v
		}
		return out
	}
	return el.text
}

// entryNames are the names a map shape's entries carry their key and
// value in (a form's Name.entry.N.key, an XML entry's child elements).
func (s *RawShape) entryNames() (key, value string) {
	key, value = "key", "value"
	if s.Key != nil && s.Key.LocationName != "" {
		key = s.Key.LocationName
	}
	if s.Value != nil && s.Value.LocationName != "" {
		value = s.Value.LocationName
	}
	return key, value
}
