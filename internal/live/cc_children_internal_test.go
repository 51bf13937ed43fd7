package live

import "testing"

// TestPhysicalOf: the physical id of a child from its Cloud Control
// identifier inverts every identifier adapter the enumerators meet —
// compound identifiers and parent-first ones (parentFirstTypes holds
// exactly the adapters that prefix a parent) — and leaves a plain one.
func TestPhysicalOf(t *testing.T) {
	for typ, adapt := range identifierAdapters() {
		_, compound := compoundIdentifiers()[typ]
		declared := map[string]any{}
		if k, ok := compoundIdentifiers()[typ]; ok {
			for _, p := range k.parts {
				declared[p] = "parent-" + p
			}
		} else {
			for _, p := range []string{"ApiId", "ApplicationName"} {
				declared[p] = "parent"
			}
		}
		id, err := adapt("child", declared, noScope)
		if err != nil {
			continue // ARN and other scoped adapters: not enumerated children
		}
		isParentFirst := !compound && id == "parent|child"
		if isParentFirst != parentFirstTypes[typ] {
			t.Errorf("%s: adapter gives %q; parentFirstTypes says %v", typ, id, parentFirstTypes[typ])
		}
		if isParentFirst || (compound && compoundIdentifiers()[typ].physical != "") {
			if got := physicalOf(typ, id); got != "child" {
				t.Errorf("physicalOf(%s, %q) = %q, want child", typ, id, got)
			}
		}
	}
	if got := physicalOf("AWS::EFS::MountTarget", "fsmt-1"); got != "fsmt-1" {
		t.Errorf("plain identifier: %q", got)
	}
}
