package cloudcontrolapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"github.com/realdrift/realdrift/internal/schema"
)

// Refusal says whether IAM refuses a type's handler (read, list, update,
// delete) the caller's own credentials, and with which AccessDenied
// message (iamauth.HandlerRefused); it takes the state's read lock.
type Refusal func(st *world.State, c *wire.Call, typ, handler string) (string, bool)

// api is Cloud Control's registration.
type api struct {
	reqs     *Requests
	fallback func(typeName string) (*schema.Facts, bool)
	refused  Refusal
}

func (a *api) schemas(st *world.State) world.Schemas {
	return world.Schemas{State: st, Fallback: a.fallback}
}

// handlerRefused is a.refused, or no refusal.
func (a *api) handlerRefused(st *world.State, c *wire.Call, typ, handler string) (string, bool) {
	if a.refused == nil {
		return "", false
	}
	return a.refused(st, c, typ, handler)
}

// handlerDenied is handlerRefused as the error a synchronous Cloud Control
// call (GetResource, ListResources) answers. That error is not documented;
// the sandbox answers AccessDeniedException with the downstream action in
// the message, which the readers report as skipped (AccessDenied), never
// as drift. An asynchronous write instead fails its request (FAILED,
// ErrorCode AccessDenied), as the handler's own call fails.
func (a *api) handlerDenied(st *world.State, c *wire.Call, typ, handler string) error {
	msg, refused := a.handlerRefused(st, c, typ, handler)
	if !refused {
		return nil
	}
	e := c.Service.Deny
	e.Message = msg
	return &e
}

// Requests are Cloud Control's resource requests by token, guarded by the
// world state's lock.
type Requests struct {
	m map[string]*progress
}

// NewRequests returns an empty request tracker.
func NewRequests() *Requests { return &Requests{m: map[string]*progress{}} }

// Stop stops every pending request's timer: none completes from then on.
// The caller holds the world state's write lock.
func (r *Requests) Stop() {
	for _, p := range r.m {
		if p.timer != nil {
			p.timer.Stop()
		}
	}
}

// Reset stops every pending request and forgets them all (a restored
// world). The caller holds the world state's write lock.
func (r *Requests) Reset() {
	r.Stop()
	r.m = map[string]*progress{}
}

type resourceDescription struct {
	Identifier string `json:"Identifier"`
	Properties string `json:"Properties"`
}

// progress is one Cloud Control resource request.
type progress struct {
	token, clientToken   string
	account, region      string
	typ, id, op          string
	status               string
	patch                jsonpatch.Patch
	eventTime            time.Time
	model                json.RawMessage
	errorCode, statusMsg string
	timer                *time.Timer
	now                  func() time.Time
	// refused is the AccessDenied message of a handler permission the
	// caller lacks (handlerRefused): the request fails when it completes.
	refused string
}

func (p *progress) event() map[string]any {
	ev := map[string]any{
		"TypeName": p.typ, "Identifier": p.id, "RequestToken": p.token,
		"Operation": p.op, "OperationStatus": p.status, "EventTime": wire.Epoch(p.eventTime),
	}
	if p.statusMsg != "" {
		ev["StatusMessage"] = p.statusMsg
	}
	if p.errorCode != "" {
		ev["ErrorCode"] = p.errorCode
	}
	if len(p.model) > 0 {
		ev["ResourceModel"] = string(p.model)
	}
	return ev
}

func notFoundResource(typ, id string) error {
	return wire.Errf(400, "ResourceNotFoundException", "Resource of type '%s' with identifier '%s' was not found.", typ, id)
}

// ccCheckType answers the errors Cloud Control gives before any lookup.
// It takes st's read lock.
func (a *api) ccCheckType(st *world.State, c *wire.Call, typ, action string) error {
	if typ == "" {
		return wire.Errf(400, "ValidationException", "1 validation error detected: Value null at 'typeName' failed to satisfy constraint: Member must not be null")
	}
	if world.IsCustom(typ) {
		return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
	}
	if !a.schemas(st).Readable(c.Account, c.Region, typ) {
		return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
	}
	if f, ok := a.schemas(st).Facts(c.Account, c.Region, typ); ok && len(f.Handlers) > 0 {
		want := strings.ToLower(action)
		has := false
		for _, h := range f.Handlers {
			has = has || h == want
		}
		if !has {
			return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
		}
	} else if !ok && a.fallback != nil && !knowsType(st, typ) {
		return wire.Errf(400, "TypeNotFoundException", "The type '%s' cannot be found.", typ)
	}
	return nil
}

