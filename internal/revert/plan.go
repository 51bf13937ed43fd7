package revert

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// Kind says how an item is written.
type Kind uint8

// The write kinds.
const (
	KindUnknown Kind = iota
	// CloudControl: an UpdateResource patch, polled to completion.
	CloudControl
	// Writer: the type's (or the property's) SDK writer.
	Writer
	// Delete: the removal of a child added out of band.
	Delete
)

var kindNames = [...]string{KindUnknown: "unknown", CloudControl: "cloudControl", Writer: "sdk", Delete: "delete"}

// String returns the kind's wire name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalJSON writes the wire name.
func (k Kind) MarshalJSON() ([]byte, error) {
	if k == KindUnknown || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("marshal kind: invalid kind %d", uint8(k))
	}
	return json.Marshal(k.String())
}

// UnmarshalJSON reads a wire name.
func (k *Kind) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	for i, n := range kindNames {
		if n == s && Kind(i) != KindUnknown {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown revert kind %q", s)
}

// Op is one RFC 6902 operation.
type Op struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// Item is one revertable finding and the write it implies.
type Item struct {
	// ID names the item within its stack's plan: the entry id and the
	// path ("Queue VisibilityTimeout", "Topic/Subscription#arn:…").
	ID        string     `json:"id"`
	Kind      Kind       `json:"kind"`
	Tier      drift.Tier `json:"tier"`
	LogicalID string     `json:"logicalId"`
	// ConstructPath is the resource's CDK construct path, when it has one:
	// the name check prints (ignore.DisplayPath) comes from it.
	ConstructPath string `json:"constructPath,omitempty"`
	ResourceType  string `json:"resourceType"`
	PhysicalID    string `json:"physicalId"`
	// Identifier is what the write addresses: the Cloud Control
	// identifier, or the child's identity for a delete.
	Identifier string `json:"identifier"`
	Path       string `json:"path,omitempty"`
	Note       string `json:"note,omitempty"`
	// Current is the live value; Target the value written back (nil with
	// Remove: the value is removed).
	Current any  `json:"current,omitempty"`
	Target  any  `json:"target,omitempty"`
	Remove  bool `json:"remove,omitempty"`
	// Patch is the RFC 6902 patch against the resource's model (Cloud
	// Control's, or the SDK writer's projection).
	Patch []Op `json:"patch,omitempty"`
	// Call names the API the write uses, e.g. "cloudcontrol:UpdateResource".
	Call string `json:"call"`
	// List is the attachment list (a scalar set: a role's
	// ManagedPolicyArns, a managed policy's Roles) the item's member
	// belongs to; the items of one list share one write of the whole
	// list (Patch), from Prior, the list as the check read it.
	List  string `json:"list,omitempty"`
	Prior []any  `json:"prior,omitempty"`
	// ChangedBy is who last wrote the resource (revert --who), from its
	// finding.
	ChangedBy *drift.ChangedBy `json:"changedBy,omitempty"`
}

// Unrevertable is a drift finding the plan cannot write, with the reason.
type Unrevertable struct {
	Tier      drift.Tier `json:"tier"`
	LogicalID string     `json:"logicalId"`
	// ConstructPath is the resource's CDK construct path, when it has one.
	ConstructPath string `json:"constructPath,omitempty"`
	ResourceType  string `json:"resourceType"`
	PhysicalID    string `json:"physicalId"`
	Path          string `json:"path,omitempty"`
	Reason        Reason `json:"reason"`
	Detail        string `json:"detail,omitempty"`
	// ChangedBy is who last wrote the resource (revert --who).
	ChangedBy *drift.ChangedBy `json:"changedBy,omitempty"`
}

// Plan is what a revert of one stack writes, and what it cannot.
type Plan struct {
	Stack         drift.StackRef `json:"stack"`
	Items         []Item         `json:"items"`
	NotRevertable []Unrevertable `json:"notRevertable"`
}

// Resource is one resource of the deployed template as the plan sees it.
type Resource struct {
	LogicalID  string
	Type       string
	PhysicalID string
	// Identifier is the Cloud Control identifier (default: PhysicalID).
	Identifier string
	Declared   map[string]any
	// Live is the live model the check read (nil when not read): the
	// members of an attachment list are written from its list.
	Live map[string]any
}

// Input is one stack's reconciled state.
type Input struct {
	Stack drift.StackRef
	// Findings are reconciled: after baseline.Apply and the ignore rules.
	Findings []drift.Finding
	// Baseline is the stack's baseline; nil when none (every undeclared
	// value is then unrecorded).
	Baseline  *baseline.Baseline
	Resources []Resource
	// Facts returns a type's schema facts; may be nil.
	Facts func(typeName string) (*schema.Facts, bool)
}

// Options choose what a plan covers.
type Options struct {
	// DeclaredOnly keeps the declared side (deleted, declared);
	// UndeclaredOnly the live-only side (undeclared, added).
	DeclaredOnly, UndeclaredOnly bool
	// Only keeps findings one of these globs names (OnlyMatches): by the
	// construct path check prints (OrdersQueue.*), as ignore --path
	// matches, or by "<logicalId>.<path>" (logical id alone for a
	// whole-resource finding).
	Only []string
	// RemoveUnrecorded lifts the unrecorded guard for removals: a live
	// value nobody recorded is removed (where it has an absent state) and
	// a child nobody recorded is deleted, instead of not revertable.
	RemoveUnrecorded bool
	// CloudControlTypes, when not nil, are the only types a Cloud Control
	// write (UpdateResource, DeleteResource) may address: the types whose
	// handler permissions the service's revert role is granted. Any other
	// is not revertable (Ungranted). Nil (the CLI, on the caller's own
	// credentials) allows every type.
	CloudControlTypes []string
}

// NoteUnrecorded marks an item that removes a value (or deletes a child)
// nobody recorded: planned only with Options.RemoveUnrecorded.
const NoteUnrecorded = "unrecorded"

// Build plans the revert of one stack. It is pure and deterministic.
func Build(in Input, opt Options) (*Plan, error) {
	for _, g := range opt.Only {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("--only %q: %w", g, err)
		}
	}
	res := map[string]Resource{}
	for _, r := range in.Resources {
		res[r.LogicalID] = r
	}
	p := &Plan{Stack: in.Stack, Items: []Item{}, NotRevertable: []Unrevertable{}}
	for _, f := range in.Findings {
		if !chosen(in.Stack, f, opt) {
			continue
		}
		var facts *schema.Facts
		if in.Facts != nil {
			facts, _ = in.Facts(f.ResourceType)
		}
		it, why, detail := plan(f, res[f.LogicalID], in.Baseline, facts, opt.RemoveUnrecorded)
		if it != nil && why == ReasonNone && opt.CloudControlTypes != nil && strings.HasPrefix(it.Call, "cloudcontrol:") &&
			!slices.Contains(opt.CloudControlTypes, f.ResourceType) {
			it, why, detail = nil, Ungranted, "the member revert role holds no Cloud Control handler permissions for "+f.ResourceType+"; add it to REALDRIFT_REVERT_TYPES and redeploy"
		}
		switch {
		case why != ReasonNone:
			p.NotRevertable = append(p.NotRevertable, Unrevertable{
				Tier: f.Tier, LogicalID: f.LogicalID, ConstructPath: f.ConstructPath, ResourceType: f.ResourceType, PhysicalID: f.PhysicalID,
				Path: f.KeyedPath(), Reason: why, Detail: detail, ChangedBy: f.ChangedBy,
			})
		case it != nil:
			p.Items = append(p.Items, *it)
		}
	}
	p.mergeMembers(res, in.Findings)
	sort.SliceStable(p.Items, func(i, j int) bool {
		return less(p.Items[i].LogicalID, p.Items[i].PhysicalID, p.Items[i].Path, p.Items[j].LogicalID, p.Items[j].PhysicalID, p.Items[j].Path)
	})
	sort.SliceStable(p.NotRevertable, func(i, j int) bool {
		a, b := p.NotRevertable[i], p.NotRevertable[j]
		return less(a.LogicalID, a.PhysicalID, a.Path, b.LogicalID, b.PhysicalID, b.Path)
	})
	return p, nil
}

