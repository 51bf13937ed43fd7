package scan

import (
	"strings"

	"github.com/realdrift/realdrift/internal/live"
)

// siblingFacts derives, from the stack's own resources and their live
// models, the per-type sibling facts the classifier understands (its
// Options.Sibling, keyed by the corpus option names):
//
//   - clusterEchoModel: a cluster member instance's physical id → its
//     cluster's live model (the member echoes the cluster's settings);
//   - siblingRdsSourceModels: a read replica's declared
//     SourceDBInstanceIdentifier → the source instance's live model;
//   - siblingEipAssociations: the EIPs a sibling AWS::EC2::EIPAssociation
//     binds (their association is that resource's to check);
//   - siblingSubnetCidrBlocks: the subnets a sibling
//     AWS::EC2::SubnetCidrBlock extends.
//
// A fact is only derived from resolved declared values and read live
// models; nothing is guessed. Facts that need other APIs (account EBS
// encryption default, option-group defaults, …) are not gathered.
func siblingFacts(d *Desired, lives map[string]live.Result) map[string]any {
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
	for _, r := range d.Resources {
		switch r.Type {
		case "AWS::RDS::DBInstance", "AWS::Neptune::DBInstance", "AWS::DocDB::DBInstance":
			if id, ok := r.Declared["DBClusterIdentifier"].(string); ok && r.PhysicalID != "" {
				key := strings.ToLower(arnTail(id))
				if m, ok := models[key]; ok && strings.HasSuffix(types[key], "::DBCluster") {
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
		}
	}
	out := map[string]any{}
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
	if len(out) == 0 {
		return nil
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
