package dms

import (
	"encoding/json"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// dmsKind is one DMS resource type's wire facts.
type dmsKind struct {
	typ, list, noun, arnKind, idProp, arnField string
	arnFilter, idFilter                        string
	// plain are the model properties answered under their own name;
	// fixed are fields every answer carries (status).
	plain []string
	// text are plain members the API types as strings that carry a JSON
	// document (a task's TableMappings): a model holding the document as
	// an object, as a template may declare it, is answered as its JSON
	// text, since a string member holding an object is an answer no SDK
	// can deserialise.
	text  []string
	fixed map[string]any
	// defaults are the values DMS answers for an unset property.
	defaults map[string]any
}

var (
	dmsEndpoint = dmsKind{typ: "AWS::DMS::Endpoint", list: "Endpoints", noun: "Endpoints", arnKind: "endpoint", idProp: "EndpointIdentifier", arnField: "EndpointArn",
		arnFilter: "endpoint-arn", idFilter: "endpoint-id",
		plain: []string{"EndpointIdentifier", "EndpointType", "EngineName", "Username", "ServerName", "Port", "DatabaseName", "ExtraConnectionAttributes",
			"KmsKeyId", "CertificateArn", "SslMode"},
		fixed: map[string]any{"Status": "active"}}
	dmsInstance = dmsKind{typ: "AWS::DMS::ReplicationInstance", list: "ReplicationInstances", noun: "Replication Instances", arnKind: "rep",
		idProp: "ReplicationInstanceIdentifier", arnField: "ReplicationInstanceArn", arnFilter: "replication-instance-arn", idFilter: "replication-instance-id",
		plain: []string{"ReplicationInstanceIdentifier", "ReplicationInstanceClass", "AllocatedStorage", "AutoMinorVersionUpgrade", "AvailabilityZone",
			"EngineVersion", "KmsKeyId", "MultiAZ", "NetworkType", "PreferredMaintenanceWindow", "PubliclyAccessible", "DnsNameServers"},
		fixed:    map[string]any{"ReplicationInstanceStatus": "available"},
		defaults: map[string]any{"AllocatedStorage": json.Number("50"), "AutoMinorVersionUpgrade": true, "MultiAZ": false, "PubliclyAccessible": true}}
	dmsSubnetGroup = dmsKind{typ: "AWS::DMS::ReplicationSubnetGroup", list: "ReplicationSubnetGroups", noun: "Replication Subnet Groups", arnKind: "subgrp",
		idProp: "ReplicationSubnetGroupIdentifier", idFilter: "replication-subnet-group-id",
		plain: []string{"ReplicationSubnetGroupIdentifier", "ReplicationSubnetGroupDescription"},
		fixed: map[string]any{"SubnetGroupStatus": "Complete"}}
	dmsTask = dmsKind{typ: "AWS::DMS::ReplicationTask", list: "ReplicationTasks", noun: "Replication Tasks", arnKind: "task", idProp: "ReplicationTaskIdentifier",
		arnField: "ReplicationTaskArn", arnFilter: "replication-task-arn", idFilter: "replication-task-id",
		plain: []string{"ReplicationTaskIdentifier", "SourceEndpointArn", "TargetEndpointArn", "ReplicationInstanceArn", "MigrationType", "TableMappings",
			"ReplicationTaskSettings", "CdcStartPosition", "CdcStopPosition", "TaskData"},
		text:  []string{"TableMappings", "ReplicationTaskSettings", "TaskData"},
		fixed: map[string]any{"Status": "ready"}}
)

// dmsItem is one model with its identifier and ARN.
type dmsItem struct {
	id, arn string
	m       map[string]any
}

func dmsItems(st *world.State, c *wire.Call, k dmsKind) ([]dmsItem, error) {
	var out []dmsItem
	for _, r := range st.OfType(c.Account, c.Region, k.typ) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		it := dmsItem{m: m}
		for _, v := range []string{r.PhysicalID, r.CCID()} {
			if strings.HasPrefix(v, "arn:") {
				it.arn = v
			}
		}
		it.id, _ = m[k.idProp].(string)
		if it.id == "" && it.arn == "" {
			it.id = r.CCID()
		}
		if it.id == "" {
			it.id = world.ARNTail(it.arn, ":")
		}
		it.id = strings.ToLower(it.id)
		if it.arn == "" {
			it.arn = "arn:aws:dms:" + c.Region + ":" + c.Account + ":" + k.arnKind + ":" + it.id
		}
		out = append(out, it)
	}
	return out, nil
}

