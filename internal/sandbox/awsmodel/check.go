package awsmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Request is one request's input as its protocol carries it.
type Request struct {
	// Form is the query protocols' form, or REST's query string.
	Form url.Values
	// Body is the body: JSON (JSON 1.0/1.1, REST-JSON), XML (REST-XML) or
	// a REST payload's bytes.
	Body []byte
	// Path is a REST request's escaped URL path, matched against the
	// operation's URI template for the members bound to it.
	Path string
	// Header is a REST request's headers.
	Header http.Header
	// Query marks a query-form request to a service whose model is JSON
	// but which accepts the query protocol too (SQS): its form is read
	// by the query model's names (Table.Query).
	Query bool
}

// Reads reports whether Check reads the input of an operation of a model
// whose protocol is protocol (botocore's metadata.protocol); a write of
// any other protocol would go unchecked.
func Reads(protocol string) bool {
	switch protocol {
	case "json", "rest-json", "rest-xml", "query", "ec2":
		return true
	}
	return false
}

// Check lists the ways a request breaks the model's constraints on op's
// input ("signing-name:Operation"), worded as AWS's front ends word them;
// none for an operation the table does not hold.
func (t *Table) Check(op string, req Request) []string {
	o, ok := t.Ops[op]
	if req.Query && o.QueryCompatible {
		o, ok = t.Query[op]
	}
	if !ok || o.Input == "" {
		return nil
	}
	t.compile()
	c := &checker{shapes: t.Shapes[o.Model], proto: o.Protocol, re: t.re}
	root := c.shapes[o.Input]
	if root == nil {
		return nil
	}
	switch o.Protocol {
	case "json":
		v, err := decodeJSON(req.Body)
		if err != nil {
			return nil // the handler answers a body it cannot read
		}
		if v == nil {
			v = map[string]any{}
		}
		c.value(v, o.Input, "")
	case "rest-json", "rest-xml":
		in, ok := c.rest(o, root, req)
		if !ok {
			return nil
		}
		c.value(in, o.Input, "")
	case "query", "ec2":
		v, _ := c.form(req.Form, "", o.Input, true)
		c.value(v, o.Input, "")
	}
	return c.errs
}

// rest reads a REST request's input: members bound to the URI path (by
// the operation's URI template), headers, the query string, and the body
// (JSON members, XML elements, or the payload member). ok is false when
// the body cannot be read: the handler answers it.
func (c *checker) rest(o Op, root *RawShape, req Request) (map[string]any, bool) {
	labels, matched := uriLabels(o.URI, req.Path)
	var body map[string]any
	var payload any
	if p := root.Members[root.Payload]; p != nil {
		ps := c.shapes[p.Shape]
		switch {
		case len(bytes.TrimSpace(req.Body)) == 0:
		case ps != nil && ps.Type == "structure" && c.proto == "rest-json":
			v, err := decodeJSON(req.Body)
			if err != nil {
				return nil, false
			}
			payload = v
		case ps != nil && ps.Type == "structure":
			el, err := parseXML(req.Body)
			if err != nil {
				return nil, false
			}
			payload = c.xmlValue(el, p.Shape)
		default:
			payload = bound{} // a blob or string payload: its bytes
		}
	} else if c.proto == "rest-json" {
		v, err := decodeJSON(req.Body)
		if err != nil {
			return nil, false
		}
		body, _ = v.(map[string]any)
	} else if len(bytes.TrimSpace(req.Body)) > 0 {
		el, err := parseXML(req.Body)
		if err != nil {
			return nil, false
		}
		body, _ = c.xmlValue(el, o.Input).(map[string]any)
	}
	in := map[string]any{}
	for name, m := range root.Members {
		s := c.shapes[m.Shape]
		switch {
		case name == root.Payload:
			if payload != nil {
				in[name] = payload
			}
		case m.Location == "":
			if x, ok := body[name]; ok {
				in[name] = x
			}
		case m.Location == "uri":
			if !matched {
				in[name] = bound{} // a path the template does not give: not read
			} else if v, ok := labels[m.LocationName]; ok {
				in[name] = v
			}
		case m.Location == "querystring":
			if vs, ok := req.Form[m.LocationName]; ok {
				if s != nil && s.Type == "list" {
					in[name] = anyList(vs)
				} else {
					in[name] = vs[0]
				}
			}
		case m.Location == "header":
			if vs := req.Header.Values(m.LocationName); len(vs) > 0 {
				if s != nil && s.Type == "list" {
					in[name] = anyList(splitHeader(vs))
				} else {
					in[name] = vs[0]
				}
			}
		case m.Location == "headers":
			out := map[string]any{}
			for k, vs := range req.Header {
				if rest, ok := cutPrefixFold(k, m.LocationName); ok && len(vs) > 0 {
					out[strings.ToLower(rest)] = vs[0]
				}
			}
			if len(out) > 0 {
				in[name] = out
			}
		default:
			in[name] = bound{} // a location Check does not read
		}
	}
	return in, true
}

