package worldgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
)

// CorpusAccount is the account corpus cases were recorded in (sanitised).
const CorpusAccount = "111111111111"

// CaseMetadata is the template metadata key naming the corpus case a stack
// resource reproduces.
const CaseMetadata = "realdrift:corpus-case"

// unresolvable is the template value standing for a declared value the
// corpus recorded as unresolved: Fn::GetAZs depends on the environment, so
// a fail-closed resolver leaves it unresolved.
var unresolvable = map[string]any{"Fn::GetAZs": ""}

// The corpus and demo worlds list live.CloudControlGaps as Cloud Control
// gaps, so those types fail there the way they fail on AWS.

// AccessKey is the access key id the corpus world maps to account.
func AccessKey(account string) string { return "AKIACORPUS" + account }

// overflowAccount is the n-th account of the corpus world: 111111111111,
// then 111111111112, ...
func overflowAccount(n int) string {
	return fmt.Sprintf("1111111%05d", 11111+n)
}

// Placement says where FromCorpus put a case.
type Placement struct {
	Account, Region, Stack, LogicalID string
}

// FromCorpus builds a world reproducing golden-corpus cases, grouped into
// their original stacks (see the package doc for the layout).
func FromCorpus(cases []*corpus.Case) (*sandbox.World, error) {
	b := &builder{
		w: &sandbox.World{
			DefaultAccount: CorpusAccount,
			CCGaps:         live.CloudControlGaps(),
			Schemas:        map[string]*schema.Facts{},
		},
		worldFacts: map[string]string{},
		names:      map[string]bool{},
	}
	// Each type's world facts: its richest recorded version (the most facts
	// named; the first such case's on a tie), the registry's newest as far
	// as the corpus tells.
	named := map[string]int{}
	for _, c := range cases {
		typ, n := c.Resource.ResourceType, factCount(c.Schema)
		if _, ok := b.worldFacts[typ]; !ok || n > named[typ] {
			b.worldFacts[typ], named[typ] = canonical(c.Schema), n
			facts := c.Schema
			b.w.Schemas[typ] = &facts
		}
	}
	for _, c := range cases {
		if err := b.add(c); err != nil {
			return nil, err
		}
	}
	return b.finish()
}

// builder accumulates the corpus world.
type builder struct {
	w *sandbox.World
	// accounts in creation order.
	accounts []*accountBuild
	// worldFacts is the canonical JSON of each type's world-level facts
	// (its first case's).
	worldFacts map[string]string
	// names are the stack names taken by per-case fallback stacks.
	names map[string]bool
}

type accountBuild struct {
	id string
	// used holds the Cloud Control addresses (scope|type|identifier) taken.
	used    map[string]bool
	regions []*regionBuild
}

type regionBuild struct {
	name string
	// facts is the canonical JSON of the facts DescribeType answers here
	// per type where they are not the world's, set by the first case of the
	// type placed here when it needs its own.
	facts   map[string]string
	factsOf map[string]schema.Facts
	// placed holds the types with a case here.
	placed map[string]bool
	// aliases is the canonical JSON of the KMS alias map (the union of the
	// agreeing maps of the cases placed here that depend on one, see
	// aliasesAgree), "" while no case placed here depends on one.
	aliases  string
	aliasMap map[string]string
	// defaultGroups are the security groups the cases placed here hold as
	// their one undeclared group: the recorded account's default groups,
	// which the region then answers as its own (the classifier asks for
	// them; without them it judges the group by shape, as replay does).
	defaultGroups map[string]bool
	stacks        []*stackBuild
	stackNamed    map[string]*stackBuild
}

type stackBuild struct {
	name string
	tags string // canonical JSON of the stack tags
	// tagMap is the stack tags.
	tagMap    map[string]string
	resources map[string]any // template resources by logical id
	live      []*sandbox.Resource
	cases     []*corpus.Case
	// outside are resources a case's recorded facts stand for that are
	// no resource of the stack (an instance's cluster): they live in the
	// account region, not in the stack, so the world holds only what the
	// cases recorded.
	outside []*sandbox.Resource
}

// want is what a case needs of the place it goes to.
type want struct {
	region, stack, tags, addr, typ, facts, aliases string
	tagMap, aliasMap                               map[string]string
}

