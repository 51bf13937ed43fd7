package scan

import (
	"context"
	"strings"

	"github.com/realdrift/realdrift/internal/live"
)

// SiblingFacts derives, from the stack's own resources and their live
// models, the per-type sibling facts the classifier understands (its
// Options.Sibling, keyed by the corpus option names):
//
//   - clusterEchoModel: a cluster member instance's physical id → its
//     cluster's live model (the member echoes the cluster's settings),
//     the stack's own cluster or one read outside the stack
//     (Desired.OutsideClusters);
//   - siblingRdsSourceModels: a read replica's declared
//     SourceDBInstanceIdentifier → the source instance's live model;
//   - siblingEipAssociations: the EIPs a sibling AWS::EC2::EIPAssociation
//     binds (their association is that resource's to check);
//   - siblingSubnetCidrBlocks: the subnets a sibling
//     AWS::EC2::SubnetCidrBlock extends;
//   - ecsBgGovernedListenerRules: a listener rule's logical id → the target
//     groups a sibling blue/green AWS::ECS::Service shifts its traffic
//     between (the rule is the service's production or test listener rule);
//   - siblingSgRules: a security group's declared GroupId (or GroupName) →
//     the rules sibling AWS::EC2::SecurityGroupIngress / Egress resources
//     add to it, each with its Direction (their own checks report them);
//   - siblingSnsSubscriptions: a topic's ARN → the Protocol and Endpoint of
//     each sibling AWS::SNS::Subscription of it;
//   - siblingRolePolicies / siblingUserPolicies / siblingGroupPolicies: an
//     identity's name → the ARNs of the sibling AWS::IAM::ManagedPolicy
//     resources whose Roles / Users / Groups attach them to it, and
//     siblingPolicyRoles / siblingPolicyUsers / siblingPolicyGroups: a
//     sibling managed policy's ARN → the names of the identities whose
//     ManagedPolicyArns attach it (attachmentSiblings).
//
// A fact is only derived from resolved declared values and read live
// models; nothing is guessed. Facts that need other APIs (account EBS
// encryption default, option-group defaults, …) are not gathered.
func SiblingFacts(d *Desired, lives map[string]live.Result) map[string]any {
	models := map[string]map[string]any{} // by lower-cased physical id
	types := map[string]string{}
	for _, r := range d.Resources {
		if res, ok := lives[r.LogicalID]; ok && res.Status == live.Found && r.PhysicalID != "" {
			models[strings.ToLower(r.PhysicalID)] = res.Model
			types[strings.ToLower(r.PhysicalID)] = r.Type
		}
	}
	echo := map[string]any{}
	sources := map[string]any{}
	var eips, subnets []any
	governed := map[string]any{}
	sgRules := map[string]any{}
	subscriptions := map[string]any{}
	attachments := attachmentFacts(d)
	for _, r := range d.Resources {
		switch r.Type {
		case "AWS::EC2::SecurityGroupIngress", "AWS::EC2::SecurityGroupEgress":
			group, ok := r.Declared["GroupId"].(string)
			if !ok {
				group, ok = r.Declared["GroupName"].(string)
			}
			if !ok || group == "" {
				continue
			}
			rule := map[string]any{"Direction": "ingress"}
			if r.Type == "AWS::EC2::SecurityGroupEgress" {
				rule["Direction"] = "egress"
			}
			for k, v := range r.Declared {
				if k != "GroupId" && k != "GroupName" {
					rule[k] = v
				}
			}
			list, _ := sgRules[group].([]any)
			sgRules[group] = append(list, rule)
		case "AWS::SNS::Subscription":
			topic, ok := r.Declared["TopicArn"].(string)
			if !ok || topic == "" {
				continue
			}
			list, _ := subscriptions[topic].([]any)
			subscriptions[topic] = append(list, map[string]any{"Protocol": r.Declared["Protocol"], "Endpoint": r.Declared["Endpoint"]})
		case "AWS::RDS::DBInstance", "AWS::Neptune::DBInstance", "AWS::DocDB::DBInstance":
			if id, ok := r.Declared["DBClusterIdentifier"].(string); ok && r.PhysicalID != "" {
				key := strings.ToLower(arnTail(id))
				if m, ok := models[key]; ok && strings.HasSuffix(types[key], "::DBCluster") {
					echo[r.PhysicalID] = m
				} else if m, ok := d.OutsideClusters[key]; ok {
					echo[r.PhysicalID] = m
				}
			}
			if src, ok := r.Declared["SourceDBInstanceIdentifier"].(string); ok {
				key := strings.ToLower(arnTail(src))
				if m, ok := models[key]; ok && types[key] == r.Type {
					sources[src] = m
				}
			}
		case "AWS::EC2::EIPAssociation":
			if ip, ok := r.Declared["EIP"].(string); ok {
				eips = append(eips, ip)
			}
			if alloc, ok := r.Declared["AllocationId"].(string); ok {
				for _, e := range d.Resources {
					if e.Type != "AWS::EC2::EIP" {
						continue
					}
					if m := models[strings.ToLower(e.PhysicalID)]; m != nil && m["AllocationId"] == alloc {
						eips = append(eips, e.PhysicalID)
					}
				}
			}
		case "AWS::EC2::SubnetCidrBlock":
			if s, ok := r.Declared["SubnetId"].(string); ok {
				subnets = append(subnets, s)
			}
		case "AWS::ECS::Service":
			for rule, tgs := range blueGreenRules(r.Declared) {
				for _, lr := range d.Resources {
					if lr.Type == "AWS::ElasticLoadBalancingV2::ListenerRule" && lr.PhysicalID == rule {
						governed[lr.LogicalID] = tgs
					}
				}
			}
		}
	}
	out := attachments
	if len(echo) > 0 {
		out["clusterEchoModel"] = echo
	}
	if len(sources) > 0 {
		out["siblingRdsSourceModels"] = sources
	}
	if len(eips) > 0 {
		out["siblingEipAssociations"] = eips
	}
	if len(subnets) > 0 {
		out["siblingSubnetCidrBlocks"] = subnets
	}
	if len(governed) > 0 {
		out["ecsBgGovernedListenerRules"] = governed
	}
	if len(sgRules) > 0 {
		out["siblingSgRules"] = sgRules
	}
	if len(subscriptions) > 0 {
		out["siblingSnsSubscriptions"] = subscriptions
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// attachmentSiblings are the IAM identity types a managed policy attaches
// to through one of its lists, with the facts of either side.
var attachmentSiblings = []struct{ identity, policyProp, identityFact, policyFact string }{
	{"AWS::IAM::Role", "Roles", "siblingRolePolicies", "siblingPolicyRoles"},
	{"AWS::IAM::User", "Users", "siblingUserPolicies", "siblingPolicyUsers"},
	{"AWS::IAM::Group", "Groups", "siblingGroupPolicies", "siblingPolicyGroups"},
}

// attachmentFacts derives the managed-policy attachment facts: the
// resolved names a sibling AWS::IAM::ManagedPolicy lists (its ARN is its
// physical id), and the resolved ARNs of the stack's managed policies an
// identity lists in ManagedPolicyArns (its name is its physical id).
func attachmentFacts(d *Desired) map[string]any {
	policies := map[string]bool{}
	for _, r := range d.Resources {
		if r.Type == "AWS::IAM::ManagedPolicy" && r.PhysicalID != "" {
			policies[r.PhysicalID] = true
		}
	}
	out := map[string]any{}
	add := func(fact, key, value string) {
		m, _ := out[fact].(map[string]any)
		if m == nil {
			m = map[string]any{}
			out[fact] = m
		}
		list, _ := m[key].([]any)
		m[key] = append(list, value)
	}
	for _, r := range d.Resources {
		if r.PhysicalID == "" {
			continue
		}
		for _, row := range attachmentSiblings {
			switch r.Type {
			case "AWS::IAM::ManagedPolicy":
				for _, name := range resolvedStrings(r.Declared[row.policyProp]) {
					add(row.identityFact, name, r.PhysicalID)
				}
			case row.identity:
				for _, arn := range resolvedStrings(r.Declared["ManagedPolicyArns"]) {
					if policies[arn] {
						add(row.policyFact, arn, r.PhysicalID)
					}
				}
			}
		}
	}
	return out
}

// resolvedStrings returns the non-empty strings of a declared list; an
// element the resolver could not know is left out.
func resolvedStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// blueGreenRules returns, for a service declared with the BLUE_GREEN
// deployment strategy, each listener rule ARN its load balancers' advanced
// configuration names (production and test) → the target group and the
// alternate one traffic shifts between. Only resolved values count.
func blueGreenRules(declared map[string]any) map[string][]any {
	dc, _ := declared["DeploymentConfiguration"].(map[string]any)
	if dc == nil || dc["Strategy"] != "BLUE_GREEN" {
		return nil
	}
	lbs, _ := declared["LoadBalancers"].([]any)
	out := map[string][]any{}
	for _, e := range lbs {
		lb, _ := e.(map[string]any)
		ac, _ := lb["AdvancedConfiguration"].(map[string]any)
		tg, ok1 := lb["TargetGroupArn"].(string)
		alt, ok2 := ac["AlternateTargetGroupArn"].(string)
		if !ok1 || !ok2 {
			continue
		}
		for _, k := range []string{"ProductionListenerRule", "TestListenerRule"} {
			if rule, ok := ac[k].(string); ok && rule != "" {
				out[rule] = []any{tg, alt}
			}
		}
	}
	return out
}

// arnTail returns the last ":"-separated part of an ARN, or s itself.
func arnTail(s string) string {
	if strings.HasPrefix(s, "arn:") {
		return s[strings.LastIndex(s, ":")+1:]
	}
	return s
}

// clusterMembers are the DB instance types whose declared
// DBClusterIdentifier names the cluster they echo.
var clusterMembers = map[string]string{
	"AWS::RDS::DBInstance":     "AWS::RDS::DBCluster",
	"AWS::Neptune::DBInstance": "AWS::Neptune::DBCluster",
	"AWS::DocDB::DBInstance":   "AWS::DocDB::DBCluster",
}

// OutsideClusters reads the clusters that member instances of d name and
// that are no resource of d (a cluster of another stack, or made by
// hand), keyed by the lower-cased identifier; one that cannot be read is
// left out (the member's echoes are then classified without it, as
// before the read).
func (c *Clients) OutsideClusters(ctx context.Context, d *Desired) map[string]map[string]any {
	if c.Live == nil {
		return nil
	}
	inStack := map[string]bool{}
	for _, r := range d.Resources {
		inStack[strings.ToLower(r.PhysicalID)] = true
	}
	out := map[string]map[string]any{}
	for _, r := range d.Resources {
		typ, ok := clusterMembers[r.Type]
		id, isStr := r.Declared["DBClusterIdentifier"].(string)
		if !ok || !isStr || id == "" || r.PhysicalID == "" {
			continue
		}
		key := strings.ToLower(arnTail(id))
		if inStack[key] || out[key] != nil {
			continue
		}
		res := live.Read(ctx, c.Live, live.Request{Type: typ, PhysicalID: arnTail(id)})
		if res.Status == live.Found {
			out[key] = res.Model
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
