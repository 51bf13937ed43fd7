package awsmodel

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Table is the input constraints of the served write operations.
type Table struct {
	// Botocore is the botocore version the table was built from.
	Botocore string `json:"botocore"`
	// Ops maps "signing-name:Operation" to the model and input shape.
	Ops map[string]Op `json:"ops"`
	// Shapes are each model's shapes reachable from a served input, by
	// botocore service name.
	Shapes map[string]map[string]*RawShape `json:"shapes"`
	// Query maps the operations of a JSON model that accepts the query
	// protocol too (Op.QueryCompatible) to their input in the last model
	// that spoke query (AddQueryForms): its form names (SQS's
	// Attribute.N.Name) are that model's. Their shapes are in Shapes
	// under the model's name with QuerySuffix.
	Query map[string]Op `json:"query,omitempty"`
	// QueryFrom is where the query models were read ("aws-cli/2.9.19").
	QueryFrom string `json:"queryFrom,omitempty"`

	once sync.Once
	re   map[string]*regexp.Regexp
}

// Op is one served write operation's input.
type Op struct {
	Model    string `json:"model"`
	Protocol string `json:"protocol"`
	Input    string `json:"input,omitempty"`
	// URI is a REST operation's request URI template
	// ("/2015-03-31/functions/{FunctionName}/policy", "/{Bucket}/{Key+}"),
	// from which the members bound to the path are read.
	URI string `json:"uri,omitempty"`
	// QueryCompatible marks an operation of a JSON model that accepts
	// the query protocol too (botocore's metadata.awsQueryCompatible).
	QueryCompatible bool `json:"queryCompatible,omitempty"`
}

// QuerySuffix is added to a model's name for the shapes of its query
// form (Table.Query).
const QuerySuffix = "@query"

// Served is one operation the sandbox serves, by its signing name.
type Served struct{ Service, Name string }

// BuildInputs builds the table for ops (the served write operations)
// from the models read from botocore's data directory dir. Where two
// models define an operation, prefer(op) names the botocore service to
// take ("" takes the one whose name is the signing name).
func BuildInputs(dir, version string, ops []Served, prefer func(Served) string) (*Table, error) {
	want := map[string]bool{}
	for _, op := range ops {
		want[op.Service] = true
	}
	models, err := Models(dir, func(signing, prefix string) bool { return want[signing] || want[prefix] })
	if err != nil {
		return nil, err
	}
	t := &Table{Botocore: version, Ops: map[string]Op{}, Shapes: map[string]map[string]*RawShape{}}
	var missing []string
	for _, op := range ops {
		var cands []*Model
		for _, m := range models {
			if _, ok := m.Operations[op.Name]; ok && m.Serves(op.Service) {
				cands = append(cands, m)
			}
		}
		m := pick(cands, op, prefer)
		if m == nil {
			missing = append(missing, op.Service+":"+op.Name)
			continue
		}
		o := Op{Model: m.Name, Protocol: m.Metadata.Protocol, QueryCompatible: m.Metadata.AWSQueryCompatible != nil}
		if strings.HasPrefix(o.Protocol, "rest-") {
			o.URI = m.Operations[op.Name].HTTP.RequestURI
		}
		if in := m.Operations[op.Name].Input; in != nil {
			o.Input = in.Shape
			if t.Shapes[m.Name] == nil {
				t.Shapes[m.Name] = map[string]*RawShape{}
			}
			reach(m, in.Shape, t.Shapes[m.Name])
		}
		t.Ops[op.Service+":"+op.Name] = o
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("served operations no botocore model defines: %s", strings.Join(missing, " "))
	}
	return t, nil
}

// AddQueryForms adds to the table the query form of every operation
// marked QueryCompatible, read from the models in dir (botocore data
// from before the service moved to JSON: an AWS CLI's own, AWSCLI) whose
// protocol is query and which define it; from names where they were read.
// An error names the operations no such model defines: their query form
// could not be checked.
func (t *Table) AddQueryForms(dir, from string) error {
	want := map[string]bool{}
	for key, o := range t.Ops {
		if o.QueryCompatible {
			svc, _, _ := strings.Cut(key, ":")
			want[svc] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	models, err := Models(dir, func(signing, prefix string) bool { return want[signing] || want[prefix] })
	if err != nil {
		return err
	}
	t.Query, t.QueryFrom = map[string]Op{}, from
	var missing []string
	for _, key := range slices.Sorted(maps.Keys(t.Ops)) {
		if !t.Ops[key].QueryCompatible {
			continue
		}
		svc, name, _ := strings.Cut(key, ":")
		var m *Model
		for _, c := range models {
			if _, ok := c.Operations[name]; ok && c.Serves(svc) && c.Metadata.Protocol == "query" {
				m = c
			}
		}
		if m == nil || m.Operations[name].Input == nil {
			missing = append(missing, key)
			continue
		}
		model := m.Name + QuerySuffix
		in := m.Operations[name].Input.Shape
		if t.Shapes[model] == nil {
			t.Shapes[model] = map[string]*RawShape{}
		}
		reach(m, in, t.Shapes[model])
		t.Query[key] = Op{Model: model, Protocol: "query", Input: in}
	}
	if len(missing) > 0 {
		return fmt.Errorf("operations that accept the query protocol but no query model in %s defines: %s", from, strings.Join(missing, " "))
	}
	return nil
}

func pick(cands []*Model, op Served, prefer func(Served) string) *Model {
	if len(cands) == 1 {
		return cands[0]
	}
	name := op.Service
	if prefer != nil && prefer(op) != "" {
		name = prefer(op)
	}
	for _, m := range cands {
		if m.Name == name {
			return m
		}
	}
	for _, m := range cands {
		if m.Name == op.Service {
			return m
		}
	}
	return nil
}

// reach copies shape name and every shape under it into out.
func reach(m *Model, name string, out map[string]*RawShape) {
	if _, ok := out[name]; ok {
		return
	}
	s, ok := m.Shapes[name]
	if !ok {
		return
	}
	out[name] = s
	for _, r := range s.Members {
		reach(m, r.Shape, out)
	}
	for _, r := range []*Ref{s.Member, s.Key, s.Value} {
		if r != nil {
			reach(m, r.Shape, out)
		}
	}
}

// Marshal writes the table as inputs.json.gz's bytes (the same bytes for
// the same table).
func (t *Table) Marshal() ([]byte, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unmarshal reads bytes Marshal wrote.
func Unmarshal(b []byte) (*Table, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("input constraints: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("input constraints: %w", err)
	}
	var t Table
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("input constraints: %w", err)
	}
	return &t, nil
}

//go:embed inputs.json.gz
var inputsFile []byte

// Embedded returns the table built into the binary (read once: it never
// changes).
var Embedded = sync.OnceValues(func() (*Table, error) { return Unmarshal(inputsFile) })

// File is the embedded table's bytes, for the test that it is current.
func File() []byte { return inputsFile }