// uriLabels matches an escaped request path against a URI template
// ("/{Bucket}/{Key+}?x-id=PutObject": the query part is not the path's)
// and returns the labels' unescaped values; matched is false when the path
// does not have the template's shape. A {Label+} takes the rest of the
// path.
func uriLabels(template, path string) (map[string]string, bool) {
	template, _, _ = strings.Cut(template, "?")
	tsegs := strings.Split(strings.Trim(template, "/"), "/")
	psegs := strings.Split(strings.Trim(path, "/"), "/")
	out := map[string]string{}
	for i, t := range tsegs {
		label, isLabel := strings.CutPrefix(t, "{")
		label = strings.TrimSuffix(label, "}")
		if greedy, ok := strings.CutSuffix(label, "+"); ok && isLabel {
			if i >= len(psegs) {
				return nil, false
			}
			v, err := url.PathUnescape(strings.Join(psegs[i:], "/"))
			if err != nil {
				return nil, false
			}
			out[greedy] = v
			return out, true
		}
		if i >= len(psegs) {
			return nil, false
		}
		v, err := url.PathUnescape(psegs[i])
		if err != nil {
			return nil, false
		}
		switch {
		case isLabel:
			out[label] = v
		case v != t:
			return nil, false
		}
	}
	return out, len(psegs) == len(tsegs)
}

// splitHeader splits a list header's comma-separated values.
func splitHeader(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return s[len(prefix):], true
}

// CheckModel lists the ways v, a live model (or part of one) an
// out-of-band change leaves, breaks the constraints of shape, a shape of
// op's input ("signing-name:Operation"), as the write carrying it would be
// checked: a property is checked against the member of its name; none
// when the table does not hold op or shape. A live model is the
// resource's, not the API's, so what the two carry differently is not
// read: members the write requires (the model may hold them elsewhere),
// a structure, list or map where the model holds another kind of value
// (a record's ResourceRecords are strings in the model, structures on the
// wire), a number or a boolean where the write takes text (a number's
// text is checked). An object or a list where the write takes text (a
// policy document) is checked as its JSON text, as the write carries it. A number or a boolean is read from its text. Paths
// name the properties as the model does, under path ("RecordSets.2.TTL").
func (t *Table) CheckModel(op, shape, path string, v any) []string {
	o, ok := t.Ops[op]
	if !ok {
		return nil
	}
	t.compile()
	c := &checker{shapes: t.Shapes[o.Model], proto: o.Protocol, re: t.re, model: true}
	if c.shapes[shape] == nil {
		return nil
	}
	c.value(v, shape, path)
	return c.errs
}

// bound stands for a member carried where Check does not read.
type bound struct{}

func anyList(vs []string) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func decodeJSON(b []byte) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

type checker struct {
	shapes map[string]*RawShape
	proto  string
	re     map[string]*regexp.Regexp
	errs   []string
	// model is set when a live model is read (CheckModel), not a request.
	model bool
}