func less(al, ap, apath, bl, bp, bpath string) bool {
	if al != bl {
		return al < bl
	}
	if ap != bp {
		return ap < bp
	}
	return apath < bpath
}

// chosen applies the options' side and path filters. Informational tiers
// that are never drift and never a coverage gap are not part of a revert.
func chosen(stack drift.StackRef, f drift.Finding, opt Options) bool {
	if !OnSide(f, opt) {
		return false
	}
	if len(opt.Only) == 0 {
		return true
	}
	for _, g := range opt.Only {
		if OnlyMatches(stack, f, g) {
			return true
		}
	}
	return false
}

// OnSide reports whether a revert with opt's side filters
// (DeclaredOnly, UndeclaredOnly) covers f, before any Only glob.
func OnSide(f drift.Finding, opt Options) bool {
	switch f.Tier {
	case drift.Deleted, drift.Declared, drift.ReadGap, drift.Unresolved:
		if opt.UndeclaredOnly {
			return false
		}
	case drift.Undeclared, drift.Added:
		if opt.DeclaredOnly {
			return false
		}
	default:
		return false
	}
	return true
}

// OnlyMatches reports whether the Only glob g names finding f of stack:
// any name ignore --path matches (the construct path check prints, with
// or without the stack, a parent path, the logical id), or, as path.Match
// reads g, "<logicalId>.<path>" (the logical id alone for a
// whole-resource finding).
func OnlyMatches(stack drift.StackRef, f drift.Finding, g string) bool {
	if (ignore.Rule{Path: g}).Matches(stack, f) {
		return true
	}
	name := f.LogicalID
	if f.Path != "" {
		name += "." + f.KeyedPath()
	}
	ok, _ := path.Match(g, name)
	return ok
}