func dmsDescribe(st *world.State, c *wire.Call, k dmsKind) (any, error) {
	var in struct {
		Filters []struct {
			Name   string
			Values []string
		}
		MaxRecords      int
		Marker          string
		WithoutSettings bool
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "dms", Default: 100, Min: 20, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidParameterValueException", "MaxRecords must be between 20 and 100")
		},
		BadToken: wire.Errf(400, "InvalidParameterValueException", "Invalid Marker")}.Start(c, in.MaxRecords, in.Marker)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	items, err := dmsItems(st, c, k)
	if err != nil {
		return nil, err
	}
	var match []dmsItem
	for _, it := range items {
		keep := true
		for _, f := range in.Filters {
			var v string
			switch {
			case f.Name == k.arnFilter && k.arnFilter != "":
				v = it.arn
			case f.Name == k.idFilter:
				v = it.id
			default:
				return nil, wire.Errf(400, "InvalidParameterValueException", "Invalid filter name: %s", f.Name)
			}
			hit := false
			for _, want := range f.Values {
				if v == want || (f.Name == k.idFilter && strings.EqualFold(v, want)) {
					hit = true
				}
			}
			keep = keep && hit
		}
		if keep {
			match = append(match, it)
		}
	}
	if len(match) == 0 && len(in.Filters) > 0 {
		return nil, wire.Errf(400, "ResourceNotFoundFault", "No %s found matching provided filters", k.noun)
	}
	lo, hi, next := cur.Cut(len(match))
	list := []any{}
	for _, it := range match[lo:hi] {
		list = append(list, dmsAnswer(k, it, in.WithoutSettings))
	}
	out := map[string]any{k.list: list}
	if next != "" {
		out["Marker"] = next
	}
	return out, nil
}

// dmsAnswer renders one model in the API's shape.
func dmsAnswer(k dmsKind, it dmsItem, withoutSettings bool) map[string]any {
	out := map[string]any{k.idProp: it.id}
	for p, v := range k.fixed {
		out[p] = v
	}
	for p, v := range k.defaults {
		out[p] = v
	}
	if k.arnField != "" {
		out[k.arnField] = it.arn
	}
	for _, p := range k.plain {
		if v, ok := it.m[p]; ok && p != k.idProp {
			out[p] = v
		}
	}
	for _, p := range k.text {
		switch v := out[p].(type) {
		case nil, string:
		default:
			if b, err := world.MarshalNoEscape(v); err == nil {
				out[p] = string(b)
			}
		}
	}
	if withoutSettings {
		delete(out, "ReplicationTaskSettings")
		delete(out, "TableMappings")
		delete(out, "TaskData")
	}
	if ids, ok := it.m["VpcSecurityGroupIds"].([]any); ok {
		gs := []any{}
		for _, id := range ids {
			gs = append(gs, map[string]any{"VpcSecurityGroupId": id, "Status": "active"})
		}
		out["VpcSecurityGroups"] = gs
	}
	if g, ok := it.m["ReplicationSubnetGroupIdentifier"].(string); ok && k.typ == dmsInstance.typ {
		out["ReplicationSubnetGroup"] = map[string]any{"ReplicationSubnetGroupIdentifier": strings.ToLower(g), "SubnetGroupStatus": "Complete"}
	}
	if ids, ok := it.m["SubnetIds"].([]any); ok {
		subnets := []any{}
		for _, id := range ids {
			subnets = append(subnets, map[string]any{"SubnetIdentifier": id, "SubnetStatus": "Active"})
		}
		out["Subnets"] = subnets
	}
	return out
}

func dmsListTags(st *world.State, c *wire.Call, in struct{ ResourceArn string }) (any, error) {
	for _, k := range []dmsKind{dmsEndpoint, dmsInstance, dmsSubnetGroup, dmsTask} {
		items, err := dmsItems(st, c, k)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.arn != in.ResourceArn {
				continue
			}
			tags := []any{}
			for _, t := range world.Objects(it.m["Tags"]) {
				tags = append(tags, map[string]any{"Key": t["Key"], "Value": t["Value"], "ResourceArn": it.arn})
			}
			return map[string]any{"TagList": tags}, nil
		}
	}
	return nil, wire.Errf(400, "ResourceNotFoundFault", "Resource %s not found", in.ResourceArn)
}
