package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
	"github.com/realdrift/realdrift/internal/sandbox/service/elasticloadbalancing"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// adminPrefix is the URL prefix of the admin API.
const adminPrefix = "/_sandbox/"

// ChangeOp is the kind of an out-of-band change.
type ChangeOp string

// Out-of-band change kinds.
const (
	// OpSet sets the value at Path (adding it when absent).
	OpSet ChangeOp = "set"
	// OpRemove removes the value at Path.
	OpRemove ChangeOp = "remove"
	// OpAdd adds a live-only resource (Type, Identifier, Properties).
	OpAdd ChangeOp = "add"
	// OpDelete deletes the resource; its stack still lists it.
	OpDelete ChangeOp = "delete"
)

// Change is an out-of-band change to the world, as a console edit or a
// script would make it.
type Change struct {
	Op ChangeOp `json:"op"`
	// Account is the account changed; when empty, the account AccessKey
	// acts as, else the world's default account.
	Account string `json:"account,omitempty"`
	// AccessKey names the account by a world access key: a change lands
	// where the API calls of that key read (realdrift sandbox passes
	// AWS_ACCESS_KEY_ID).
	AccessKey string `json:"accessKey,omitempty"`
	Region    string `json:"region"`
	Type      string `json:"type"`
	// Identifier is the Cloud Control identifier (default: physical id).
	Identifier string `json:"identifier"`
	// Path is a JSON pointer ("/A/B/0") or a dotted path ("A.B.0").
	Path  string          `json:"path,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// Properties is the live model of a resource OpAdd creates.
	Properties json.RawMessage `json:"properties,omitempty"`

	// Who and how, for the trail event the change records (trail.go):
	// Principal is an IAM user, root or assumed-role session ARN, or a
	// user name in the changed account (default: AccessKey's principal,
	// else the account's root); SourceIdentity the session's source
	// identity; UserAgent ("console.amazonaws.com", "aws-cli/2.15 ...";
	// default "sandbox-admin") and SourceIP (default 127.0.0.1) as
	// CloudTrail records them; EventName and EventSource the API call the
	// change stands for (default Cloud Control's UpdateResource,
	// CreateResource or DeleteResource).
	Principal      string `json:"principal,omitempty"`
	SourceIdentity string `json:"sourceIdentity,omitempty"`
	UserAgent      string `json:"userAgent,omitempty"`
	SourceIP       string `json:"sourceIP,omitempty"`
	EventName      string `json:"eventName,omitempty"`
	EventSource    string `json:"eventSource,omitempty"`
}

// ErrNotFound is returned when a change names a resource the world lacks.
var ErrNotFound = errors.New("resource not found")

// ErrRefused is returned when a change leaves a model the service's own
// API would refuse (checkModel); the error wraps the service's
// invalid-input error too.
var ErrRefused = errors.New("refused as the service's API refuses it")

// Apply applies an out-of-band change.
func (s *Server) Apply(ch Change) error {
	s.st.Lock()
	defer s.st.Unlock()
	if ch.Account == "" && ch.AccessKey != "" {
		p, ok := s.st.Keys[ch.AccessKey]
		if !ok {
			return fmt.Errorf("change: access key %s is not in the world", ch.AccessKey)
		}
		ch.Account = p.Account
	}
	if ch.Account == "" {
		ch.Account = s.st.World.DefaultAccount
	}
	if s.st.Account(ch.Account) == nil {
		return fmt.Errorf("change: account %s is not in the world", ch.Account)
	}
	if ch.Type == "" || ch.Identifier == "" {
		return fmt.Errorf("change: type and identifier are required")
	}
	if _, _, err := s.changePrincipal(ch); err != nil {
		return err
	}
	if ch.Op == OpAdd {
		res := &world.Resource{Type: ch.Type, Identifier: ch.Identifier, PhysicalID: ch.Identifier, Properties: ch.Properties}
		if len(res.Properties) == 0 {
			res.Properties = json.RawMessage(`{}`)
		}
		if err := s.checkModel(ch.Type, res.Properties); err != nil {
			return fmt.Errorf("change: %w", err)
		}
		if err := s.st.AddLive(ch.Account, ch.Region, res); err != nil {
			return fmt.Errorf("change: %w", err)
		}
		return s.recordChange(ch, res)
	}
	res := s.st.Resource(ch.Account, ch.Region, ch.Type, ch.Identifier)
	if res == nil {
		return fmt.Errorf("change: %s %q in %s/%s: %w", ch.Type, ch.Identifier, ch.Account, ch.Region, ErrNotFound)
	}
	switch ch.Op {
	case OpDelete:
		s.st.Remove(ch.Account, ch.Region, res)
		return s.recordChange(ch, res)
	case OpSet, OpRemove:
	default:
		return fmt.Errorf("change: op %q is not one of set, remove, add, delete", ch.Op)
	}
	ptr := world.ToPointer(ch.Path)
	if ptr == "" {
		return fmt.Errorf("change: %s needs a path", ch.Op)
	}
	var out []byte
	var err error
	if ch.Op == OpRemove {
		out, err = world.PatchOne(res.Properties, "remove", ptr, nil)
	} else {
		if len(ch.Value) == 0 || !json.Valid(ch.Value) {
			return fmt.Errorf("change: set needs a JSON value")
		}
		out, err = world.PatchOne(res.Properties, "replace", ptr, ch.Value)
		if err != nil {
			out, err = world.PatchOne(res.Properties, "add", ptr, ch.Value)
		}
	}
	if err != nil {
		return fmt.Errorf("change: %s %s: %w", ch.Op, ch.Path, err)
	}
	m, err := world.Compact(out)
	if err != nil {
		return fmt.Errorf("change: %w", err)
	}
	if err := s.checkModel(res.Type, m); err != nil {
		return fmt.Errorf("change: %s %s: %w", ch.Op, ch.Path, err)
	}
	res.Properties = m
	world.SyncPolicyVersions(res, s.opts.now())
	return s.recordChange(ch, res)
}

// recordChange records the trail event of an applied change. The caller
// holds the write lock.
func (s *Server) recordChange(ch Change, res *world.Resource) error {
	ev, err := s.changeEvent(ch, res)
	if err != nil {
		return err
	}
	s.st.Trail.Record(ev)
	return nil
}

// checkModel checks a live model of typ an out-of-band change leaves
// against the input constraints AWS's model states for each write that
// carries it (wire.Service.Models, awsmodel.Table.CheckModel): the admin
// API refuses what the service's own API would refuse, with that
// service's invalid-input error naming the write, the property and the
// constraint.
func (s *Server) checkModel(typ string, props json.RawMessage) error {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(props))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return fmt.Errorf("%s properties are not a JSON object: %w", typ, err)
	}
	for _, name := range world.SortedKeys(s.services) {
		svc := s.services[name]
		for _, in := range svc.Models[typ] {
			op := svc.Name + ":" + in.Op
			var errs []string
			switch v, ok := m[in.At]; {
			case in.Entries != nil:
				entries := map[string]any{}
				for k, x := range m {
					name, renamed := in.Entries[k]
					if !renamed {
						name = k
					}
					if name != "" {
						entries[name] = x
					}
				}
				errs = s.inputs.CheckModel(op, in.Shape, in.At, entries)
			case in.At == "":
				errs = s.inputs.CheckModel(op, in.Shape, "", m)
			case !ok:
			default:
				list, isList := v.([]any)
				if !isList {
					errs = s.inputs.CheckModel(op, in.Shape, in.At, v)
				}
				for i, x := range list {
					errs = append(errs, s.inputs.CheckModel(op, in.Shape, in.At+"."+strconv.Itoa(i+1), x)...)
				}
			}
			if len(errs) > 0 {
				e := svc.InvalidError()
				e.Message = fmt.Sprintf("%s %s would refuse it: %s", svc.Name, in.Op, awsmodel.Message(errs))
				return fmt.Errorf("%w: %w", ErrRefused, &e)
			}
		}
		if doc, ok := m[svc.ResourcePolicies[typ]]; ok {
			b, err := json.Marshal(doc)
			if err == nil {
				_, err = world.CompileResourcePolicy(b)
			}
			if err != nil {
				e := svc.InvalidError()
				e.Message = "Invalid parameter: Policy Error: " + err.Error()
				return fmt.Errorf("%w: %w", ErrRefused, &e)
			}
		}
	}
	return nil
}

// Live returns a copy of a resource's live model (nil, false when the
// resource does not exist or is deleted).
func (s *Server) Live(account, region, typ, identifier string) (json.RawMessage, bool) {
	s.st.RLock()
	defer s.st.RUnlock()
	if account == "" {
		account = s.st.World.DefaultAccount
	}
	res := s.st.Resource(account, region, typ, identifier)
	if res == nil {
		return nil, false
	}
	return append(json.RawMessage(nil), res.Properties...), true
}

// Snapshot returns the world as it is now (a world file).
func (s *Server) Snapshot() ([]byte, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	return s.st.World.Marshal()
}

// Restore replaces the world with a snapshot. Issued session keys stay
// valid; pending Cloud Control requests are dropped.
func (s *Server) Restore(snapshot []byte) error {
	w, err := world.ParseWorld(snapshot)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	s.st.Lock()
	defer s.st.Unlock()
	s.requests.Reset()
	s.st.Reset(w)
	s.stale.mu.Lock()
	clear(s.stale.views) // reads see the restored world at once
	s.stale.mu.Unlock()
	return nil
}

// AdminRoute is one route of the admin API: what `sandbox serve` prints
// and GET /_sandbox/ answers.
type AdminRoute struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	About  string `json:"about"`
}

// AdminRoutes lists the admin API serveAdmin serves, in the order it is
// documented.
func AdminRoutes() []AdminRoute {
	return []AdminRoute{
		{"GET", adminPrefix, "this list"},
		{"POST", adminPrefix + "change", "apply an out-of-band change (body: a Change)"},
		{"GET", adminPrefix + "live?account=&region=&type=&identifier=", "read a live model"},
		{"GET", adminPrefix + "snapshot", "the world as JSON"},
		{"POST", adminPrefix + "restore", "replace the world (body: world JSON)"},
		{"POST", adminPrefix + "latency", `delay every API reply (body: {"millis": N})`},
		{"POST", adminPrefix + "throttle", "replace the throttle rules (body: [ThrottleRule])"},
		{"POST", adminPrefix + "faults", "replace the fault rules (body: [FaultRule])"},
		{"GET", adminPrefix + "calls", "the calls answered (attempts, requests, retries)"},
		{"DELETE", adminPrefix + "calls", "reset the call log"},
		{"GET", adminPrefix + "events?after=N", `the trail's "AWS API Call via CloudTrail" events ({"events": [...], "last": N})`},
		{"GET", elasticloadbalancing.BundlePath + "?...", "a trust store's CA bundle"},
	}
}

