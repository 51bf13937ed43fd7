package classify

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// clusterEchoAliases maps an instance property to the cluster property it
// echoes when the names differ.
var clusterEchoAliases = map[string]string{
	"VPCSecurityGroups": "VpcSecurityGroupIds",
	"DBSubnetGroupName": "DBSubnetGroupName",
}

// clusterEcho reports whether an undeclared top-level value of a cluster
// member instance echoes its cluster's own model (opts clusterEchoModel,
// keyed by the instance's physical id): the cluster's check owns it, so it
// is dropped here. Equality-gated: a value differing from the cluster's
// still surfaces.
func (r *run) clusterEcho(rp string, v any) bool {
	models, ok := r.opts.Sibling["clusterEchoModel"].(map[string]any)
	if !ok {
		return false
	}
	model, ok := models[r.s.Ref.PhysicalID].(map[string]any)
	if !ok {
		return false
	}
	if rp == "DBInstanceIdentifier" {
		return false
	}
	cv, ok := model[rp]
	if !ok {
		if alias, has := clusterEchoAliases[rp]; has {
			cv, ok = model[alias]
		}
	}
	return ok && normalize.SameScalarOrEqual(cv, v)
}

// siblingEcho reports whether an undeclared top-level value equals what a
// sibling the resource derives from carries: a read replica's source
// instance (opts siblingRdsSourceModels, keyed by the declared
// SourceDBInstanceIdentifier), a staging distribution's continuous
// deployment policy, a Client VPN endpoint's VPC.
func (r *run) siblingEcho(rp string, v any) bool {
	if models, ok := r.opts.Sibling["siblingRdsSourceModels"].(map[string]any); ok {
		src, _ := r.s.Declared["SourceDBInstanceIdentifier"].(string)
		if m, ok := models[src].(map[string]any); ok {
			if sv, ok := m[rp]; ok && normalize.SameScalarOrEqual(sv, v) {
				return !normalize.TriviallyEmptyCollection(v)
			}
		}
	}
	if vpcs, ok := r.opts.Sibling["siblingClientVpnEndpointVpcs"].(map[string]any); ok && rp == "VpcId" {
		if vpc, ok := vpcs[r.s.Ref.PhysicalID].(string); ok && vpc == v {
			return true
		}
	}
	if accountDefaults, ok := r.opts.Sibling["accountDefaults"].(map[string]any); ok && rp == "Encrypted" {
		if d, ok := accountDefaults["ebsEncryptionByDefault"]; ok && normalize.Equal(d, v) {
			return true
		}
	}
	return false
}

// siblingOwned reports whether an undeclared top-level property is owned by
// a sibling resource of the stack: an EIP's association (opts
// siblingEipAssociations lists EIPs a sibling AWS::EC2::EIPAssociation
// binds), a subnet's IPv6 block (opts siblingSubnetCidrBlocks lists subnets
// a sibling AWS::EC2::SubnetCidrBlock extends). The sibling's own check
// owns the value.
func (r *run) siblingOwned(rp string) bool {
	switch rp {
	case "NetworkInterfaceId", "InstanceId", "PrivateIpAddress":
		return listed(r.opts.Sibling["siblingEipAssociations"], r.s.Ref.PhysicalID)
	case "Ipv6CidrBlock", "Ipv6CidrBlocks", "AssignIpv6AddressOnCreation":
		return rp != "AssignIpv6AddressOnCreation" && listed(r.opts.Sibling["siblingSubnetCidrBlocks"], r.s.Ref.PhysicalID)
	}
	return false
}

func listed(v any, s string) bool {
	a, ok := v.([]any)
	if !ok || s == "" {
		return false
	}
	for _, e := range a {
		if e == s {
			return true
		}
	}
	return false
}

// sourceEchoEmpty reports whether an empty collection equals the read
// replica's source model: inherited emptiness, dropped as noise.
func (r *run) sourceEchoEmpty(rp string, v any) bool {
	models, ok := r.opts.Sibling["siblingRdsSourceModels"].(map[string]any)
	if !ok || !normalize.TriviallyEmptyCollection(v) {
		return false
	}
	src, _ := r.s.Declared["SourceDBInstanceIdentifier"].(string)
	m, ok := models[src].(map[string]any)
	if !ok {
		return false
	}
	sv, ok := m[rp]
	return ok && normalize.Equal(sv, v)
}

