package sandbox

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

func cloudControlService(s *Server) *wire.Service {
	return wire.JSON("cloudcontrolapi", "1.0", "CloudApiService.", wire.Ops{
		"GetResource":              wire.Bound(s.ccGetResource),
		"ListResources":            wire.Bound(s.ccListResources),
		"UpdateResource":           wire.Bound(s.ccUpdateResource),
		"DeleteResource":           wire.Bound(s.ccDeleteResource),
		"GetResourceRequestStatus": wire.Bound(s.ccGetResourceRequestStatus),
		"CancelResourceRequest":    wire.Bound(s.ccCancelResourceRequest),
	}).Denies(403, "AccessDeniedException")
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
func (s *Server) ccCheckType(c *wire.Call, typ, action string) error {
	if typ == "" {
		return wire.Errf(400, "ValidationException", "1 validation error detected: Value null at 'typeName' failed to satisfy constraint: Member must not be null")
	}
	if world.IsCustom(typ) {
		return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
	}
	if !s.readable(c.Account, c.Region, typ) {
		return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
	}
	if f, ok := s.facts(c.Account, c.Region, typ); ok && len(f.Handlers) > 0 {
		want := strings.ToLower(action)
		has := false
		for _, h := range f.Handlers {
			has = has || h == want
		}
		if !has {
			return wire.Errf(400, "UnsupportedActionException", "Resource type %s does not support %s action", typ, action)
		}
	} else if !ok && s.opts.Facts != nil && !s.knowsType(typ) {
		return wire.Errf(400, "TypeNotFoundException", "The type '%s' cannot be found.", typ)
	}
	return nil
}

// knowsType reports whether the world holds any resource of typ.
func (s *Server) knowsType(typ string) bool {
	s.st.RLock()
	defer s.st.RUnlock()
	for k := range s.st.ByType {
		if k.Type == typ {
			return true
		}
	}
	return false
}

func (s *Server) ccGetResource(c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := s.ccCheckType(c, in.TypeName, "READ"); err != nil {
		return nil, err
	}
	if err := s.handlerDenied(c, in.TypeName, "read"); err != nil {
		return nil, err
	}
	s.st.RLock()
	defer s.st.RUnlock()
	res := s.st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil || len(res.Properties) == 0 {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	return map[string]any{
		"TypeName":            in.TypeName,
		"ResourceDescription": resourceDescription{Identifier: res.CCID(), Properties: string(world.AttachmentView(s.st, c.Account, res))},
	}, nil
}

func (s *Server) ccListResources(c *wire.Call) (any, error) {
	var in struct {
		TypeName      string
		NextToken     string
		MaxResults    int
		ResourceModel string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := s.ccCheckType(c, in.TypeName, "LIST"); err != nil {
		return nil, err
	}
	if err := s.handlerDenied(c, in.TypeName, "list"); err != nil {
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
	size := s.opts.PageSize
	if in.MaxResults > 0 && in.MaxResults < size {
		size = in.MaxResults
	}
	off, ok := wire.PageOffset("cc", in.NextToken)
	if !ok {
		return nil, wire.Errf(400, "InvalidRequestException", "The NextToken is not valid.")
	}
	s.st.RLock()
	defer s.st.RUnlock()
	all := s.st.OfType(c.Account, c.Region, in.TypeName)
	if sel != nil {
		var kept []*world.Resource
		for _, res := range all {
			if modelHolds(res, sel) {
				kept = append(kept, res)
			}
		}
		all = kept
	}
	lo, hi, next := wire.Page(len(all), off, size)
	descs := []resourceDescription{}
	for _, res := range all[lo:hi] {
		descs = append(descs, resourceDescription{Identifier: res.CCID(), Properties: string(world.AttachmentView(s.st, c.Account, res))})
	}
	out := map[string]any{"TypeName": in.TypeName, "ResourceDescriptions": descs}
	if next >= 0 {
		out["NextToken"] = wire.PageToken("cc", next)
	}
	return out, nil
}

func (s *Server) ccUpdateResource(c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier, PatchDocument, ClientToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := s.ccCheckType(c, in.TypeName, "UPDATE"); err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch([]byte(in.PatchDocument))
	if err != nil || in.PatchDocument == "" {
		return nil, wire.Errf(400, "InvalidRequestException", "The PatchDocument is not a valid RFC 6902 JSON patch: %v", err)
	}
	f, _ := s.facts(c.Account, c.Region, in.TypeName)
	refused, _ := s.handlerRefused(c, in.TypeName, "update")
	s.st.Lock()
	defer s.st.Unlock()
	if p := s.byClientToken(c.Account, in.ClientToken); p != nil {
		return map[string]any{"ProgressEvent": p.event()}, nil
	}
	res := s.st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil || len(res.Properties) == 0 {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	if err := s.busy(c.Account, in.TypeName, res.CCID()); err != nil {
		return nil, err
	}
	if _, err := applyPatch(in.TypeName, res.Properties, patch, f, s.opts.now()); err != nil {
		return nil, wire.Errf(400, "InvalidRequestException", "%v", err)
	}
	p := s.newProgress(c, in.TypeName, res.CCID(), "UPDATE", in.ClientToken)
	p.patch = patch
	p.refused = refused
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (s *Server) ccDeleteResource(c *wire.Call) (any, error) {
	var in struct{ TypeName, Identifier, ClientToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := s.ccCheckType(c, in.TypeName, "DELETE"); err != nil {
		return nil, err
	}
	refused, _ := s.handlerRefused(c, in.TypeName, "delete")
	s.st.Lock()
	defer s.st.Unlock()
	if p := s.byClientToken(c.Account, in.ClientToken); p != nil {
		return map[string]any{"ProgressEvent": p.event()}, nil
	}
	res := s.st.Resource(c.Account, c.Region, in.TypeName, in.Identifier)
	if res == nil {
		return nil, notFoundResource(in.TypeName, in.Identifier)
	}
	if err := s.busy(c.Account, in.TypeName, res.CCID()); err != nil {
		return nil, err
	}
	p := s.newProgress(c, in.TypeName, res.CCID(), "DELETE", in.ClientToken)
	p.refused = refused
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (s *Server) ccGetResourceRequestStatus(c *wire.Call) (any, error) {
	var in struct{ RequestToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	s.st.RLock()
	defer s.st.RUnlock()
	p := s.requests[in.RequestToken]
	if p == nil || p.account != c.Account {
		return nil, wire.Errf(400, "RequestTokenNotFoundException", "Request with token %s was not found", in.RequestToken)
	}
	return map[string]any{"ProgressEvent": p.event()}, nil
}

func (s *Server) ccCancelResourceRequest(c *wire.Call) (any, error) {
	var in struct{ RequestToken string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	s.st.Lock()
	defer s.st.Unlock()
	p := s.requests[in.RequestToken]
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
	p.eventTime = s.opts.now()
	p.statusMsg = "Request cancelled"
	return map[string]any{"ProgressEvent": p.event()}, nil
}

// byClientToken returns the request a client token already started.
// Callers hold s.st.
func (s *Server) byClientToken(account, token string) *progress {
	if token == "" {
		return nil
	}
	for _, p := range s.requests {
		if p.account == account && p.clientToken == token {
			return p
		}
	}
	return nil
}

// busy refuses a second request on a resource with one in progress.
// Callers hold s.st.
func (s *Server) busy(account, typ, id string) error {
	for _, p := range s.requests {
		if p.account == account && p.typ == typ && p.id == id && p.status == "IN_PROGRESS" {
			return wire.Errf(400, "ResourceConflictException", "Resource %s of type %s has a request in progress (%s)", id, typ, p.token)
		}
	}
	return nil
}

// maxRequests bounds the Cloud Control requests kept for status reads.
const maxRequests = 10000

// newProgress registers an IN_PROGRESS request that completes after the
// operation delay. Callers hold s.st.
func (s *Server) newProgress(c *wire.Call, typ, id, op, clientToken string) *progress {
	if len(s.requests) >= maxRequests {
		// Forget finished requests, oldest first, as AWS expires them.
		var done []*progress
		for _, p := range s.requests {
			if p.status != "IN_PROGRESS" {
				done = append(done, p)
			}
		}
		sort.Slice(done, func(i, j int) bool { return done[i].eventTime.Before(done[j].eventTime) })
		for _, p := range done[:len(done)/2] {
			delete(s.requests, p.token)
		}
	}
	s.reqSeq++
	p := &progress{
		token: wire.NewRequestID(), clientToken: clientToken, account: c.Account, region: c.Region,
		typ: typ, id: id, op: op, status: "IN_PROGRESS", eventTime: s.opts.now(),
	}
	s.requests[p.token] = p
	p.timer = time.AfterFunc(s.opts.OperationDelay, func() { s.complete(p.token) })
	return p
}

// complete finishes a request: it applies the update or the deletion to the
// world as it is now.
func (s *Server) complete(token string) {
	f := (*schema.Facts)(nil)
	s.st.RLock()
	p := s.requests[token]
	var account, region, typ string
	if p != nil {
		account, region, typ = p.account, p.region, p.typ
	}
	s.st.RUnlock()
	if p == nil {
		return
	}
	if ff, ok := s.facts(account, region, typ); ok {
		f = ff
	}
	s.st.Lock()
	defer s.st.Unlock()
	if p.status != "IN_PROGRESS" {
		return
	}
	p.eventTime = s.opts.now()
	if p.refused != "" {
		p.status, p.errorCode, p.statusMsg = "FAILED", "AccessDenied", p.refused
		return
	}
	res := s.st.Resource(p.account, p.region, p.typ, p.id)
	if res == nil {
		p.status, p.errorCode = "FAILED", "NotFound"
		p.statusMsg = fmt.Sprintf("Resource of type '%s' with identifier '%s' was not found.", p.typ, p.id)
		return
	}
	switch p.op {
	case "DELETE":
		s.st.Remove(p.account, p.region, res)
		p.status = "SUCCESS"
	case "UPDATE":
		out, err := applyPatch(p.typ, res.Properties, p.patch, f, p.eventTime)
		if err != nil {
			p.status, p.errorCode, p.statusMsg = "FAILED", "InvalidRequest", err.Error()
			return
		}
		res.Properties = out
		syncPolicyVersions(res, p.eventTime)
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
