package sandbox

import (
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
)

func mustInputs(t *testing.T) *awsmodel.Table {
	t.Helper()
	tab, err := awsmodel.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestEveryServedWriteValidated: every write operation the sandbox serves
// (every operation CloudTrail would record as a write, ReadOnly false) is
// in the table of input constraints taken from AWS's models, with an input
// shape, in a protocol Check reads, and a write a service serves in the
// query protocol too (SQS) has its query form from the query model; an
// operation added without them fails here (run go generate
// ./internal/sandbox/conformance).
func TestEveryServedWriteValidated(t *testing.T) {
	s := &Server{services: services(&Server{})}
	tab := mustInputs(t)
	served, validated, queryForm, queryChecked := 0, 0, 0, 0
	for _, op := range s.Operations() {
		if ReadOnly(op.Service, op.Name) {
			continue
		}
		served++
		o, ok := tab.Ops[op.Service+":"+op.Name]
		switch {
		case !ok:
			t.Errorf("%s:%s: not in the input table (go generate ./internal/sandbox/conformance)", op.Service, op.Name)
		case o.Input == "" || tab.Shapes[o.Model][o.Input] == nil:
			t.Errorf("%s:%s: the table holds no input shape for it", op.Service, op.Name)
		case !awsmodel.Reads(o.Protocol):
			t.Errorf("%s:%s: its model's protocol %q is one awsmodel.Check does not read", op.Service, op.Name, o.Protocol)
		default:
			validated++
		}
		if s.services[op.Service].QueryXMLNS == "" {
			continue
		}
		queryForm++
		if q, ok := tab.Query[op.Service+":"+op.Name]; !o.QueryCompatible || !ok || tab.Shapes[q.Model][q.Input] == nil {
			t.Errorf("%s:%s: served in the query protocol too, but the table holds no query form of it (its model marked query-compatible: %t)", op.Service, op.Name, o.QueryCompatible)
			continue
		}
		queryChecked++
	}
	t.Logf("served writes: %d; validated: %d; also served as query forms: %d, validated by the query model (%s): %d", served, validated, queryForm, tab.QueryFrom, queryChecked)
	if queryChecked != queryForm {
		t.Errorf("query forms: %d; validated: %d", queryForm, queryChecked)
	}
	if served == 0 || validated != served {
		t.Errorf("served writes: %d; validated: %d", served, validated)
	}
}

// TestModelInputsNameTheTable: every write a service says carries a
// live model (wire.Service.Models, which the admin API checks
// out-of-band changes against) is a served write in the input table, and
// its shape is in that write's model, so no entry silently checks
// nothing.
func TestModelInputsNameTheTable(t *testing.T) {
	s := &Server{services: services(&Server{})}
	tab := mustInputs(t)
	types := 0
	for name, svc := range s.services {
		for typ, ins := range svc.Models {
			types++
			for _, in := range ins {
				o, ok := tab.Ops[name+":"+in.Op]
				if !ok || svc.Ops[in.Op] == nil {
					t.Errorf("%s %s: %s is not a served write in the input table", name, typ, in.Op)
					continue
				}
				sh := tab.Shapes[o.Model][in.Shape]
				switch {
				case in.Entries != nil && (sh == nil || sh.Type != "map"):
					t.Errorf("%s %s: %s's model %s has no map %s reachable from its input", name, typ, in.Op, o.Model, in.Shape)
				case in.Entries != nil:
					// A renaming names an entry the map's key allows.
					for prop, entry := range in.Entries {
						if errs := tab.CheckModel(name+":"+in.Op, sh.Key.Shape, in.At+".key", entry); entry != "" && len(errs) > 0 {
							t.Errorf("%s %s: %s is carried as %s, which %s refuses: %v", name, typ, prop, entry, in.Op, errs)
						}
					}
				case sh == nil || sh.Type != "structure":
					t.Errorf("%s %s: %s's model %s has no structure %s reachable from its input", name, typ, in.Op, o.Model, in.Shape)
				}
			}
		}
	}
	t.Logf("types whose out-of-band changes are checked against a write's input: %d", types)
	if types == 0 {
		t.Error("no service says which writes carry its models")
	}
}