func (b *builder) add(c *corpus.Case) error {
	r := c.Resource
	if r.PhysicalID == "" {
		return fmt.Errorf("case %s: no physical id", c.File)
	}
	wt := want{region: "us-east-1", typ: r.ResourceType}
	if reg, _ := c.Opts["region"].(string); reg != "" {
		wt.region = reg
	}
	scope := wt.region
	if isGlobal(r.ResourceType) {
		scope = "global"
	}
	base := ccIdentifier(c, wt.region)
	wt.tagMap = stringMap(c.Opts["stackTags"])
	wt.tags = canonical(wt.tagMap)
	if aliases := stringMap(c.Opts["kmsAliasTargets"]); scan.UsesManagedAlias(r.Declared) || (len(aliases) > 0 && scan.HoldsUndeclaredKMSKey(r.Declared, c.LiveRaw)) {
		wt.aliasMap = aliases
		wt.aliases = canonical(wt.aliasMap)
	}
	wt.facts = canonical(c.Schema)
	wt.stack = originalStack(r.ConstructPath)
	if wt.stack == "" {
		wt.stack = fallbackStackName(c.File, b.names)
	}

	for n := 0; ; n++ {
		if n == len(b.accounts) {
			b.accounts = append(b.accounts, &accountBuild{id: overflowAccount(n), used: map[string]bool{}})
		}
		a := b.accounts[n]
		id := base
		if base != r.PhysicalID {
			id = inAccount(base, a.id)
		}
		wt.addr = scope + "|" + r.ResourceType + "|" + id
		if a.used[wt.addr] {
			continue
		}
		reg := a.region(wt.region)
		override := false
		if !b.factsFit(c, reg, wt) {
			if reg.placed[wt.typ] {
				continue
			}
			override = true // the first case of the type here: the region serves its facts
		}
		if wt.aliases != "" && reg.aliases != "" && !aliasesAgree(reg.aliasMap, wt.aliasMap) {
			continue
		}
		st := reg.stackNamed[wt.stack]
		if st != nil && (st.tags != wt.tags || st.resources[r.LogicalID] != nil) {
			continue
		}
		a.used[wt.addr] = true
		reg.placed[wt.typ] = true
		if override {
			reg.facts[wt.typ] = wt.facts
			reg.factsOf[wt.typ] = c.Schema
		}
		if wt.aliases != "" {
			reg.aliasMap = unionAliases(reg.aliasMap, wt.aliasMap)
			reg.aliases = canonical(reg.aliasMap)
		}
		if st == nil {
			st = &stackBuild{name: wt.stack, tags: wt.tags, tagMap: wt.tagMap, resources: map[string]any{}}
			reg.stacks = append(reg.stacks, st)
			reg.stackNamed[wt.stack] = st
		}
		st.addCase(c, id)
		for k, v := range c.LiveRaw {
			if _, declared := r.Declared[k]; !declared && classify.DefaultSecurityGroupCandidate(k, v) {
				if reg.defaultGroups == nil {
					reg.defaultGroups = map[string]bool{}
				}
				reg.defaultGroups[v.([]any)[0].(string)] = true
			}
		}
		return nil
	}
}

// aliasesAgree reports whether a case's recorded KMS aliases fit a
// region's: an account's managed aliases only grow (AWS creates one the
// first time a service uses its managed key), so two recordings of one
// account agree when every alias they share targets the same key. An
// empty recording (no aliases asked) fits only a region that serves none.
func aliasesAgree(region, c map[string]string) bool {
	if (len(region) == 0) != (len(c) == 0) {
		return false
	}
	for a, k := range c {
		if rk, ok := region[a]; ok && rk != k {
			return false
		}
	}
	return true
}

// unionAliases is the region's aliases with a fitting case's added.
func unionAliases(region, c map[string]string) map[string]string {
	out := make(map[string]string, len(region)+len(c))
	for a, k := range region {
		out[a] = k
	}
	for a, k := range c {
		out[a] = k
	}
	return out
}

