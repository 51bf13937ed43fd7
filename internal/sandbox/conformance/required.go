package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
)

// RequiredTable is the required output members of every served operation,
// per aws-sdk-go-v2 package, from botocore's service models (the
// `required` lists of the output shapes; aws-sdk-go-v2's Go types do not
// mark them). Only the shapes on a path to a required member are kept.
type RequiredTable struct {
	// Botocore is the botocore version the table was built from.
	Botocore string `json:"botocore"`
	// Services are keyed by the aws-sdk-go-v2 package name (the model's
	// serviceId, lower case, spaces and dashes dropped: "CloudWatch Logs"
	// is cloudwatchlogs).
	Services map[string]*RequiredService `json:"services"`
}

// RequiredService is one service model's part of the table.
type RequiredService struct {
	// Model is the botocore service name the part was read from.
	Model string `json:"model"`
	// Ops maps every served operation of the service to its output
	// shape, "" when the output holds no required member at any depth.
	Ops map[string]string `json:"ops"`
	// Shapes are the output shapes that hold a required member.
	Shapes map[string]*RequiredShape `json:"shapes"`
}

// RequiredShape is one shape: a structure's required members and the
// members whose shapes hold required members in turn, or a list's or
// map's element shape.
type RequiredShape struct {
	Required []string          `json:"required,omitempty"`
	Members  map[string]string `json:"members,omitempty"`
	List     string            `json:"list,omitempty"`
	Map      string            `json:"map,omitempty"`
}

// BuildRequired builds the table for ops from botocore's data directory:
// each served operation is looked up in every service model whose signing
// name (or endpoint prefix) is the operation's service and which defines
// it (RDS's signing name serves DocumentDB, Neptune and RDS alike), under
// each model's aws-sdk-go-v2 package name.
func BuildRequired(dataDir, version string, ops []sandbox.Operation) (*RequiredTable, error) {
	bySigning := map[string]map[string]bool{}
	for _, op := range ops {
		if bySigning[op.Service] == nil {
			bySigning[op.Service] = map[string]bool{}
		}
		bySigning[op.Service][op.Name] = true
	}
	models, err := awsmodel.Models(dataDir, func(signing, prefix string) bool {
		return bySigning[signing] != nil || bySigning[prefix] != nil
	})
	if err != nil {
		return nil, err
	}
	t := &RequiredTable{Botocore: version, Services: map[string]*RequiredService{}}
	found := map[sandbox.Operation]bool{}
	for _, m := range models {
		hold := holding(m)
		for signing, names := range bySigning {
			if !m.Serves(signing) {
				continue
			}
			for name := range names {
				op, ok := m.Operations[name]
				if !ok {
					continue
				}
				found[sandbox.Operation{Service: signing, Name: name}] = true
				pkg := m.SDKPackage()
				svc := t.Services[pkg]
				if svc == nil {
					svc = &RequiredService{Model: m.Name, Ops: map[string]string{}, Shapes: map[string]*RequiredShape{}}
					t.Services[pkg] = svc
				}
				svc.Ops[name] = ""
				if op.Output != nil && hold[op.Output.Shape] {
					svc.Ops[name] = op.Output.Shape
					keep(m, hold, op.Output.Shape, svc.Shapes)
				}
			}
		}
	}
	var missing []string
	for _, op := range ops {
		if !found[op] {
			missing = append(missing, op.String())
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("served operations no botocore model defines: %s", strings.Join(missing, " "))
	}
	return t, nil
}

// holding is the set of a model's shapes that hold a required member at
// any depth: a structure with a required list, or a shape one of whose
// members or elements is holding (a fixpoint, so recursive shapes end).
// A union is an interface in Go, whose members are not walked.
func holding(m *awsmodel.Model) map[string]bool {
	out := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, s := range m.Shapes {
			if out[name] || s.Union {
				continue
			}
			h := false
			switch s.Type {
			case "structure":
				h = len(s.Required) > 0
				for _, mm := range s.Members {
					h = h || out[mm.Shape]
				}
			case "list":
				h = s.Member != nil && out[s.Member.Shape]
			case "map":
				h = s.Value != nil && out[s.Value.Shape]
			}
			if h {
				out[name] = true
				changed = true
			}
		}
	}
	return out
}

// keep adds shape and the holding shapes under it to kept.
func keep(m *awsmodel.Model, hold map[string]bool, name string, kept map[string]*RequiredShape) {
	if _, ok := kept[name]; ok || !hold[name] {
		return
	}
	s := m.Shapes[name]
	rs := &RequiredShape{}
	kept[name] = rs
	switch s.Type {
	case "structure":
		if len(s.Required) > 0 {
			rs.Required = append([]string(nil), s.Required...)
			sort.Strings(rs.Required)
		}
		for mn, mm := range s.Members {
			if hold[mm.Shape] {
				if rs.Members == nil {
					rs.Members = map[string]string{}
				}
				rs.Members[mn] = mm.Shape
				keep(m, hold, mm.Shape, kept)
			}
		}
	case "list":
		rs.List = s.Member.Shape
		keep(m, hold, s.Member.Shape, kept)
	case "map":
		rs.Map = s.Value.Shape
		keep(m, hold, s.Value.Shape, kept)
	}
}

