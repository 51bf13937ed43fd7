package scan

import (
	"context"
	"testing"

	"github.com/realdrift/realdrift/internal/schema"
)

// askedRegistry records the types it is asked for and answers each readable.
type askedRegistry struct {
	asked []string
	facts *schema.Facts
}

func (r *askedRegistry) Lookup(_ context.Context, typeName string) (*schema.Facts, error) {
	r.asked = append(r.asked, typeName)
	return r.facts, nil
}

// The snapshot answers the types it knows as readable; a type it lacks, or
// marks unreadable (it may predate the read handler), goes to the registry.
func TestSnapshotFirstAsksRegistryForUnreadable(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	readable, _ := snap.Lookup("AWS::SQS::Queue")
	if readable == nil || !readable.Readable() {
		t.Fatal("snapshot: AWS::SQS::Queue missing or unreadable; the test needs a readable type")
	}
	const stale = "AWS::EC2::NetworkAclEntry"
	if f, ok := snap.Lookup(stale); !ok || f.Readable() {
		t.Fatalf("snapshot now has a read handler for %s (regenerated?): pick another unreadable type", stale)
	}
	reg := &askedRegistry{facts: readable}
	src := snapshotFirst{snap: snap, reg: reg}
	for _, typ := range []string{"AWS::SQS::Queue", stale, "AWS::Example::NotInSnapshot"} {
		if _, err := src.Lookup(t.Context(), typ); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
	}
	if got, want := len(reg.asked), 2; got != want || reg.asked[0] != stale {
		t.Errorf("registry asked for %v, want [%s AWS::Example::NotInSnapshot]", reg.asked, stale)
	}
}
