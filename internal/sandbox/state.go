package sandbox

import (
	"fmt"
	"sort"
)

// rkey addresses one live resource; region is "" for global types.
type rkey struct{ account, region, typ, id string }

// tkey addresses every resource of one type in one account scope.
type tkey struct{ account, region, typ string }

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

// state is the world plus its indexes. Every method expects the caller to
// hold the server's lock (read lock for lookups, write lock for changes).
type state struct {
	world  *World
	byID   map[rkey]*Resource
	byType map[tkey][]*Resource
	// keys maps access key ids (world keys and issued session keys) to
	// principals.
	keys map[string]principal
}

func newState(w *World) *state {
	st := &state{world: w, keys: map[string]principal{}}
	st.reindex()
	return st
}

func (st *state) reindex() {
	st.byID = map[rkey]*Resource{}
	st.byType = map[tkey][]*Resource{}
	for _, a := range st.world.Accounts {
		for _, k := range a.AccessKeys {
			if k.Role != "" {
				st.keys[k.ID] = rolePrincipal(a.ID, k.Role, k.Role)
				continue
			}
			st.keys[k.ID] = userPrincipal(a.ID, k.UserName)
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

func (st *state) index(account, region string, res *Resource) {
	tk := typeKey(account, region, res.Type)
	st.byType[tk] = append(st.byType[tk], res)
	if id := res.ccID(); id != "" && !res.Deleted {
		st.byID[keyFor(account, region, res.Type, id)] = res
	}
}

func (st *state) account(id string) *Account {
	for _, a := range st.world.Accounts {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func (st *state) region(account, name string) *Region {
	a := st.account(account)
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
func (st *state) ensureRegion(account, name string) (*Region, error) {
	a := st.account(account)
	if a == nil {
		return nil, fmt.Errorf("account %s is not in the world", account)
	}
	if !regionRE.MatchString(name) {
		return nil, fmt.Errorf("%q is not a region name", name)
	}
	if r := st.region(account, name); r != nil {
		return r, nil
	}
	r := &Region{Name: name}
	a.Regions = append(a.Regions, r)
	return r, nil
}

// stacks returns the region's stacks (deleted ones included).
func (st *state) stacks(account, region string) []*Stack {
	if r := st.region(account, region); r != nil {
		return r.Stacks
	}
	return nil
}

// findStack finds a stack by stack id (deleted stacks included) or by name
// (live stacks only), as CloudFormation does.
func (st *state) findStack(account, region, nameOrID string) *Stack {
	for _, s := range st.stacks(account, region) {
		if s.ID == nameOrID || (s.Name == nameOrID && s.Status != "DELETE_COMPLETE") {
			return s
		}
	}
	return nil
}

// resource returns the live (not deleted) resource with a Cloud Control
// identifier, or nil.
func (st *state) resource(account, region, typ, id string) *Resource {
	res := st.byID[keyFor(account, region, typ, id)]
	if res == nil || res.Deleted {
		return nil
	}
	return res
}

// ofType returns the live resources of a type, in world order.
func (st *state) ofType(account, region, typ string) []*Resource {
	var out []*Resource
	for _, res := range st.byType[typeKey(account, region, typ)] {
		if !res.Deleted && len(res.Properties) > 0 {
			out = append(out, res)
		}
	}
	return out
}

// addLive adds a live-only resource.
func (st *state) addLive(account, region string, res *Resource) error {
	var p problems
	if res.ccID() == "" {
		return fmt.Errorf("a live-only resource needs an identifier")
	}
	normalizeResource(&p, "resource", res)
	if len(p.errs) > 0 {
		return p.errs[0]
	}
	if st.resource(account, region, res.Type, res.ccID()) != nil {
		return fmt.Errorf("%s %q already exists", res.Type, res.ccID())
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
func (st *state) remove(account, region string, res *Resource) {
	res.Deleted = true
	delete(st.byID, keyFor(account, region, res.Type, res.ccID()))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