// ccIdentifier is the identifier AWS Cloud Control knows the case's
// resource by: for a type whose pinned schema names a compound
// primaryIdentifier, or whose identifier is not its physical id (a type
// with an identifier adapter), the primaryIdentifier values of the
// recorded live model joined with "|" in schema order; else (or when the
// model lacks a part) what live derives, else the physical id.
func ccIdentifier(c *corpus.Case, region string) string {
	r := c.Resource
	if f, ok := pinnedFacts(r.ResourceType); ok && (len(f.PrimaryIdentifier) > 1 || live.HasIdentifierAdapter(r.ResourceType)) {
		parts := make([]string, 0, len(f.PrimaryIdentifier))
		for _, p := range f.PrimaryIdentifier {
			switch v := c.LiveRaw[p].(type) {
			case string:
				parts = append(parts, v)
			case float64:
				parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
		if len(parts) == len(f.PrimaryIdentifier) {
			return strings.Join(parts, "|")
		}
	}
	id, err := live.IdentifierIn(live.Scope{Partition: "aws", Region: region, Account: CorpusAccount}, r.ResourceType, r.PhysicalID, r.Declared)
	if err != nil || id == "" {
		return r.PhysicalID
	}
	return id
}

// inAccount moves a derived ARN identifier of the corpus account to
// account (the physical id, an ARN too, stays as recorded).
func inAccount(id, account string) string {
	if account == CorpusAccount {
		return id
	}
	return strings.ReplaceAll(id, ":"+CorpusAccount+":", ":"+account+":")
}

// pinnedFacts are the pinned registry schema's facts of a type.
func pinnedFacts(typ string) (*schema.Facts, bool) {
	snap, err := schema.Embedded()
	if err != nil {
		return nil, false
	}
	return snap.Lookup(typ)
}

// factsFit reports whether the facts the region serves for the case's type
// (its own, else the world's) classify the case as its recorded facts do:
// the same facts, or facts that differ only where the case does not care.
func (b *builder) factsFit(c *corpus.Case, reg *regionBuild, wt want) bool {
	served, ok := reg.facts[wt.typ]
	var f schema.Facts
	if ok {
		f = reg.factsOf[wt.typ]
	} else {
		served, f = b.worldFacts[wt.typ], *b.w.Schemas[wt.typ]
	}
	if served == wt.facts {
		return true
	}
	own := c.Schema
	return sameFindings(classifyWith(c, &own), classifyWith(c, &f))
}

// classifyWith replays a case with the given schema facts.
func classifyWith(c *corpus.Case, f *schema.Facts) []drift.Finding {
	r := c.Resource
	subj := classify.Subject{
		Ref:      drift.ResourceRef{LogicalID: r.LogicalID, Type: r.ResourceType, PhysicalID: r.PhysicalID, ConstructPath: r.ConstructPath},
		Declared: r.Declared, SiblingPolicyNames: r.SiblingPolicyNames,
	}
	return classify.Resource(subj, c.LiveRaw, f.Clone(), classify.OptionsFromMap(c.Opts))
}

func sameFindings(a, b []drift.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	canon := func(fs []drift.Finding) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = corpus.Canonical(f)
		}
		sort.Strings(out)
		return out
	}
	ca, cb := canon(a), canon(b)
	for i := range ca {
		if ca[i] != cb[i] {
			return false
		}
	}
	return true
}

// factCount is how many facts a schema names: entries of every list and map.
func factCount(f schema.Facts) int {
	n := len(f.ReadOnly) + len(f.WriteOnly) + len(f.CreateOnly) + len(f.ReadOnlyPaths) + len(f.WriteOnlyPaths) +
		len(f.CreateOnlyPaths) + len(f.Defaults) + len(f.DefaultPaths) + len(f.UnorderedScalarPaths) +
		len(f.UnorderedObjectArrayPaths) + len(f.FreeFormMapPaths) + len(f.PrimaryIdentifier) +
		len(f.AdditionalIdentifiers) + len(f.ConditionalCreateOnlyPaths) + len(f.PropertyTransforms) + len(f.Handlers)
	return n
}

func (a *accountBuild) region(name string) *regionBuild {
	for _, r := range a.regions {
		if r.name == name {
			return r
		}
	}
	r := &regionBuild{name: name, facts: map[string]string{}, factsOf: map[string]schema.Facts{}, placed: map[string]bool{}, stackNamed: map[string]*stackBuild{}}
	a.regions = append(a.regions, r)
	return r
}

// addCase puts the case's resource in the stack's template and live set.
func (st *stackBuild) addCase(c *corpus.Case, id string) {
	r := c.Resource
	meta := map[string]any{CaseMetadata: c.File}
	if r.ConstructPath != "" {
		meta["aws:cdk:path"] = r.ConstructPath
	}
	st.resources[r.LogicalID] = map[string]any{
		"Type":       r.ResourceType,
		"Properties": encodeDeclared(r.Declared),
		"Metadata":   meta,
	}
	res := &sandbox.Resource{
		LogicalID: r.LogicalID, Type: r.ResourceType, PhysicalID: r.PhysicalID,
		Properties: append(json.RawMessage(nil), c.RawLive...),
	}
	if id != r.PhysicalID {
		res.Identifier = id
	}
	st.live = append(st.live, res)
	st.cases = append(st.cases, c)
}