// plan turns one finding into an item, or the reason it cannot be one.
func plan(f drift.Finding, r Resource, b *baseline.Baseline, facts *schema.Facts, removeUnrecorded bool) (*Item, Reason, string) {
	switch f.Tier {
	case drift.ReadGap:
		return nil, NotRead, "the live read cannot return this declared value"
	case drift.Unresolved:
		return nil, Unresolvable, "the declared value could not be resolved"
	case drift.Deleted:
		return nil, Gone, ""
	}
	it := &Item{
		ID: ItemID(f), Tier: f.Tier, LogicalID: f.LogicalID, ConstructPath: f.ConstructPath, ResourceType: f.ResourceType,
		PhysicalID: f.PhysicalID, Path: f.KeyedPath(), Note: f.Note, Current: f.Actual, ChangedBy: f.ChangedBy,
	}
	// The unrecorded guard outranks every other reason: there is no
	// target to write. --remove-unrecorded makes the target removal.
	unrecorded := f.Tier != drift.Declared && (f.Unrecorded || b == nil)
	if unrecorded && !removeUnrecorded {
		return nil, Unrecorded, "record it if the live value is right, or --remove-unrecorded to remove it; nothing decided it should be otherwise"
	}
	if f.Tier == drift.Added {
		if unrecorded {
			it.Note = NoteUnrecorded
		}
		return planDelete(f, it)
	}
	target, remove := f.Desired, f.Desired == nil
	if unrecorded || (f.Tier == drift.Undeclared && f.Note == baseline.NoteAppeared) {
		target, remove = nil, true
	}
	if unrecorded {
		it.Note = NoteUnrecorded
	}
	if drift.ContainsUnknown(target) {
		return nil, Unresolvable, "the target holds a value the resolver could not know"
	}
	if containsSecret(target) || containsSecret(f.Actual) {
		return nil, SecretValue, "a secret value is never written back"
	}
	if remove && f.Actual == nil {
		return nil, ReasonNone, "" // nothing live to remove: nothing to do
	}
	it.Target, it.Remove = target, remove
	// An ELB attribute bag is written per key by its property writer, in
	// the writer's projection {Bag: {key: value}}.
	if top, key, ok := bagEntry(f); ok {
		if remove {
			return nil, NoAbsentState, top + " " + key + " has no absent state: an attribute is set, never removed"
		}
		call, _ := live.PropWriter(f.ResourceType, top)
		it.Kind, it.Call, it.Identifier = Writer, call, identifierOf(r, f)
		it.Patch = []Op{op(joinPointer(top, key), f.Actual != nil, false, target)}
		return it, ReasonNone, ""
	}
	wpath, value := f.Path, target
	if list, ok := memberList(f, r); ok {
		// One member of an attachment list: the plan writes the whole
		// list, every chosen member of it in one write (mergeMembers).
		wpath, value, it.List = list, nil, list
	} else if w := f.WholeArrayRevert; w != nil && !remove {
		wpath, value = w.Path, w.Value
		if drift.ContainsUnknown(value) || containsSecret(value) {
			return nil, Unresolvable, "the whole array to write back is not fully known"
		}
	}
	ptr, ok := pointer(wpath)
	if !ok {
		return nil, ArrayElement, "an identity-keyed array element cannot be addressed by an RFC 6902 pointer"
	}
	top := topKey(wpath)
	if remove && noAbsentState(f.ResourceType, top) {
		return nil, NoAbsentState, top + " has no absent state to revert to"
	}
	// Property-scoped writers first: they exist because Cloud Control
	// must not write that property.
	if call, ok := live.PropWriter(f.ResourceType, top); ok {
		if wpath != top {
			return nil, ArrayElement, "only the whole " + top + " list is written per entry"
		}
		it.Kind, it.Call, it.Identifier = Writer, call, identifierOf(r, f)
		it.Patch = []Op{op(ptr, f.Actual != nil, remove, value)}
		return it, ReasonNone, ""
	}
	if call, props, ok := live.Writer(f.ResourceType); ok {
		if !contains(props, top) {
			return nil, NoWriter, top + " is not written in place by " + call
		}
		it.Kind, it.Call, it.Identifier = Writer, live.WriterCall(f.ResourceType, top), identifierOf(r, f)
		it.Patch = []Op{op(ptr, f.Actual != nil, remove, value)}
		return it, ReasonNone, ""
	}
	if live.IsCloudControlGap(f.ResourceType) {
		return nil, NoWriter, "Cloud Control has no handlers for " + f.ResourceType + " and no SDK writer is registered for it"
	}
	if facts != nil {
		dotted := schemaPath(wpath)
		for _, ro := range concat(facts.ReadOnly, facts.ReadOnlyPaths) {
			if under(dotted, ro) {
				return nil, ReadOnlyValue, ro + " is read-only"
			}
		}
		for _, co := range concat(facts.CreateOnly, facts.CreateOnlyPaths) {
			if under(dotted, co) {
				return nil, CreateOnly, co + " is create-only: reverting it replaces the resource (cdk deploy)"
			}
		}
		if len(facts.Handlers) > 0 && !facts.Updatable() {
			return nil, NoWriter, "Cloud Control cannot update " + f.ResourceType + " and no SDK writer is registered"
		}
	}
	it.Kind, it.Call, it.Identifier = CloudControl, "cloudcontrol:UpdateResource", identifierOf(r, f)
	it.Patch = []Op{op(ptr, f.Actual != nil, remove, value)}
	return it, ReasonNone, ""
}

