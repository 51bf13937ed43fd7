package dax

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

// daxNamed returns the models of typ by name, and the names asked for (all
// when none), or the not-found fault of the first name missing.
func daxNamed(st *world.State, c *wire.Call, typ, nameProp string, names []string, fault, noun string) (map[string]map[string]any, []string, error) {
	all := map[string]map[string]any{}
	for _, r := range st.OfType(c.Account, c.Region, typ) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, nil, err
		}
		n, _ := m[nameProp].(string)
		if n == "" {
			n = r.CCID()
		}
		all[n] = m
	}
	if len(names) == 0 {
		names = world.SortedKeys(all)
	}
	for _, n := range names {
		if all[n] == nil {
			return nil, nil, wire.Errf(400, fault, "%s %s not found.", noun, n)
		}
	}
	return all, names, nil
}

func daxClusterArn(c *wire.Call, name string) string {
	return "arn:aws:dax:" + c.Region + ":" + c.Account + ":cache/" + name
}

func daxDescribeClusters(st *world.State, c *wire.Call, in struct{ ClusterNames []string }) (any, error) {
	all, names, err := daxNamed(st, c, "AWS::DAX::Cluster", "ClusterName", in.ClusterNames, "ClusterNotFoundFault", "Cluster")
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, n := range names {
		m := all[n]
		cl := map[string]any{"ClusterName": n, "ClusterArn": daxClusterArn(c, n), "Status": "available"}
		for from, to := range map[string]string{"NodeType": "NodeType", "IAMRoleARN": "IamRoleArn", "PreferredMaintenanceWindow": "PreferredMaintenanceWindow",
			"SubnetGroupName": "SubnetGroup", "ClusterEndpointEncryptionType": "ClusterEndpointEncryptionType", "Description": "Description",
			"NetworkType": "NetworkType", "ReplicationFactor": "TotalNodes"} {
			if v, ok := m[from]; ok {
				cl[to] = v
			}
		}
		if ids, ok := m["SecurityGroupIds"].([]any); ok {
			gs := []any{}
			for _, id := range ids {
				gs = append(gs, map[string]any{"SecurityGroupIdentifier": id, "Status": "active"})
			}
			cl["SecurityGroups"] = gs
		}
		if p, ok := m["ParameterGroupName"]; ok {
			cl["ParameterGroup"] = map[string]any{"ParameterGroupName": p, "ParameterApplyStatus": "in-sync"}
		}
		if t, ok := m["NotificationTopicARN"]; ok {
			cl["NotificationConfiguration"] = map[string]any{"TopicArn": t, "TopicStatus": "active"}
		}
		if sse, ok := m["SSESpecification"].(map[string]any); ok {
			status := "DISABLED"
			if on, _ := sse["SSEEnabled"].(bool); on {
				status = "ENABLED"
			}
			cl["SSEDescription"] = map[string]any{"Status": status}
		}
		out = append(out, cl)
	}
	return map[string]any{"Clusters": out}, nil
}

func daxDescribeSubnetGroups(st *world.State, c *wire.Call, in struct{ SubnetGroupNames []string }) (any, error) {
	all, names, err := daxNamed(st, c, "AWS::DAX::SubnetGroup", "SubnetGroupName", in.SubnetGroupNames, "SubnetGroupNotFoundFault", "Subnet group")
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, n := range names {
		m := all[n]
		g := map[string]any{"SubnetGroupName": n}
		if d, ok := m["Description"]; ok {
			g["Description"] = d
		}
		subnets := []any{}
		if ids, ok := m["SubnetIds"].([]any); ok {
			for _, id := range ids {
				subnets = append(subnets, map[string]any{"SubnetIdentifier": id})
			}
		}
		g["Subnets"] = subnets
		out = append(out, g)
	}
	return map[string]any{"SubnetGroups": out}, nil
}

func daxDescribeParameterGroups(st *world.State, c *wire.Call, in struct{ ParameterGroupNames []string }) (any, error) {
	all, names, err := daxNamed(st, c, "AWS::DAX::ParameterGroup", "ParameterGroupName", in.ParameterGroupNames, "ParameterGroupNotFoundFault", "Parameter group")
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, n := range names {
		g := map[string]any{"ParameterGroupName": n}
		if d, ok := all[n]["Description"]; ok {
			g["Description"] = d
		}
		out = append(out, g)
	}
	return map[string]any{"ParameterGroups": out}, nil
}

func daxDescribeParameters(st *world.State, c *wire.Call, in struct {
	ParameterGroupName, Source, NextToken string
	MaxResults                            int
}) (any, error) {
	cur, err := wire.Paging{Prefix: "dax", Default: 100,
		BadToken: wire.Errf(400, "InvalidParameterValueException", "Invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	all, _, err := daxNamed(st, c, "AWS::DAX::ParameterGroup", "ParameterGroupName", []string{in.ParameterGroupName}, "ParameterGroupNotFoundFault", "Parameter group")
	if err != nil {
		return nil, err
	}
	params := []any{}
	if in.Source != "system" {
		values, _ := all[in.ParameterGroupName]["ParameterNameValues"].(map[string]any)
		for _, k := range world.SortedKeys(values) {
			params = append(params, map[string]any{"ParameterName": k, "ParameterValue": values[k], "Source": "user", "ParameterType": "DEFAULT", "IsModifiable": "TRUE", "ChangeType": "REQUIRES_REBOOT"})
		}
	}
	lo, hi, next := cur.Cut(len(params))
	out := map[string]any{"Parameters": params[lo:hi]}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func daxListTags(st *world.State, c *wire.Call, in struct{ ResourceName, NextToken string }) (any, error) {
	name := world.ARNTail(in.ResourceName, ":cache/")
	all, _, err := daxNamed(st, c, "AWS::DAX::Cluster", "ClusterName", nil, "ClusterNotFoundFault", "Cluster")
	if err != nil {
		return nil, err
	}
	m := all[name]
	if m == nil || in.ResourceName != daxClusterArn(c, name) {
		return nil, wire.Errf(400, "ClusterNotFoundFault", "Cluster %s not found.", name)
	}
	tags := []any{}
	if t, ok := m["Tags"].(map[string]any); ok {
		for _, k := range world.SortedKeys(t) {
			tags = append(tags, map[string]any{"Key": k, "Value": t[k]})
		}
	}
	return map[string]any{"Tags": tags}, nil
}