// finish adds the role cases' sibling policies and writes the world.
func (b *builder) finish() (*sandbox.World, error) {
	for _, a := range b.accounts {
		acct := &sandbox.Account{ID: a.id, Name: "corpus", AccessKeys: []sandbox.AccessKey{{ID: AccessKey(a.id), UserName: "corpus"}}}
		if a.id != CorpusAccount {
			acct.Name = "corpus-overflow"
		}
		for _, rb := range a.regions {
			reg := &sandbox.Region{Name: rb.name}
			for typ := range rb.facts {
				if reg.Schemas == nil {
					reg.Schemas = map[string]*schema.Facts{}
				}
				facts := rb.factsOf[typ]
				reg.Schemas[typ] = &facts
			}
			if len(rb.aliasMap) > 0 {
				reg.KMSAliases = rb.aliasMap
			}
			for g := range rb.defaultGroups {
				reg.DefaultSecurityGroups = append(reg.DefaultSecurityGroups, g)
			}
			sort.Strings(reg.DefaultSecurityGroups)
			for _, st := range rb.stacks {
				s, err := st.stack()
				if err != nil {
					return nil, err
				}
				reg.Stacks = append(reg.Stacks, s)
				for _, o := range st.outside {
					if !hasPhysical(reg.Resources, o.Type, o.PhysicalID) {
						reg.Resources = append(reg.Resources, o)
					}
				}
			}
			acct.Regions = append(acct.Regions, reg)
		}
		b.w.Accounts = append(b.w.Accounts, acct)
	}
	if len(b.w.Accounts) == 0 {
		b.w.Accounts = []*sandbox.Account{{ID: CorpusAccount, Name: "corpus", AccessKeys: []sandbox.AccessKey{{ID: AccessKey(CorpusAccount), UserName: "corpus"}}}}
	}
	return b.w, nil
}

// stack writes the stack: its template, live resources and tags. A role
// case's sibling policy names become AWS::IAM::Policy resources unless a
// policy case of the stack already is that policy.
func (st *stackBuild) stack() (*sandbox.Stack, error) {
	for _, c := range st.cases {
		r := c.Resource
		if r.ResourceType != "AWS::IAM::Role" {
			continue
		}
		for _, pn := range r.SiblingPolicyNames {
			if st.hasPolicy(pn, r.PhysicalID) {
				continue
			}
			logical := pn
			for n := 2; st.resources[logical] != nil; n++ {
				logical = fmt.Sprintf("%s%d", pn, n)
			}
			tpl, res := siblingPolicy(st.name, r.LogicalID, r.PhysicalID, logical, pn, c.LiveRaw)
			st.resources[logical] = tpl
			st.live = append(st.live, res)
		}
	}
	for _, c := range st.cases {
		st.addRecordedSiblings(c)
	}
	var files []string
	for _, c := range st.cases {
		files = append(files, c.File)
	}
	desc := "realdrift corpus world: " + strings.Join(files, " ")
	if len(desc) > 1024 {
		desc = desc[:1021] + "..."
	}
	body, err := indentJSON(map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Description":              desc,
		"Resources":                st.resources,
	})
	if err != nil {
		return nil, fmt.Errorf("stack %s: template: %w", st.name, err)
	}
	var tags []sandbox.Tag
	keys := make([]string, 0, len(st.tagMap))
	for k := range st.tagMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		tags = append(tags, sandbox.Tag{Key: k, Value: st.tagMap[k]})
	}
	return &sandbox.Stack{
		Name:         st.name,
		Status:       "CREATE_COMPLETE",
		Description:  desc,
		Tags:         tags,
		TemplateBody: string(body),
		Resources:    st.live,
	}, nil
}

