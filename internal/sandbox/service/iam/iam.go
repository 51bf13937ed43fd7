package iam

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// principalKind describes one IAM identity kind that holds inline policies.
type principalKind struct {
	typ        string // AWS::IAM::Role
	nameProp   string // RoleName
	policyType string // AWS::IAM::RolePolicy
	listProp   string // Roles (on AWS::IAM::Policy)
	noun       string // role
	// declared says the identity must be in the world for its inline
	// policies to be written: a role must; a user or group may be named
	// by the policy resources alone.
	declared bool
}

var (
	roleKind  = principalKind{"AWS::IAM::Role", "RoleName", "AWS::IAM::RolePolicy", "Roles", "role", true}
	userKind  = principalKind{"AWS::IAM::User", "UserName", "AWS::IAM::UserPolicy", "Users", "user", false}
	groupKind = principalKind{"AWS::IAM::Group", "GroupName", "AWS::IAM::GroupPolicy", "Groups", "group", false}
)

func noEntity(format string, args ...any) error {
	return wire.Errf(404, "NoSuchEntity", format, args...)
}

// identity finds a role, user or group by name.
func identity(st *world.State, c *wire.Call, k principalKind, name string) *world.Resource {
	if res := st.Resource(c.Account, "", k.typ, name); res != nil {
		return res
	}
	for _, r := range st.OfType(c.Account, "", k.typ) {
		if world.FieldString(r, k.nameProp) == name {
			return r
		}
	}
	return nil
}

// inlinePolicies returns an identity's inline policies by name, with the
// resources holding each: the identity's own Policies list, AWS::IAM::Policy
// resources naming it, and the per-kind inline-policy resources.
type inlineRef struct {
	doc     json.RawMessage
	holders []*world.Resource
}

func inlinePolicies(st *world.State, c *wire.Call, k principalKind, name string, ident *world.Resource) (map[string]*inlineRef, []string) {
	out := map[string]*inlineRef{}
	var order []string
	add := func(pname string, doc json.RawMessage, holder *world.Resource) {
		ref := out[pname]
		if ref == nil {
			ref = &inlineRef{doc: doc}
			out[pname] = ref
			order = append(order, pname)
		}
		ref.holders = append(ref.holders, holder)
	}
	if ident != nil {
		for _, p := range inlineEntries(ident) {
			if pn := entryName(p); pn != "" {
				add(pn, p["PolicyDocument"], ident)
			}
		}
	}
	for _, p := range st.OfType(c.Account, "", "AWS::IAM::Policy") {
		if world.Contains(world.FieldStrings(p, k.listProp), name) {
			add(world.FieldString(p, "PolicyName"), world.Field(p, "PolicyDocument"), p)
		}
	}
	for _, p := range st.OfType(c.Account, "", k.policyType) {
		if world.FieldString(p, k.nameProp) == name {
			add(world.FieldString(p, "PolicyName"), world.Field(p, "PolicyDocument"), p)
		}
	}
	return out, order
}

// encodePolicy is how IAM returns a policy document: URL-encoded JSON.
func encodePolicy(doc json.RawMessage) string {
	return strings.ReplaceAll(url.QueryEscape(world.CompactJSON(doc)), "+", "%20")
}

// decodePolicy reads a policy document parameter (JSON, possibly
// URL-encoded).
func decodePolicy(text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		if dec, err := url.QueryUnescape(t); err == nil {
			t = dec
		}
	}
	if !json.Valid([]byte(t)) {
		return nil, wire.Errf(400, "MalformedPolicyDocument", "Syntax errors in policy.")
	}
	return json.RawMessage(world.CompactJSON([]byte(t))), nil
}

func iamListRolePolicies(st *world.State, c *wire.Call) (any, error) {
	name := c.Str("RoleName")
	st.RLock()
	defer st.RUnlock()
	_, _, order, err := roleInline(st, c, name)
	if err != nil {
		return nil, err
	}
	var items []*wire.Node
	for _, n := range order {
		items = append(items, wire.Tx("", n))
	}
	return wire.El("", wire.Members("PolicyNames", items), wire.Bool("IsTruncated", false)), nil
}

// iamInlineOps are the inline-policy handlers Service registers:
// Get, Put and Delete<Kind>Policy for each identity kind, the identity
// named by the kind's name parameter (RoleName, UserName, GroupName).
func iamInlineOps() map[string]wire.Handler {
	out := map[string]wire.Handler{}
	for _, k := range []principalKind{roleKind, userKind, groupKind} {
		noun := strings.ToUpper(k.noun[:1]) + k.noun[1:]
		out["Get"+noun+"Policy"] = func(st *world.State, c *wire.Call) (any, error) { return getInline(st, c, k, k.nameProp) }
		out["Put"+noun+"Policy"] = func(st *world.State, c *wire.Call) (any, error) { return putInline(st, c, k, k.nameProp) }
		out["Delete"+noun+"Policy"] = func(st *world.State, c *wire.Call) (any, error) { return deleteInline(st, c, k, k.nameProp) }
	}
	return out
}

