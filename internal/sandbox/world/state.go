package world

import (
	"fmt"
	"sort"
	"sync"
)

// rkey addresses one live resource; region is "" for global types.
type rkey struct{ account, region, typ, id string }

// tkey addresses every resource of one type in one account scope.
type tkey struct{ account, region, Type string }

func keyFor(account, region, typ, id string) rkey {
	if isGlobal(typ) {
		region = ""
	}
	return rkey{account, region, typ, id}
}

func typeKey(account, region, typ string) tkey {
	if isGlobal(typ) {
		region = ""
	}
	return tkey{account, region, typ}
}

// State is the world plus its indexes and the lock that guards them
// (and whatever else the server keeps beside the world). Every method
// expects the caller to hold the lock: the read lock for lookups, the
// write lock for changes.
type State struct {
	sync.RWMutex
	World  *World
	byID   map[rkey]*Resource
	ByType map[tkey][]*Resource
	// keys maps access key ids (world keys and issued session keys) to
	// principals.
	Keys map[string]Principal
	// Trail is the sandbox's own CloudTrail (trail.go); a Reset keeps it.
	Trail Trail
}

// NewState indexes w.
func NewState(w *World) *State {
	st := &State{World: w, Keys: map[string]Principal{}}
	st.reindex()
	return st
}

// Reset replaces the world with w and reindexes it, keeping the issued
// session keys (keys of an assumed role) valid. The caller holds the write
// lock.
func (st *State) Reset(w *World) {
	keys := st.Keys
	st.World, st.Keys = w, map[string]Principal{}
	st.reindex()
	for k, p := range keys {
		if _, ok := st.Keys[k]; !ok && p.Role != "" {
			st.Keys[k] = p
		}
	}
}

func (st *State) reindex() {
	st.byID = map[rkey]*Resource{}
	st.ByType = map[tkey][]*Resource{}
	for _, a := range st.World.Accounts {
		for _, k := range a.AccessKeys {
			if k.Role != "" {
				st.Keys[k.ID] = RolePrincipal(a.ID, k.Role, k.Role)
				continue
			}
			st.Keys[k.ID] = UserPrincipal(a.ID, k.UserName)
		}
		for _, r := range a.Regions {
			for _, s := range r.Stacks {
				if s.Status == "DELETE_COMPLETE" {
					continue
				}
				for _, res := range s.Resources {
					st.index(a.ID, r.Name, res)
				}
			}
			for _, res := range r.Resources {
				st.index(a.ID, r.Name, res)
			}
		}
	}
}

func (st *State) index(account, region string, res *Resource) {
	tk := typeKey(account, region, res.Type)
	st.ByType[tk] = append(st.ByType[tk], res)
	if id := res.CCID(); id != "" && !res.Deleted {
		st.byID[keyFor(account, region, res.Type, id)] = res
	}
}

func (st *State) Account(id string) *Account {
	for _, a := range st.World.Accounts {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func (st *State) Region(account, name string) *Region {
	a := st.Account(account)
	if a == nil {
		return nil
	}
	for _, r := range a.Regions {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// ensureRegion returns the account's region, adding it when missing.
func (st *State) ensureRegion(account, name string) (*Region, error) {
	a := st.Account(account)
	if a == nil {
		return nil, fmt.Errorf("account %s is not in the world", account)
	}
	if !regionRE.MatchString(name) {
		return nil, fmt.Errorf("%q is not a region name", name)
	}
	if r := st.Region(account, name); r != nil {
		return r, nil
	}
	r := &Region{Name: name}
	a.Regions = append(a.Regions, r)
	return r, nil
}

// stacks returns the region's stacks (deleted ones included).
func (st *State) Stacks(account, region string) []*Stack {
	if r := st.Region(account, region); r != nil {
		return r.Stacks
	}
	return nil
}

// findStack finds a stack by stack id (deleted stacks included) or by name
// (live stacks only), as CloudFormation does.
func (st *State) FindStack(account, region, nameOrID string) *Stack {
	for _, s := range st.Stacks(account, region) {
		if s.ID == nameOrID || (s.Name == nameOrID && s.Status != "DELETE_COMPLETE") {
			return s
		}
	}
	return nil
}

// resource returns the live (not deleted) resource with a Cloud Control
// identifier, or nil.
func (st *State) Resource(account, region, typ, id string) *Resource {
	res := st.byID[keyFor(account, region, typ, id)]
	if res == nil || res.Deleted {
		return nil
	}
	return res
}

// ofType returns the live resources of a type, in world order.
func (st *State) OfType(account, region, typ string) []*Resource {
	var out []*Resource
	for _, res := range st.ByType[typeKey(account, region, typ)] {
		if !res.Deleted && len(res.Properties) > 0 {
			out = append(out, res)
		}
	}
	return out
}

// addLive adds a live-only resource.
func (st *State) AddLive(account, region string, res *Resource) error {
	var p problems
	if res.CCID() == "" {
		return fmt.Errorf("a live-only resource needs an identifier")
	}
	normalizeResource(&p, "resource", res)
	if len(p.errs) > 0 {
		return p.errs[0]
	}
	if st.Resource(account, region, res.Type, res.CCID()) != nil {
		return fmt.Errorf("%s %q already exists", res.Type, res.CCID())
	}
	r, err := st.ensureRegion(account, region)
	if err != nil {
		return err
	}
	r.Resources = append(r.Resources, res)
	st.index(account, region, res)
	return nil
}

// remove marks a resource deleted and drops it from the identifier index.
func (st *State) Remove(account, region string, res *Resource) {
	res.Deleted = true
	delete(st.byID, keyFor(account, region, res.Type, res.CCID()))
}

func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Named finds the model of type typ in an account region whose Name
// property (else its Cloud Control identifier) is name, and returns a copy
// with Name set; nil when there is none. The caller holds the lock.
func (st *State) Named(account, region, typ, name string) (map[string]any, error) {
	for _, r := range st.OfType(account, region, typ) {
		m, err := FieldObject(r)
		if err != nil {
			return nil, err
		}
		n, _ := m["Name"].(string)
		if n == "" {
			n = r.CCID()
		}
		if n == name {
			m["Name"] = n
			return m, nil
		}
	}
	return nil, nil
}