// serveAdmin serves the admin API (AdminRoutes).
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	route := strings.TrimPrefix(r.URL.Path, adminPrefix)
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<30))
	if err != nil {
		adminError(w, 400, err)
		return
	}
	key := r.Method + " " + route
	if r.URL.Path == elasticloadbalancing.BundlePath && r.Method == http.MethodGet {
		s.serveTrustStoreBundle(w, r)
		return
	}
	switch key {
	case "GET ":
		adminJSON(w, AdminRoutes())
	case "POST change":
		var ch Change
		if err := json.Unmarshal(body, &ch); err != nil {
			adminError(w, 400, fmt.Errorf("change: %w", err))
			return
		}
		if err := s.Apply(ch); err != nil {
			status := 400
			if errors.Is(err, ErrNotFound) {
				status = 404
			}
			adminError(w, status, err)
			return
		}
		adminJSON(w, map[string]string{"status": "ok"})
	case "GET live":
		q := r.URL.Query()
		m, ok := s.Live(q.Get("account"), q.Get("region"), q.Get("type"), q.Get("identifier"))
		if !ok {
			adminError(w, 404, ErrNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(m)
	case "GET snapshot":
		b, err := s.Snapshot()
		if err != nil {
			adminError(w, 500, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	case "POST restore":
		if err := s.Restore(body); err != nil {
			adminError(w, 400, err)
			return
		}
		adminJSON(w, map[string]string{"status": "ok"})
	case "POST latency":
		var in struct {
			Millis int64 `json:"millis"`
		}
		if err := json.Unmarshal(body, &in); err != nil || in.Millis < 0 {
			adminError(w, 400, fmt.Errorf("latency: want {\"millis\": N >= 0}"))
			return
		}
		s.SetLatency(time.Duration(in.Millis) * time.Millisecond)
		adminJSON(w, map[string]string{"status": "ok"})
	case "POST throttle":
		var rules []ThrottleRule
		if err := json.Unmarshal(body, &rules); err != nil {
			adminError(w, 400, fmt.Errorf("throttle: %w", err))
			return
		}
		if err := s.SetThrottle(rules); err != nil {
			adminError(w, 400, err)
			return
		}
		adminJSON(w, map[string]string{"status": "ok"})
	case "POST faults":
		var rules []FaultRule
		if err := json.Unmarshal(body, &rules); err != nil {
			adminError(w, 400, fmt.Errorf("faults: %w", err))
			return
		}
		if err := s.SetFaults(rules); err != nil {
			adminError(w, 400, err)
			return
		}
		adminJSON(w, map[string]string{"status": "ok"})
	case "GET events":
		after := 0
		if a := r.URL.Query().Get("after"); a != "" {
			if _, err := fmt.Sscan(a, &after); err != nil {
				adminError(w, 400, fmt.Errorf("events: after=%q is not a number", a))
				return
			}
		}
		evs, last := s.BusEvents(after)
		adminJSON(w, map[string]any{"events": evs, "last": last})
	case "GET calls":
		adminJSON(w, s.Calls())
	case "DELETE calls":
		s.ResetCalls()
		adminJSON(w, map[string]string{"status": "ok"})
	default:
		adminError(w, 404, fmt.Errorf("no admin route %s %s", r.Method, r.URL.Path))
	}
}

func adminJSON(w http.ResponseWriter, v any) {
	b, err := world.MarshalNoEscape(v)
	if err != nil {
		adminError(w, 500, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func adminError(w http.ResponseWriter, status int, err error) {
	b, _ := world.MarshalNoEscape(map[string]string{"error": err.Error()})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