// bgGoverned reports whether the listener rule's actions are governed by
// an ECS blue/green deployment (opts ecsBgGovernedListenerRules, keyed by
// logical id, listing the target groups the deployment shifts between):
// weights move between those target groups without any template change.
// Only the target groups are the deployment's: every other field of each
// action (its type, order, configs) must still equal the declared one, so
// a changed action surfaces.
func (r *run) bgGoverned(rp string, d, l any) bool {
	if !sameBesideTargets(d, l) {
		return false
	}
	rules, ok := r.opts.Sibling["ecsBgGovernedListenerRules"].(map[string]any)
	if !ok {
		return false
	}
	tgs, ok := rules[r.s.Ref.LogicalID].([]any)
	if !ok || len(tgs) == 0 {
		return false
	}
	allowed := map[string]bool{}
	for _, t := range tgs {
		if s, ok := t.(string); ok {
			allowed[s] = true
		}
	}
	found := false
	ok = true
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if k == "TargetGroupArn" {
					s, _ := e.(string)
					if !allowed[s] {
						ok = false
					}
					found = true
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(l)
	return ok && found
}

// sameBesideTargets reports whether the declared and live action lists are
// equal once each action's target groups (TargetGroupArn, ForwardConfig:
// what a blue/green deployment moves) are set aside.
func sameBesideTargets(d, l any) bool {
	da, ok1 := d.([]any)
	la, ok2 := l.([]any)
	if !ok1 || !ok2 || len(da) != len(la) {
		return false
	}
	strip := func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			if k != "TargetGroupArn" && k != "ForwardConfig" {
				out[k] = e
			}
		}
		return out
	}
	for i := range da {
		if !normalize.Equal(strip(da[i]), strip(la[i])) {
			return false
		}
	}
	return true
}

// rdsOptionDefault reports whether a live-only option setting of an RDS
// option group equals the engine's default for it (opts
// rdsOptionSettingDefaults: option group name → option → setting →
// default value, null for "no value"). Path shape:
// OptionConfigurations.<i>.OptionSettings[<setting>].
func (r *run) rdsOptionDefault(rp string, v any) bool {
	groups, ok := r.opts.Sibling["rdsOptionSettingDefaults"].(map[string]any)
	if !ok {
		return false
	}
	segs := splitPath(rp)
	if len(segs) != 3 || segs[0].name != "OptionConfigurations" || !segs[1].index || segs[2].name != "OptionSettings" || segs[2].key == "" {
		return false
	}
	group, ok := groups[r.s.Ref.PhysicalID].(map[string]any)
	if !ok {
		return false
	}
	confs, _ := r.live["OptionConfigurations"].([]any)
	i := 0
	for _, c := range segs[1].name {
		i = i*10 + int(c-'0')
	}
	if i >= len(confs) {
		return false
	}
	conf, _ := confs[i].(map[string]any)
	option, _ := conf["OptionName"].(string)
	defaults, ok := group[option].(map[string]any)
	if !ok {
		return false
	}
	def, ok := defaults[segs[2].key]
	if !ok {
		return false
	}
	elem, ok := v.(map[string]any)
	if !ok {
		return false
	}
	val, has := elem["Value"]
	if def == nil {
		return !has || normalize.TriviallyEmpty(val)
	}
	return has && normalize.SameScalarOrEqual(def, val)
}

// cdPolicyEcho reports whether a staging distribution's
// ContinuousDeploymentPolicyId is the policy its sibling
// AWS::CloudFront::ContinuousDeploymentPolicy created (opts
// siblingCloudFrontCdPolicyIds, keyed by logical id).
func (r *run) cdPolicyEcho(rp string, v any) bool {
	if lastKey(rp) != "ContinuousDeploymentPolicyId" {
		return false
	}
	ids, ok := r.opts.Sibling["siblingCloudFrontCdPolicyIds"].(map[string]any)
	if !ok {
		return false
	}
	id, ok := ids[r.s.Ref.LogicalID].(string)
	return ok && id != "" && id == v
}