// serial is a member's name in a form.
func (c *checker) serial(name string, r *Ref) string {
	if c.proto == "ec2" {
		switch {
		case r.QueryName != "":
			return r.QueryName
		case r.LocationName != "":
			return strings.ToUpper(r.LocationName[:1]) + r.LocationName[1:]
		}
		return name
	}
	if r.LocationName != "" {
		return r.LocationName
	}
	return name
}

// form reads the value of shape at key prefix from a query form: ok false
// when the form holds nothing of it.
func (c *checker) form(f url.Values, key, shape string, root bool) (any, bool) {
	s := c.shapes[shape]
	if s == nil {
		return nil, false
	}
	under := func(p string) bool {
		for k := range f {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	switch s.Type {
	case "structure":
		if !root && !under(key+".") {
			return nil, false
		}
		out := map[string]any{}
		for name, m := range s.Members {
			k := c.serial(name, m)
			if !root {
				k = key + "." + k
			}
			if v, ok := c.form(f, k, m.Shape, false); ok {
				out[name] = v
			}
		}
		return out, true
	case "list":
		if vs, ok := f[key]; ok && len(vs) == 1 && vs[0] == "" {
			return []any{}, true // Name= is an empty list
		}
		item := "member"
		if s.Member != nil && s.Member.LocationName != "" && c.proto != "ec2" {
			item = s.Member.LocationName
		}
		var out []any
		for i := 1; ; i++ {
			k := key + "." + item + "." + strconv.Itoa(i)
			if s.Flattened || c.proto == "ec2" {
				k = key + "." + strconv.Itoa(i)
			}
			v, ok := c.form(f, k, s.Member.Shape, false)
			if !ok {
				break
			}
			out = append(out, v)
		}
		return out, out != nil
	case "map":
		keyName, valueName := s.entryNames()
		out := map[string]any{}
		for i := 1; ; i++ {
			e := key + ".entry." + strconv.Itoa(i)
			if s.Flattened {
				e = key + "." + strconv.Itoa(i)
			}
			k, ok := f[e+"."+keyName]
			if !ok {
				break
			}
			v, _ := c.form(f, e+"."+valueName, s.Value.Shape, false)
			out[k[0]] = v
		}
		return out, len(out) > 0
	default:
		vs, ok := f[key]
		if !ok {
			return nil, false
		}
		return vs[0], true
	}
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func (c *checker) fail(v any, path, constraint string) {
	shown := "null"
	if v != nil {
		shown = "'" + fmt.Sprint(v) + "'"
	}
	c.errs = append(c.errs, fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: Member must %s", shown, path, constraint))
}

// value checks v against shape at path.
func (c *checker) value(v any, shape, path string) {
	s := c.shapes[shape]
	if s == nil {
		return
	}
	if _, ok := v.(bound); ok {
		return
	}
	join := func(m string) string {
		if !c.model {
			m = lowerFirst(m)
		}
		if path == "" {
			return m
		}
		return path + "." + m
	}
	item := func(i int) string {
		if c.model {
			return path + "." + strconv.Itoa(i)
		}
		return path + "." + strconv.Itoa(i) + ".member"
	}
	switch s.Type {
	case "structure":
		m, ok := v.(map[string]any)
		if !ok {
			if !c.model {
				c.fail(v, path, "be a structure")
			}
			return
		}
		for _, r := range s.Required {
			if x, ok := m[r]; (!ok || x == nil) && !c.model {
				c.fail(nil, join(r), "not be null")
			}
		}
		for name, r := range s.Members {
			if x, ok := m[name]; ok && x != nil {
				c.value(x, r.Shape, join(name))
			}
		}
	case "list":
		l, ok := v.([]any)
		if !ok {
			if !c.model {
				c.fail(v, path, "be a list")
			}
			return
		}
		c.size(len(l), s, v, path)
		for i, x := range l {
			c.value(x, s.Member.Shape, item(i+1))
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			if !c.model {
				c.fail(v, path, "be a map")
			}
			return
		}
		c.size(len(m), s, v, path)
		for k, x := range m {
			if s.Key != nil {
				c.value(k, s.Key.Shape, path+".key")
			}
			if s.Value != nil {
				c.value(x, s.Value.Shape, path+"."+k)
			}
		}
	case "string":
		str, ok := v.(string)
		if n, isNum := v.(json.Number); isNum && c.model {
			str, ok = n.String(), true
		}
		if t, isText := jsonText(v); isText && c.model {
			str, ok = t, true
		}
		if !ok {
			if !c.model {
				c.fail(v, path, "be a string")
			}
			return
		}
		c.size(utf8.RuneCountInString(str), s, v, path)
		if len(s.Enum) > 0 && !contains(s.Enum, str) {
			c.fail(v, path, "satisfy enum value set: ["+strings.Join(s.Enum, ", ")+"]")
		}
		if re := c.re[s.Pattern]; re != nil && !re.MatchString(str) {
			c.fail(v, path, "satisfy regular expression pattern: "+s.Pattern)
		}
	case "integer", "long", "double", "float":
		n, ok := number(v, s.Type == "integer" || s.Type == "long")
		if !ok {
			c.fail(v, path, "be a number")
			return
		}
		if s.Min != nil && n < *s.Min {
			c.fail(v, path, "have value greater than or equal to "+trim(*s.Min))
		}
		if s.Max != nil && n > *s.Max {
			c.fail(v, path, "have value less than or equal to "+trim(*s.Max))
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
		case string:
			if x != "true" && x != "false" {
				c.fail(v, path, "be a boolean")
			}
		default:
			c.fail(v, path, "be a boolean")
		}
	}
}

// jsonText is the JSON text of an object or a list, as a write carries
// a document a live model holds as a value (a policy document is an
// object in the model, text in CreatePolicyVersion); false for any other
// value.
func jsonText(v any) (string, bool) {
	switch v.(type) {
	case map[string]any, []any:
	default:
		return "", false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// size checks a length or count against min and max.
func (c *checker) size(n int, s *RawShape, v any, path string) {
	if s.Min != nil && float64(n) < *s.Min {
		c.fail(v, path, "have length greater than or equal to "+trim(*s.Min))
	}
	if s.Max != nil && float64(n) > *s.Max {
		c.fail(v, path, "have length less than or equal to "+trim(*s.Max))
	}
}

func trim(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// number reads a JSON number or a form's text as a number (whole when
// integral).
func number(v any, integral bool) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return 0, false
		}
	case float64:
		f = x
	default:
		return 0, false
	}
	if integral && f != math.Trunc(f) {
		return 0, false
	}
	return f, true
}

var uEscape = regexp.MustCompile(`\\u([0-9A-Fa-f]{4})`)

// compile compiles every pattern of the table's shapes once, as Go
// regexps (their \uXXXX escapes rewritten) matching the whole value, as
// AWS's front ends match them (IAM refuses the policy name "a b" for
// [\w+=,.@-]+), with "." matching a line end too (a description of
// several lines is not refused for .*\S.*); a pattern Go cannot compile
// is left out, so not checked.
func (t *Table) compile() {
	t.once.Do(func() {
		t.re = map[string]*regexp.Regexp{}
		for _, shapes := range t.Shapes {
			for _, s := range shapes {
				if s.Pattern == "" {
					continue
				}
				if _, done := t.re[s.Pattern]; done {
					continue
				}
				re, err := regexp.Compile(`(?s)^(?:` + uEscape.ReplaceAllString(s.Pattern, `\x{$1}`) + `)$`)
				if err != nil {
					re = nil
				}
				t.re[s.Pattern] = re
			}
		}
	})
}

// Message is AWS's wording of a list of violations.
func Message(errs []string) string {
	n := "1 validation error"
	if len(errs) > 1 {
		n = strconv.Itoa(len(errs)) + " validation errors"
	}
	return n + " detected: " + strings.Join(errs, "; ")
}