// MarshalRequired writes the table as the committed file's bytes.
func MarshalRequired(t *RequiredTable) ([]byte, error) {
	b, err := json.MarshalIndent(t, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// LoadRequired reads a table written by MarshalRequired.
func LoadRequired(b []byte) (*RequiredTable, error) {
	var t RequiredTable
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("required-member table: %w", err)
	}
	return &t, nil
}

// ErrNotInTable is returned by Missing for an output whose package and
// operation the table does not hold (regenerate it).
var ErrNotInTable = errors.New("not in the required-member table")

// Missing lists, as dotted paths ("Stacks[].StackName"), the members the
// model requires in op's output that out (the aws-sdk-go-v2 output struct,
// a pointer) lacks: a nil pointer, slice, map or interface, or an empty
// enum or string. A required member the Go type holds as a plain number
// or boolean cannot be told missing from zero and is not reported; nor is
// one the Go type lacks (an SDK older than the model).
func (t *RequiredTable) Missing(op string, out any) ([]string, error) {
	v := reflect.ValueOf(out)
	if !v.IsValid() {
		return nil, nil
	}
	pkg := v.Type()
	for pkg.Kind() == reflect.Pointer {
		pkg = pkg.Elem()
	}
	name := pkg.PkgPath()[strings.LastIndex(pkg.PkgPath(), "/")+1:]
	svc := t.Services[name]
	if svc == nil {
		return nil, fmt.Errorf("%s %s: %w", name, op, ErrNotInTable)
	}
	shape, ok := svc.Ops[op]
	if !ok {
		return nil, fmt.Errorf("%s %s: %w", name, op, ErrNotInTable)
	}
	seen := map[string]bool{}
	var miss []string
	var walk func(v reflect.Value, shape, path string, depth int)
	walk = func(v reflect.Value, shape, path string, depth int) {
		if shape == "" || depth > 32 {
			return
		}
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		s := svc.Shapes[shape]
		if s == nil {
			return
		}
		switch {
		case s.List != "" && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array):
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), s.List, path+"[]", depth+1)
			}
		case s.Map != "" && v.Kind() == reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Value(), s.Map, path+"{}", depth+1)
			}
		case v.Kind() == reflect.Struct:
			join := func(m string) string {
				if path == "" {
					return m
				}
				return path + "." + m
			}
			for _, r := range s.Required {
				f, ok := field(v, r)
				if ok && absent(f) && !seen[join(r)] {
					seen[join(r)] = true
					miss = append(miss, join(r))
				}
			}
			for m, ms := range s.Members {
				if f, ok := field(v, m); ok {
					walk(f, ms, join(m), depth+1)
				}
			}
		}
	}
	walk(v, shape, "", 0)
	sort.Strings(miss)
	return miss, nil
}

// field is the struct field of a model member: the Go name is the member
// name with its first letter upper case, matched here ignoring case and
// underscores.
func field(v reflect.Value, member string) (reflect.Value, bool) {
	key := strings.ToLower(strings.ReplaceAll(member, "_", ""))
	for i := 0; i < v.NumField(); i++ {
		if strings.ToLower(strings.ReplaceAll(v.Type().Field(i).Name, "_", "")) == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// absent reports a member value the SDK left unset.
func absent(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return v.IsNil()
	case reflect.String:
		return v.Len() == 0
	}
	return false
}

// InputTable builds the sandbox's table of input constraints
// (awsmodel.Table, embedded as internal/sandbox/awsmodel/inputs.json.gz)
// for every served write operation (not sandbox.ReadOnly), from
// botocore's data directory; where two models define an operation, the
// one the AWS CLI calls it through is taken. The query form of the
// operations of a JSON service that accepts query too (SQS) is read from
// cliDir, the botocore data of the AWS CLI v2 (awsmodel.AWSCLI; its
// version cli), whose models still speak query.
func InputTable(dir, version, cliDir, cli string) (*awsmodel.Table, error) {
	var ops []awsmodel.Served
	for _, op := range sandbox.ServedOperations() {
		if !sandbox.ReadOnly(op.Service, op.Name) {
			ops = append(ops, awsmodel.Served{Service: op.Service, Name: op.Name})
		}
	}
	t, err := awsmodel.BuildInputs(dir, version, ops, func(op awsmodel.Served) string {
		svc, _, _ := strings.Cut(CLICommand(sandbox.Operation{Service: op.Service, Name: op.Name}), " ")
		return svc
	})
	if err != nil {
		return nil, err
	}
	if err := t.AddQueryForms(cliDir, cli); err != nil {
		return nil, err
	}
	return t, nil
}

// AWSCLIs is the AWS CLIs tried, in order, for the models of the query
// forms (awsmodel.AWSCLI): the one on PATH, then Debian's v2.
func AWSCLIs() []string { return []string{"aws", "/usr/bin/aws"} }