// siblingFact returns the value a per-resource sibling fact holds for this
// resource: the fact may be keyed by physical id or by logical id.
func (r *run) siblingFact(name string) (any, bool) {
	m, ok := r.opts.Sibling[name].(map[string]any)
	if !ok {
		return nil, false
	}
	if v, ok := m[r.s.Ref.PhysicalID]; ok && r.s.Ref.PhysicalID != "" {
		return v, true
	}
	v, ok := m[r.s.Ref.LogicalID]
	return v, ok && r.s.Ref.LogicalID != ""
}

// sgRuleKeys identify a security-group rule.
var sgRuleKeys = []string{"IpProtocol", "FromPort", "ToPort", "CidrIp", "CidrIpv6", "SourceSecurityGroupId",
	"DestinationSecurityGroupId", "SourcePrefixListId", "DestinationPrefixListId"}

// sgRuleLists are the rule-list properties of a security group.
var sgRuleLists = []string{"SecurityGroupIngress", "SecurityGroupEgress"}

// normalizeSGRules puts the security-group rules of both sides in the form
// EC2 reads them back (normalize.SGRule): a group's rule lists, or a
// standalone ingress or egress rule's own top level.
func (r *run) normalizeSGRules() {
	switch r.s.Ref.Type {
	case "AWS::EC2::SecurityGroup":
		for _, side := range []map[string]any{r.live, r.decl} {
			for _, prop := range sgRuleLists {
				if v, ok := side[prop]; ok {
					side[prop] = normalize.SGRules(v)
				}
			}
		}
	case "AWS::EC2::SecurityGroupIngress", "AWS::EC2::SecurityGroupEgress":
		for _, side := range []map[string]any{r.live, r.decl} {
			if n, changed := normalize.SGRule(side); changed {
				for k := range side {
					if _, ok := n[k]; !ok {
						delete(side, k)
					}
				}
				for k, v := range n {
					side[k] = v
				}
			}
		}
	}
}

// siblingEntries are the list properties whose entries a sibling resource
// of the stack may own, one row per property: the classifier drops the
// live entries that match one of the sibling's (opts Sibling[fact]: this
// resource's physical or logical id → entry objects), so they are neither
// compared with a declared list nor reported as undeclared; the sibling's
// own check reports them. Every other live entry stays, so an entry added
// out of band still surfaces. An entry matches when every key of keys is
// equal on both (empty on both counts as equal); a row without keys holds
// scalar members (an attachment list), matched by equality, and never
// drops a member this resource declares itself; a sibling value the
// resolver could not know never matches (fail open).
var siblingEntries = []struct {
	typ, prop, fact string
	// direction, when set, is the entry direction the property holds:
	// a sibling entry of the other direction never matches.
	direction string
	keys      []string
	// canon puts a sibling entry in the live read's form.
	canon func(map[string]any) map[string]any
}{
	// AWS::EC2::SecurityGroupIngress / Egress rules of this group.
	{typ: "AWS::EC2::SecurityGroup", prop: "SecurityGroupIngress", fact: "siblingSgRules", direction: "ingress", keys: sgRuleKeys, canon: sgRuleCanon},
	{typ: "AWS::EC2::SecurityGroup", prop: "SecurityGroupEgress", fact: "siblingSgRules", direction: "egress", keys: sgRuleKeys, canon: sgRuleCanon},
	// AWS::SNS::Subscription resources of this topic.
	{typ: "AWS::SNS::Topic", prop: "Subscription", fact: "siblingSnsSubscriptions", keys: []string{"Protocol", "Endpoint"}},
	// Managed-policy attachments made from the other side: an
	// AWS::IAM::ManagedPolicy's Roles / Users / Groups attach it to this
	// identity (its ARN shows in the identity's ManagedPolicyArns), and
	// an identity's ManagedPolicyArns attach it to this managed policy
	// (the identity's name shows in the policy's list).
	{typ: "AWS::IAM::Role", prop: "ManagedPolicyArns", fact: "siblingRolePolicies"},
	{typ: "AWS::IAM::User", prop: "ManagedPolicyArns", fact: "siblingUserPolicies"},
	{typ: "AWS::IAM::Group", prop: "ManagedPolicyArns", fact: "siblingGroupPolicies"},
	{typ: "AWS::IAM::ManagedPolicy", prop: "Roles", fact: "siblingPolicyRoles"},
	{typ: "AWS::IAM::ManagedPolicy", prop: "Users", fact: "siblingPolicyUsers"},
	{typ: "AWS::IAM::ManagedPolicy", prop: "Groups", fact: "siblingPolicyGroups"},
}