func getInline(st *world.State, c *wire.Call, k principalKind, nameParam string) (any, error) {
	name, pname := c.Str(nameParam), c.Str("PolicyName")
	st.RLock()
	defer st.RUnlock()
	ident := identity(st, c, k, name)
	pols, _ := inlinePolicies(st, c, k, name, ident)
	ref := pols[pname]
	if ref == nil || ref.doc == nil {
		if ident == nil {
			return nil, noIdentity(k, name)
		}
		return nil, noEntity("The %s policy with name %s cannot be found.", k.noun, pname)
	}
	return wire.El("", wire.Tx(nameParam, name), wire.Tx("PolicyName", pname), wire.Tx("PolicyDocument", encodePolicy(ref.doc))), nil
}

// inlineEntries is an identity's own Policies list ({PolicyName,
// PolicyDocument} entries); nil when it has none or it does not parse.
func inlineEntries(ident *world.Resource) []map[string]json.RawMessage {
	var list []map[string]json.RawMessage
	if b := world.Field(ident, "Policies"); b != nil && json.Unmarshal(b, &list) == nil {
		return list
	}
	return nil
}

// entryName is an inline policy entry's PolicyName ("" when absent).
func entryName(p map[string]json.RawMessage) string {
	var pn string
	_ = json.Unmarshal(p["PolicyName"], &pn)
	return pn
}

func noIdentity(k principalKind, name string) error {
	return noEntity("The %s with name %s cannot be found.", k.noun, name)
}

// mustIdentity is the role, user or group named name, or NoSuchEntity.
// The caller holds the lock.
func mustIdentity(st *world.State, c *wire.Call, k principalKind, name string) (*world.Resource, error) {
	if ident := identity(st, c, k, name); ident != nil {
		return ident, nil
	}
	return nil, noIdentity(k, name)
}

// roleInline is the role named name with its inline policies (by name
// and in order), or NoSuchEntity. The caller holds the lock.
func roleInline(st *world.State, c *wire.Call, name string) (*world.Resource, map[string]*inlineRef, []string, error) {
	role, err := mustIdentity(st, c, roleKind, name)
	if err != nil {
		return nil, nil, nil, err
	}
	pols, order := inlinePolicies(st, c, roleKind, name, role)
	return role, pols, order, nil
}