// planDelete plans the removal of an added child.
func planDelete(f drift.Finding, it *Item) (*Item, Reason, string) {
	if f.Note == baseline.NoteChanged {
		return nil, ChangedChild, "a recorded child changed since record; only its removal or a re-record is supported"
	}
	it.Kind, it.Identifier, it.Remove = Delete, f.PhysicalID, true
	it.Call = live.Deleter(f.ResourceType)
	return it, ReasonNone, ""
}

// ItemID is the id a plan gives the item of finding f: its baseline entry
// id and its path (an attribute-bag key in brackets).
func ItemID(f drift.Finding) string {
	return strings.TrimSuffix(baseline.EntryID(f)+" "+f.KeyedPath(), " ")
}

// bagEntry returns the bag and key of a finding on one key of an ELB
// attribute bag that has a property writer: a declared key
// (AttributeKey) or a live-only one ("Bag[key]").
func bagEntry(f drift.Finding) (bag, key string, ok bool) {
	bag, key = f.Path, f.AttributeKey
	if key == "" {
		i := strings.IndexByte(f.Path, '[')
		if i <= 0 || !strings.HasSuffix(f.Path, "]") {
			return "", "", false
		}
		bag, key = f.Path[:i], f.Path[i+1:len(f.Path)-1]
	}
	if key == "" || !live.AttributeBag(f.ResourceType, bag) {
		return "", "", false
	}
	_, ok = live.PropWriter(f.ResourceType, bag)
	return bag, key, ok
}

func joinPointer(segs ...string) string {
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(segs, "/")
}

func op(ptr string, present, remove bool, value any) Op {
	switch {
	case remove:
		return Op{Op: "remove", Path: ptr}
	case present:
		return Op{Op: "replace", Path: ptr, Value: value}
	}
	return Op{Op: "add", Path: ptr, Value: value}
}

func identifierOf(r Resource, f drift.Finding) string {
	if r.Identifier != "" {
		return r.Identifier
	}
	return f.PhysicalID
}

// pointer turns a dotted finding path into a JSON pointer; false when a
// segment is an identity-keyed element ([key]).
func pointer(p string) (string, bool) {
	if p == "" || strings.ContainsAny(p, "[]") {
		return "", false
	}
	segs := strings.Split(p, ".")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(segs, "/"), true
}

// schemaPath turns a dotted finding path into a schema path ("*" for
// array indexes).
func schemaPath(p string) string {
	segs := strings.Split(p, ".")
	for i, s := range segs {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, ".")
}

func under(p, q string) bool { return p == q || strings.HasPrefix(p, q+".") }

func topKey(p string) string {
	if i := strings.IndexAny(p, ".["); i >= 0 {
		return p[:i]
	}
	return p
}

func concat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsSecret(v any) bool {
	switch t := v.(type) {
	case drift.Secret:
		return true
	case drift.Unknown:
		return t.Secret
	case map[string]any:
		for _, e := range t {
			if containsSecret(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if containsSecret(e) {
				return true
			}
		}
	case string:
		return t == drift.Redacted
	}
	return false
}

// Name is how check names the item's finding: the within-stack construct
// path (else the logical id), then ".<path>" (ignore.DisplayPath).
func (it Item) Name(stackName string) string {
	return ignore.DisplayPath(stackName, drift.Finding{LogicalID: it.LogicalID, ConstructPath: it.ConstructPath, Path: it.Path})
}

// Name is how check names the finding (ignore.DisplayPath).
func (u Unrevertable) Name(stackName string) string {
	return ignore.DisplayPath(stackName, drift.Finding{LogicalID: u.LogicalID, ConstructPath: u.ConstructPath, Path: u.Path})
}