func sgRuleCanon(m map[string]any) map[string]any {
	n, _ := normalize.SGRule(m)
	return n
}

// dropSiblingEntries removes from the live lists of siblingEntries the
// entries sibling resources own.
func (r *run) dropSiblingEntries() {
	for _, row := range siblingEntries {
		if row.typ != r.s.Ref.Type {
			continue
		}
		live, ok := r.live[row.prop].([]any)
		if !ok || len(live) == 0 {
			continue
		}
		v, ok := r.siblingFact(row.fact)
		if !ok {
			continue
		}
		entries, _ := v.([]any)
		if row.keys == nil {
			r.dropSiblingMembers(row.prop, live, entries)
			continue
		}
		var own []map[string]any
		for _, e := range entries {
			m, ok := e.(map[string]any)
			if !ok || !sameDirection(m, row.direction) {
				continue
			}
			if row.canon != nil {
				m = row.canon(m)
			}
			own = append(own, m)
		}
		if len(own) == 0 {
			continue
		}
		kept := make([]any, 0, len(live))
		for _, e := range live {
			if !matchesAnyEntry(e, own, row.keys) {
				kept = append(kept, e)
			}
		}
		if len(kept) != len(live) {
			r.live[row.prop] = kept
		}
	}
}

// dropSiblingMembers removes from the live scalar list prop the members a
// sibling owns (entries), except a member the resource declares itself.
func (r *run) dropSiblingMembers(prop string, live, entries []any) {
	own := map[string]bool{}
	for _, e := range entries {
		if s, ok := normalize.ScalarString(e); ok {
			own[s] = true
		}
	}
	if d, ok := r.decl[prop].([]any); ok {
		for _, e := range d {
			if s, ok := normalize.ScalarString(e); ok {
				delete(own, s)
			}
		}
	}
	if len(own) == 0 {
		return
	}
	kept := make([]any, 0, len(live))
	for _, e := range live {
		if s, ok := normalize.ScalarString(e); !ok || !own[s] {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(live) {
		r.live[prop] = kept
	}
}

// sameDirection reports whether a sibling rule belongs to a list of the
// given direction: its Direction field when it has one, else its shape (a
// destination is an egress rule's, a source an ingress rule's); a rule
// with neither (a CIDR rule recorded without its direction) may be in
// either list.
func sameDirection(m map[string]any, direction string) bool {
	if direction == "" {
		return true
	}
	if d, ok := m["Direction"].(string); ok {
		return strings.EqualFold(d, direction)
	}
	for k := range m {
		switch k {
		case "DestinationSecurityGroupId", "DestinationPrefixListId":
			return direction == "egress"
		case "SourceSecurityGroupId", "SourceSecurityGroupName", "SourceSecurityGroupOwnerId", "SourcePrefixListId":
			return direction == "ingress"
		}
	}
	return true
}

func matchesAnyEntry(live any, own []map[string]any, keys []string) bool {
	lm, ok := live.(map[string]any)
	if !ok {
		return false
	}
	for _, rm := range own {
		same := true
		for _, k := range keys {
			a, b := lm[k], rm[k]
			if normalize.TriviallyEmpty(a) && normalize.TriviallyEmpty(b) {
				continue
			}
			if drift.ContainsUnknown(b) || !normalize.SameScalarOrEqual(a, b) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// registeredBySibling reports whether a target group's live Targets are
// registered by sibling resources (opts siblingTargetGroupRegistrars: an
// ECS service or Auto Scaling group of the stack registers them), so the
// membership is theirs, not drift of the group.
func (r *run) registeredBySibling(rp string) bool {
	if rp != "Targets" {
		return false
	}
	v, ok := r.siblingFact("siblingTargetGroupRegistrars")
	if !ok {
		return false
	}
	return !normalize.TriviallyEmpty(v)
}