// knowsType reports whether the world holds any resource of typ.
func knowsType(st *world.State, typ string) bool {
	st.RLock()
	defer st.RUnlock()
	for k := range st.ByType {
		if k.Type == typ {
			return true
		}
	}
	return false
}

func (a *api) ccGetResource(st *world.State, c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := a.ccCheckType(st, c, in.TypeName, "READ"); err != nil {
		return nil, err
	}
	if err := a.handlerDenied(st, c, in.TypeName, "read"); err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	res := st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil || len(res.Properties) == 0 {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	return map[string]any{
		"TypeName":            in.TypeName,
		"ResourceDescription": resourceDescription{Identifier: res.CCID(), Properties: string(world.AttachmentView(st, c.Account, res))},
	}, nil
}

func (a *api) ccListResources(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		TypeName      string
		NextToken     string
		MaxResults    int
		ResourceModel string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := a.ccCheckType(st, c, in.TypeName, "LIST"); err != nil {
		return nil, err
	}
	if err := a.handlerDenied(st, c, in.TypeName, "list"); err != nil {
		return nil, err
	}
	// A ResourceModel selects the children of a parent (RestApiId,
	// ListenerArn, ...): only resources whose model holds each of its
	// values are listed.
	var sel map[string]any
	if in.ResourceModel != "" {
		if err := json.Unmarshal([]byte(in.ResourceModel), &sel); err != nil || sel == nil {
			return nil, wire.Errf(400, "InvalidRequestException", "The ResourceModel is not a JSON object: %v", err)
		}
	}
	cur, err := wire.Paging{Prefix: "cc", Default: c.PageSize,
		BadToken: wire.Errf(400, "InvalidRequestException", "The NextToken is not valid.")}.Start(c, min(in.MaxResults, c.PageSize), in.NextToken)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	all := st.OfType(c.Account, c.Region, in.TypeName)
	if sel != nil {
		var kept []*world.Resource
		for _, res := range all {
			if modelHolds(res, sel) {
				kept = append(kept, res)
			}
		}
		all = kept
	}
	lo, hi, next := cur.Cut(len(all))
	descs := []resourceDescription{}
	for _, res := range all[lo:hi] {
		descs = append(descs, resourceDescription{Identifier: res.CCID(), Properties: string(world.AttachmentView(st, c.Account, res))})
	}
	out := map[string]any{"TypeName": in.TypeName, "ResourceDescriptions": descs}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func (a *api) ccUpdateResource(st *world.State, c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier, PatchDocument, ClientToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := a.ccCheckType(st, c, in.TypeName, "UPDATE"); err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch([]byte(in.PatchDocument))
	if err != nil || in.PatchDocument == "" {
		return nil, wire.Errf(400, "InvalidRequestException", "The PatchDocument is not a valid RFC 6902 JSON patch: %v", err)
	}
	f, _ := a.schemas(st).Facts(c.Account, c.Region, in.TypeName)
	refused, _ := a.handlerRefused(st, c, in.TypeName, "update")
	st.Lock()
	defer st.Unlock()
	if p := a.reqs.byClientToken(c.Account, in.ClientToken); p != nil {
		return map[string]any{"ProgressEvent": p.event()}, nil
	}
	res := st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil || len(res.Properties) == 0 {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	if err := a.reqs.busy(c.Account, in.TypeName, res.CCID()); err != nil {
		return nil, err
	}
	if _, err := applyPatch(in.TypeName, res.Properties, patch, f, c.Now()); err != nil {
		return nil, wire.Errf(400, "InvalidRequestException", "%v", err)
	}
	p := a.newProgress(st, c, in.TypeName, res.CCID(), "UPDATE", in.ClientToken)
	p.patch = patch
	p.refused = refused
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (a *api) ccDeleteResource(st *world.State, c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier, ClientToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := a.ccCheckType(st, c, in.TypeName, "DELETE"); err != nil {
		return nil, err
	}
	refused, _ := a.handlerRefused(st, c, in.TypeName, "delete")
	st.Lock()
	defer st.Unlock()
	if p := a.reqs.byClientToken(c.Account, in.ClientToken); p != nil {
		return map[string]any{"ProgressEvent": p.event()}, nil
	}
	res := st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	if err := a.reqs.busy(c.Account, in.TypeName, res.CCID()); err != nil {
		return nil, err
	}
	p := a.newProgress(st, c, in.TypeName, res.CCID(), "DELETE", in.ClientToken)
	p.refused = refused
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (a *api) ccGetResourceRequestStatus(st *world.State, c *wire.Call, in struct{ RequestToken string }) (any, error) {
	p := a.reqs.m[in.RequestToken]
	if p == nil || p.account != c.Account {
		return nil, wire.Errf(400, "RequestTokenNotFoundException", "Request with token %s was not found", in.RequestToken)
	}
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (a *api) ccCancelResourceRequest(st *world.State, c *wire.Call, in struct{ RequestToken string }) (any, error) {
	p := a.reqs.m[in.RequestToken]
	if p == nil || p.account != c.Account {
		return nil, wire.Errf(400, "RequestTokenNotFoundException", "Request with token %s was not found", in.RequestToken)
	}
	if p.status != "IN_PROGRESS" && p.status != "PENDING" {
		return nil, wire.Errf(400, "ConcurrentModificationException", "Request %s is %s and can no longer be cancelled", p.token, p.status)
	}
	if p.timer != nil {
		p.timer.Stop()
	}
	p.status = "CANCEL_COMPLETE"
	p.eventTime = c.Now()
	p.statusMsg = "Request cancelled"
	return map[string]any{"ProgressEvent": p.event()}, nil
}

// byClientToken returns the request a client token already started.
// Callers hold the state's lock.
func (r *Requests) byClientToken(account, token string) *progress {
	if token == "" {
		return nil
	}
	for _, p := range r.m {
		if p.account == account && p.clientToken == token {
			return p
		}
	}
	return nil
}

// busy refuses a second request on a resource with one in progress.
// Callers hold the state's lock.
func (r *Requests) busy(account, typ, id string) error {
	for _, p := range r.m {
		if p.account == account && p.typ == typ && p.id == id && p.status == "IN_PROGRESS" {
			return wire.Errf(400, "ResourceConflictException", "Resource %s of type %s has a request in progress (%s)", id, typ, p.token)
		}
	}
	return nil
}

// maxRequests bounds the Cloud Control requests kept for status reads.
const maxRequests = 10000

// newProgress registers an IN_PROGRESS request that completes after the
// call's operation delay. Callers hold the state's write lock.
func (a *api) newProgress(st *world.State, c *wire.Call, typ, id, op, clientToken string) *progress {
	reqs := a.reqs
	if len(reqs.m) >= maxRequests {
		// Forget finished requests, oldest first, as AWS expires them.
		var done []*progress
		for _, p := range reqs.m {
			if p.status != "IN_PROGRESS" {
				done = append(done, p)
			}
		}
		sort.Slice(done, func(i, j int) bool { return done[i].eventTime.Before(done[j].eventTime) })
		for _, p := range done[:len(done)/2] {
			delete(reqs.m, p.token)
		}
	}
	p := &progress{
		token: wire.NewRequestID(), clientToken: clientToken, account: c.Account, region: c.Region,
		typ: typ, id: id, op: op, status: "IN_PROGRESS", eventTime: c.Now(), now: c.Now,
	}
	reqs.m[p.token] = p
	p.timer = time.AfterFunc(c.OperationDelay, func() { a.complete(st, p.token) })
	return p
}

// complete finishes a request: it applies the update or the deletion to the
// world as it is now.
func (a *api) complete(st *world.State, token string) {
	f := (*schema.Facts)(nil)
	st.RLock()
	p := a.reqs.m[token]
	var account, region, typ string
	if p != nil {
		account, region, typ = p.account, p.region, p.typ
	}
	st.RUnlock()
	if p == nil {
		return
	}
	if ff, ok := a.schemas(st).Facts(account, region, typ); ok {
		f = ff
	}
	st.Lock()
	defer st.Unlock()
	if p.status != "IN_PROGRESS" {
		return
	}
	p.eventTime = p.now()
	if p.refused != "" {
		p.status, p.errorCode, p.statusMsg = "FAILED", "AccessDenied", p.refused
		return
	}
	res := st.Resource(p.account, p.region, p.typ, p.id)
	if res == nil {
		p.status, p.errorCode = "FAILED", "NotFound"
		p.statusMsg = fmt.Sprintf("Resource of type '%s' with identifier '%s' was not found.", p.typ, p.id)
		return
	}
	switch p.op {
	case "DELETE":
		st.Remove(p.account, p.region, res)
		p.status = "SUCCESS"
	case "UPDATE":
		out, err := applyPatch(p.typ, res.Properties, p.patch, f, p.eventTime)
		if err != nil {
			p.status, p.errorCode, p.statusMsg = "FAILED", "InvalidRequest", err.Error()
			return
		}
		res.Properties = out
		world.SyncPolicyVersions(res, p.eventTime)
		p.model = out
		p.status = "SUCCESS"
	}
}

// applyPatch applies an RFC 6902 patch to a live model and returns the new
// model. It refuses changes to read-only or create-only paths, keeps the
// read-only values, recomputes derived read-only values and drops
// write-only top-level properties (a read never returns them).
func applyPatch(typ string, model json.RawMessage, patch jsonpatch.Patch, f *schema.Facts, now time.Time) (json.RawMessage, error) {
	if f != nil {
		for _, op := range patch {
			path, err := op.Path()
			if err != nil {
				return nil, fmt.Errorf("patch operation %s: %w", op.Kind(), err)
			}
			dotted := dottedPath(path)
			for _, ro := range concat(f.ReadOnly, f.ReadOnlyPaths) {
				if under(dotted, ro) {
					return nil, fmt.Errorf("patch path %s is read-only (%s)", path, ro)
				}
			}
		}
	}
	out, err := patch.Apply(model)
	if err != nil {
		return nil, fmt.Errorf("the patch does not apply: %w", err)
	}
	if f == nil {
		return world.Compact(out)
	}
	var before, after map[string]any
	if err := json.Unmarshal(model, &before); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(out, &after); err != nil {
		return nil, fmt.Errorf("the patched model is not a JSON object")
	}
	for _, co := range concat(f.CreateOnly, f.CreateOnlyPaths) {
		if !reflect.DeepEqual(collect(before, co), collect(after, co)) {
			return nil, fmt.Errorf("create-only property %s cannot be updated (the resource must be replaced)", co)
		}
	}
	changed := false
	for _, ro := range f.ReadOnly {
		if v, ok := before[ro]; ok && !reflect.DeepEqual(after[ro], v) {
			after[ro] = v
			changed = true
		}
	}
	if rc := recomputes()[typ]; rc != nil {
		prev, _ := world.MarshalNoEscape(after)
		rc(after, now)
		next, _ := world.MarshalNoEscape(after)
		changed = changed || string(prev) != string(next)
	}
	for _, wo := range f.WriteOnly {
		if _, ok := after[wo]; ok {
			delete(after, wo)
			changed = true
		}
	}
	if !changed {
		return world.Compact(out)
	}
	return world.MarshalNoEscape(after)
}

// dottedPath turns a JSON pointer into a dotted schema path ("*" for array
// indexes).
func dottedPath(ptr string) string {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(s); err == nil || s == "-" {
			s = "*"
		}
		segs[i] = s
	}
	return strings.Join(segs, ".")
}

// under reports whether dotted path p is at or below schema path q.
func under(p, q string) bool { return p == q || strings.HasPrefix(p, q+".") }

// collect returns the values at a dotted schema path ("*" = every item).
func collect(v any, path string) []any {
	cur := []any{v}
	for _, seg := range strings.Split(path, ".") {
		var next []any
		for _, c := range cur {
			switch t := c.(type) {
			case map[string]any:
				if e, ok := t[seg]; ok {
					next = append(next, e)
				}
			case []any:
				if seg == "*" {
					next = append(next, t...)
				}
			}
		}
		cur = next
	}
	return cur
}

func concat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

// modelHolds reports whether a resource's live model holds every value of
// sel (top-level properties, compared as JSON).
func modelHolds(res *world.Resource, sel map[string]any) bool {
	var m map[string]any
	if json.Unmarshal(res.Properties, &m) != nil {
		return false
	}
	for k, want := range sel {
		got, ok := m[k]
		if !ok {
			return false
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			return false
		}
	}
	return true
}

// readsThrough names the service a resource read reads through: the
// type's namespace, lower case, is its signing name (AWS::IAM::Role is
// read through iam, AWS::SQS::Queue through sqs); "" for the other
// operations.
func readsThrough(c *wire.Call) string {
	if c.Action != "GetResource" && c.Action != "ListResources" {
		return ""
	}
	var in struct{ TypeName string }
	if json.Unmarshal(c.Body, &in) != nil {
		return ""
	}
	parts := strings.Split(in.TypeName, "::")
	if len(parts) != 3 {
		return ""
	}
	return strings.ToLower(parts[1])
}