// addRecordedSiblings gives the stack the sibling resources a case's
// recorded sibling facts stand for, when no resource of the stack is one
// already, so the pipeline derives the facts as it does on AWS:
//   - clusterEchoModel: the instance's cluster (its declared
//     DBClusterIdentifier) with the recorded cluster model as live model,
//     in the account region outside the stack (the stack holds only the
//     cases; the pipeline reads a member's cluster wherever it is);
//   - siblingEipAssociations: an AWS::EC2::EIPAssociation declaring the EIP;
//   - siblingSubnetCidrBlocks: an AWS::EC2::SubnetCidrBlock declaring the
//     subnet.
//
// These siblings are no case: their own findings belong to no expectation.
func (st *stackBuild) addRecordedSiblings(c *corpus.Case) {
	r := c.Resource
	if echo, ok := c.Opts["clusterEchoModel"].(map[string]any); ok {
		id, _ := r.Declared["DBClusterIdentifier"].(string)
		model, _ := echo[r.PhysicalID].(map[string]any)
		svc, _, _ := strings.Cut(strings.TrimPrefix(r.ResourceType, "AWS::"), "::")
		typ := "AWS::" + svc + "::DBCluster"
		if id != "" && model != nil && !st.hasPhysical(typ, id) && !hasPhysical(st.outside, typ, id) {
			b, _ := json.Marshal(model)
			st.outside = append(st.outside, &sandbox.Resource{Type: typ, PhysicalID: id, Properties: b})
		}
	}
	for _, v := range optStrings(c.Opts["siblingEipAssociations"]) {
		if !st.declares("AWS::EC2::EIPAssociation", "EIP", v) {
			id := "eipassoc-" + strings.ToLower(hash12(st.name+"/"+v))
			st.addSibling(r.LogicalID+"Association", "AWS::EC2::EIPAssociation", id, map[string]any{"EIP": v}, map[string]any{"EIP": v, "Id": id})
		}
	}
	for _, v := range optStrings(c.Opts["siblingSubnetCidrBlocks"]) {
		if !st.declares("AWS::EC2::SubnetCidrBlock", "SubnetId", v) {
			id := "subnet-cidr-assoc-" + strings.ToLower(hash12(st.name+"/"+v))
			st.addSibling(r.LogicalID+"CidrBlock", "AWS::EC2::SubnetCidrBlock", id, map[string]any{"SubnetId": v}, map[string]any{"SubnetId": v, "Id": id})
		}
	}
}

// addSibling adds a resource that is no case, under a free logical id.
func (st *stackBuild) addSibling(logical, typ, physical string, declared, model map[string]any) {
	base := logical
	for n := 2; st.resources[logical] != nil; n++ {
		logical = fmt.Sprintf("%s%d", base, n)
	}
	st.resources[logical] = map[string]any{"Type": typ, "Properties": declared}
	b, _ := json.Marshal(model)
	st.live = append(st.live, &sandbox.Resource{LogicalID: logical, Type: typ, PhysicalID: physical, Properties: b})
}

func (st *stackBuild) hasPhysical(typ, id string) bool {
	return hasPhysical(st.live, typ, id)
}

func hasPhysical(rs []*sandbox.Resource, typ, id string) bool {
	for _, r := range rs {
		if r.Type == typ && strings.EqualFold(r.PhysicalID, id) {
			return true
		}
	}
	return false
}

// declares reports whether a template resource of typ declares prop = v.
func (st *stackBuild) declares(typ, prop, v string) bool {
	for _, res := range st.resources {
		m, _ := res.(map[string]any)
		props, _ := m["Properties"].(map[string]any)
		if m["Type"] == typ && props[prop] == v {
			return true
		}
	}
	return false
}

// optStrings reads a corpus option that is a list of strings.
func optStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// hasPolicy reports whether a case of the stack is an AWS::IAM::Policy
// named name attached to the role.
func (st *stackBuild) hasPolicy(name, role string) bool {
	for _, c := range st.cases {
		r := c.Resource
		if r.ResourceType != "AWS::IAM::Policy" || r.Declared["PolicyName"] != name {
			continue
		}
		roles, _ := r.Declared["Roles"].([]any)
		for _, x := range roles {
			if x == role {
				return true
			}
		}
	}
	return false
}