// orderedPolicies writes inline policy entries as {PolicyName, PolicyDocument}.
func orderedPolicies(list []map[string]json.RawMessage) json.RawMessage {
	var b strings.Builder
	b.WriteByte('[')
	for i, p := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"PolicyName":%s,"PolicyDocument":%s}`, p["PolicyName"], p["PolicyDocument"])
	}
	b.WriteByte(']')
	return json.RawMessage(b.String())
}

// managedPolicy finds an AWS::IAM::ManagedPolicy by ARN.
func managedPolicy(st *world.State, c *wire.Call, arn string) (*world.Resource, error) {
	if p := st.Resource(c.Account, "", "AWS::IAM::ManagedPolicy", arn); p != nil {
		return p, nil
	}
	for _, p := range st.OfType(c.Account, "", "AWS::IAM::ManagedPolicy") {
		if world.FieldString(p, "PolicyArn") == arn {
			return p, nil
		}
	}
	return nil, noEntity("Policy %s does not exist or is not attachable.", arn)
}

// readPolicy answers read(p, arn) for the managed policy named by
// PolicyArn, under the read lock; NoSuchEntity when there is none.
func readPolicy(st *world.State, c *wire.Call, read func(p *world.Resource, arn string) (any, error)) (any, error) {
	arn := c.Str("PolicyArn")
	st.RLock()
	defer st.RUnlock()
	p, err := managedPolicy(st, c, arn)
	if err != nil {
		return nil, err
	}
	return read(p, arn)
}

func iamGetPolicy(st *world.State, c *wire.Call) (any, error) {
	return readPolicy(st, c, func(p *world.Resource, arn string) (any, error) {
		def := ""
		for _, v := range world.PolicyVersionsOf(p) {
			if v.Default {
				def = v.VersionID
			}
		}
		name := world.FieldString(p, "ManagedPolicyName")
		if name == "" {
			name = world.ARNTail(arn, "/")
		}
		path := world.FieldString(p, "Path")
		if path == "" {
			path = "/"
		}
		attached := len(policyEntities(st, c, p, arn))
		return wire.El("", wire.El("Policy",
			wire.Tx("PolicyName", name), wire.Tx("PolicyId", "ANPA"+world.ShortHash(arn, 17)), wire.Tx("Arn", arn), wire.Tx("Path", path),
			wire.Tx("DefaultVersionId", def), wire.Tx("AttachmentCount", strconv.Itoa(attached)),
			wire.Tx("PermissionsBoundaryUsageCount", "0"), wire.Bool("IsAttachable", true),
			wire.Opt("Description", world.FieldString(p, "Description")),
			wire.Time("CreateDate", world.DefaultTime), wire.Time("UpdateDate", world.DefaultTime),
		)), nil
	})
}

func versionNode(v world.PolicyVersion, withDoc bool) *wire.Node {
	n := wire.El("", wire.Tx("VersionId", v.VersionID), wire.Bool("IsDefaultVersion", v.Default), wire.Time("CreateDate", v.Created))
	if withDoc {
		n.Kids = append(n.Kids, wire.Tx("Document", encodePolicy(v.Document)))
	}
	return n
}

func iamGetPolicyVersion(st *world.State, c *wire.Call) (any, error) {
	id := c.Str("VersionId")
	return readPolicy(st, c, func(p *world.Resource, arn string) (any, error) {
		for _, v := range world.PolicyVersionsOf(p) {
			if v.VersionID == id {
				n := versionNode(v, true)
				n.Name = "PolicyVersion"
				return wire.El("", n), nil
			}
		}
		return nil, noEntity("Policy %s version %s does not exist or is not attachable.", arn, id)
	})
}

func iamListPolicyVersions(st *world.State, c *wire.Call) (any, error) {
	return readPolicy(st, c, func(p *world.Resource, arn string) (any, error) {
		vs := world.PolicyVersionsOf(p)
		var items []*wire.Node
		for i := len(vs) - 1; i >= 0; i-- {
			items = append(items, versionNode(vs[i], true))
		}
		return wire.El("", wire.Members("Versions", items), wire.Bool("IsTruncated", false)), nil
	})
}

func iamCreatePolicyVersion(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("PolicyArn")
	doc, err := decodePolicy(c.Str("PolicyDocument"))
	if err != nil {
		return nil, err
	}
	setDefault := c.Str("SetAsDefault") == "true"
	st.Lock()
	defer st.Unlock()
	p, err := managedPolicy(st, c, arn)
	if err != nil {
		return nil, err
	}
	vs := world.PolicyVersionsOf(p)
	if len(vs) >= 5 {
		return nil, wire.Errf(409, "LimitExceeded", "A managed policy can have up to 5 versions. Before you create a new version, you must delete an existing version.")
	}
	vs = append([]world.PolicyVersion(nil), vs...)
	v := world.PolicyVersion{VersionID: world.NextPolicyVersion(vs), Document: doc, Default: setDefault, Created: c.Now()}
	if setDefault {
		for i := range vs {
			vs[i].Default = false
		}
		if err := world.SetField(p, "PolicyDocument", doc); err != nil {
			return nil, err
		}
	}
	p.PolicyVersions = append(vs, v)
	n := versionNode(v, false)
	n.Name = "PolicyVersion"
	return wire.El("", n), nil
}

// policyEntities returns the roles, users and groups a managed policy is
// attached to: its own Roles/Users/Groups and identities listing its ARN in
// ManagedPolicyArns.
func policyEntities(st *world.State, c *wire.Call, p *world.Resource, arn string) []entity {
	var out []entity
	seen := map[string]bool{}
	for _, k := range []principalKind{roleKind, userKind, groupKind} {
		names := world.FieldStrings(p, k.listProp)
		for _, id := range st.OfType(c.Account, "", k.typ) {
			if world.Contains(world.FieldStrings(id, "ManagedPolicyArns"), arn) {
				names = append(names, world.FieldString(id, k.nameProp))
			}
		}
		for _, n := range names {
			if n == "" || seen[k.noun+"/"+n] {
				continue
			}
			seen[k.noun+"/"+n] = true
			idProp := map[string]string{"role": "RoleId", "user": "UserId", "group": "GroupId"}[k.noun]
			e := entity{kind: k, name: n}
			if ident := identity(st, c, k, n); ident != nil {
				e.id = world.FieldString(ident, idProp)
			}
			out = append(out, e)
		}
	}
	return out
}

type entity struct {
	kind     principalKind
	name, id string
}

func iamListEntitiesForPolicy(st *world.State, c *wire.Call) (any, error) {
	return readPolicy(st, c, func(p *world.Resource, arn string) (any, error) {
		var roles, users, groups []*wire.Node
		for _, e := range policyEntities(st, c, p, arn) {
			switch e.kind.noun {
			case "role":
				roles = append(roles, wire.El("", wire.Tx("RoleName", e.name), wire.Opt("RoleId", e.id)))
			case "user":
				users = append(users, wire.El("", wire.Tx("UserName", e.name), wire.Opt("UserId", e.id)))
			default:
				groups = append(groups, wire.El("", wire.Tx("GroupName", e.name), wire.Opt("GroupId", e.id)))
			}
		}
		return wire.El("", wire.Members("PolicyGroups", groups), wire.Members("PolicyUsers", users), wire.Members("PolicyRoles", roles), wire.Bool("IsTruncated", false)), nil
	})
}