// siblingPolicy builds the AWS::IAM::Policy a role case's sibling policy
// name stands for: declared and live documents are the role's live inline
// policy of that name, so the sibling adds no finding of its own.
func siblingPolicy(stack, roleLogical, roleName, logical, policyName string, roleLive map[string]any) (map[string]any, *sandbox.Resource) {
	var doc any = unresolvable
	if ps, ok := roleLive["Policies"].([]any); ok {
		for _, p := range ps {
			if m, ok := p.(map[string]any); ok && m["PolicyName"] == policyName {
				doc = m["PolicyDocument"]
			}
		}
	}
	tpl := map[string]any{
		"Type": "AWS::IAM::Policy",
		"Properties": map[string]any{
			"PolicyName":     policyName,
			"PolicyDocument": doc,
			"Roles":          []any{map[string]any{"Ref": roleLogical}},
		},
	}
	liveModel := map[string]any{"PolicyName": policyName, "Roles": []any{roleName}}
	if m, ok := doc.(map[string]any); ok {
		if _, unknown := m["Fn::GetAZs"]; !unknown {
			liveModel["PolicyDocument"] = doc
		}
	}
	b, _ := json.Marshal(liveModel)
	return tpl, &sandbox.Resource{
		LogicalID:  logical,
		Type:       "AWS::IAM::Policy",
		PhysicalID: truncate(stack, 20) + "-" + truncate(policyName, 20) + "-" + hash12(stack+"/"+roleLogical+"/"+policyName),
		Properties: b,
	}
}

// CorpusCases returns the corpus case each resource of a corpus-world
// stack reproduces, by logical id (sibling resources FromCorpus added for a
// case are not listed).
func CorpusCases(st *sandbox.Stack) (map[string]string, error) {
	var tpl struct {
		Resources map[string]struct {
			Metadata map[string]any
		}
	}
	if err := json.Unmarshal([]byte(st.TemplateBody), &tpl); err != nil {
		return nil, fmt.Errorf("stack %s: template: %w", st.Name, err)
	}
	out := map[string]string{}
	for id, r := range tpl.Resources {
		if f, ok := r.Metadata[CaseMetadata].(string); ok {
			out[id] = f
		}
	}
	return out, nil
}

// Placements lists where each case of a corpus world is, by case file.
func Placements(w *sandbox.World) (map[string]Placement, error) {
	out := map[string]Placement{}
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			for _, s := range r.Stacks {
				cs, err := CorpusCases(s)
				if err != nil {
					return nil, err
				}
				for logical, file := range cs {
					out[file] = Placement{Account: a.ID, Region: r.Name, Stack: s.Name, LogicalID: logical}
				}
			}
		}
	}
	return out, nil
}

// encodeDeclared turns resolved declared values back into template
// values: drift.Unknown becomes the unresolvable intrinsic.
func encodeDeclared(v any) any {
	switch t := v.(type) {
	case drift.Unknown:
		return unresolvable
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = encodeDeclared(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = encodeDeclared(e)
		}
		return out
	}
	return v
}

var (
	nonName     = regexp.MustCompile(`[^A-Za-z0-9-]+`)
	stackNameRE = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9]{0,127}$`)
)

// originalStack is the stack a case was recorded in: its construct path's
// first segment (CDK's stack construct id, which is the stack name unless
// overridden), "" when there is none or it is no stack name.
func originalStack(constructPath string) string {
	first, _, ok := strings.Cut(constructPath, "/")
	if !ok || !stackNameRE.MatchString(first) {
		return ""
	}
	return first
}

// fallbackStackName derives a unique stack name from a case file name, for
// a case whose original stack is unknown.
func fallbackStackName(file string, taken map[string]bool) string {
	base := strings.TrimSuffix(file, ".json")
	base = strings.ReplaceAll(base, "__", "-")
	base = strings.Trim(nonName.ReplaceAllString(base, "-"), "-")
	base = truncate("corpus-"+base, 120)
	name := base
	for n := 2; taken[name]; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	taken[name] = true
	return name
}

// isGlobal reports whether a type's resources are one per account rather
// than per region.
func isGlobal(typ string) bool {
	return strings.HasPrefix(typ, "AWS::IAM::") || strings.HasPrefix(typ, "AWS::Route53::") || strings.HasPrefix(typ, "AWS::CloudFront::")
}

// stringMap reads a corpus option that is a string map (nil otherwise).
func stringMap(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		if s, ok := e.(string); ok {
			out[k] = s
		}
	}
	return out
}

// canonical is v's JSON with sorted keys ("" never: null for nil).
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return string(b)
	}
	b, _ = json.Marshal(x) // maps marshal with sorted keys
	return string(b)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func hash12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return strings.ToUpper(hex.EncodeToString(sum[:6]))
}
