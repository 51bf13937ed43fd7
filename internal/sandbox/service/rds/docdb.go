package rds

import (
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// docDBKind is what differs between clusters and instances.
type docDBKind struct {
	typ, idProp, idParam, arnKind, item, list, fault, noun string
	// engine is the Engine answered; "" answers the model's.
	engine string
	status [2]string
	// renames are template property → API field; the other properties
	// of the model the API answers under their own name are in plain.
	renames map[string]string
	plain   []string
}

var (
	docDBCluster = docDBKind{typ: "AWS::DocDB::DBCluster", idProp: "DBClusterIdentifier", idParam: "DBClusterIdentifier", arnKind: "cluster",
		item: "DBCluster", list: "DBClusters", fault: "DBClusterNotFoundFault", noun: "DBCluster", engine: "docdb", status: [2]string{"Status", "available"},
		renames: map[string]string{"DBClusterParameterGroupName": "DBClusterParameterGroup", "DBSubnetGroupName": "DBSubnetGroup"},
		plain: []string{"BackupRetentionPeriod", "DeletionProtection", "EngineVersion", "KmsKeyId", "MasterUsername", "NetworkType", "Port",
			"PreferredBackupWindow", "PreferredMaintenanceWindow", "StorageEncrypted", "StorageType"}}
	docDBInstance = docDBKind{typ: "AWS::DocDB::DBInstance", idProp: "DBInstanceIdentifier", idParam: "DBInstanceIdentifier", arnKind: "db",
		item: "DBInstance", list: "DBInstances", fault: "DBInstanceNotFound", noun: "DBInstance", engine: "docdb", status: [2]string{"DBInstanceStatus", "available"},
		renames: map[string]string{"EnablePerformanceInsights": "PerformanceInsightsEnabled"},
		plain:   []string{"AutoMinorVersionUpgrade", "AvailabilityZone", "CACertificateIdentifier", "DBClusterIdentifier", "DBInstanceClass", "PreferredMaintenanceWindow"}}
	// rdsInstance is an RDS DB instance as DescribeDBInstances answers it
	// beside DocDB's.
	rdsInstance = docDBKind{typ: "AWS::RDS::DBInstance", idProp: "DBInstanceIdentifier", idParam: "DBInstanceIdentifier", arnKind: "db",
		item: "DBInstance", list: "DBInstances", fault: "DBInstanceNotFound", noun: "DBInstance", status: [2]string{"DBInstanceStatus", "available"},
		renames: map[string]string{"EnablePerformanceInsights": "PerformanceInsightsEnabled"},
		plain: []string{"AutoMinorVersionUpgrade", "AvailabilityZone", "CACertificateIdentifier", "DBClusterIdentifier", "DBInstanceClass", "EngineVersion",
			"PreferredMaintenanceWindow", "PromotionTier", "PubliclyAccessible"}}
)

func docDBArn(c *wire.Call, kind, id string) string {
	return "arn:aws:rds:" + c.Region + ":" + c.Account + ":" + kind + ":" + id
}

// docDBModels returns the models of k by lower-cased identifier.
func docDBModels(st *world.State, c *wire.Call, k docDBKind) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	for _, r := range st.OfType(c.Account, c.Region, k.typ) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		id, _ := m[k.idProp].(string)
		if id == "" {
			id = r.CCID()
		}
		m[k.idProp] = strings.ToLower(id)
		out[strings.ToLower(id)] = m
	}
	return out, nil
}

// docDBNode renders one model in the API's shape.
func docDBNode(c *wire.Call, k docDBKind, m map[string]any) *wire.Node {
	id, _ := m[k.idProp].(string)
	engine := k.engine
	if engine == "" {
		engine, _ = m["Engine"].(string)
	}
	n := wire.El(k.item, wire.Tx(k.idProp, id), wire.Tx("Engine", engine), wire.Tx(k.status[0], k.status[1]), wire.Tx(k.item+"Arn", docDBArn(c, k.arnKind, id)))
	for _, p := range k.plain {
		if v, ok := m[p]; ok && p != k.idProp {
			if x := wire.ValueXML(p, v); x != nil {
				n.Kids = append(n.Kids, x)
			}
		}
	}
	for _, from := range world.SortedKeys(k.renames) {
		if v, ok := m[from]; ok {
			if x := wire.ValueXML(k.renames[from], v); x != nil {
				n.Kids = append(n.Kids, x)
			}
		}
	}
	if ids, ok := m["VpcSecurityGroupIds"].([]any); ok {
		var gs []*wire.Node
		for _, g := range ids {
			if s, ok := g.(string); ok {
				gs = append(gs, wire.El("", wire.Tx("VpcSecurityGroupId", s), wire.Tx("Status", "active")))
			}
		}
		n.Kids = append(n.Kids, wire.ListOf("VpcSecurityGroups", "VpcSecurityGroupMembership", gs))
	}
	if logs, ok := m["EnableCloudwatchLogsExports"].([]any); ok {
		n.Kids = append(n.Kids, wire.ValueXML("EnabledCloudwatchLogsExports", logs))
	}
	if sc, ok := m["ServerlessV2ScalingConfiguration"].(map[string]any); ok {
		n.Kids = append(n.Kids, wire.ValueXML("ServerlessV2ScalingConfiguration", sc))
	}
	return n
}

// docDBDescribe answers a Describe call over the models of kinds (all of
// one item and list).
func docDBDescribe(st *world.State, c *wire.Call, kinds ...docDBKind) (any, error) {
	k := kinds[0]
	cur, err := wire.Paging{Prefix: "rds", Default: 100, Min: 20, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidParameterValue", "Invalid value for MaxRecords: must be between 20 and 100")
		},
		BadToken: wire.Errf(400, "InvalidParameterValue", "Invalid Marker")}.StartText(c, c.Str("MaxRecords"), c.Str("Marker"))
	if err != nil {
		return nil, err
	}
	filters, err := rdsFilters(c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	all := map[string]map[string]any{}
	kindOf := map[string]docDBKind{}
	for _, kk := range kinds {
		models, err := docDBModels(st, c, kk)
		if err != nil {
			return nil, err
		}
		for id, m := range models {
			all[id], kindOf[id] = m, kk
		}
	}
	ids := world.SortedKeys(all)
	if want := c.Str(k.idParam); want != "" {
		if all[strings.ToLower(want)] == nil {
			return nil, wire.Errf(404, k.fault, "%s %s not found.", k.noun, want)
		}
		ids = []string{strings.ToLower(want)}
	}
	var nodes []*wire.Node
	for _, id := range ids {
		if rdsFiltered(filters, kindOf[id], all[id]) {
			nodes = append(nodes, docDBNode(c, kindOf[id], all[id]))
		}
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.ListOf(k.list, k.item, nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}

// rdsFilterProps are the DescribeDBInstances filters the sandbox serves,
// by the model property each compares.
var rdsFilterProps = map[string]string{"db-cluster-id": "DBClusterIdentifier", "db-instance-id": "DBInstanceIdentifier", "engine": "Engine"}

// rdsFilters reads Filters.Filter.N.Name / .Values.Value.M.
func rdsFilters(c *wire.Call) (map[string][]string, error) {
	out := map[string][]string{}
	for i := 1; ; i++ {
		name := c.Str("Filters.Filter." + strconv.Itoa(i) + ".Name")
		if name == "" {
			return out, nil
		}
		if _, ok := rdsFilterProps[name]; !ok {
			return nil, wire.Errf(400, "InvalidParameterValue", "Unrecognized filter name: %s", name)
		}
		for j := 1; ; j++ {
			v := c.Str("Filters.Filter." + strconv.Itoa(i) + ".Values.Value." + strconv.Itoa(j))
			if v == "" {
				break
			}
			out[name] = append(out[name], v)
		}
	}
}

// rdsFiltered reports whether model m of kind k passes every filter
// (identifiers compared without regard to case, ARNs by their last part).
func rdsFiltered(filters map[string][]string, k docDBKind, m map[string]any) bool {
	for name, vals := range filters {
		var have string
		if name == "engine" && k.engine != "" {
			have = k.engine
		} else {
			have, _ = m[rdsFilterProps[name]].(string)
		}
		ok := false
		for _, v := range vals {
			if i := strings.LastIndexByte(v, ':'); i >= 0 && strings.HasPrefix(v, "arn:") {
				v = v[i+1:]
			}
			ok = ok || strings.EqualFold(v, have)
		}
		if !ok {
			return false
		}
	}
	return true
}

func docDBDescribeClusters(st *world.State, c *wire.Call) (any, error) {
	return docDBDescribe(st, c, docDBCluster)
}

func docDBDescribeInstances(st *world.State, c *wire.Call) (any, error) {
	return docDBDescribe(st, c, docDBInstance, rdsInstance)
}

func docDBListTags(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("ResourceName")
	st.RLock()
	defer st.RUnlock()
	for i, k := range []docDBKind{docDBCluster, docDBInstance, rdsInstance} {
		prefix := docDBArn(c, k.arnKind, "")
		id, ok := strings.CutPrefix(arn, prefix)
		if !ok {
			continue
		}
		all, err := docDBModels(st, c, k)
		if err != nil {
			return nil, err
		}
		m := all[id]
		if m == nil && i == 1 {
			continue // an RDS instance, perhaps
		}
		if m == nil {
			return nil, wire.Errf(404, k.fault, "%s %s not found.", k.noun, id)
		}
		var tags []*wire.Node
		for _, t := range world.Objects(m["Tags"]) {
			key, _ := t["Key"].(string)
			val, _ := t["Value"].(string)
			tags = append(tags, wire.El("", wire.Tx("Key", key), wire.Tx("Value", val)))
		}
		return wire.El("", wire.ListOf("TagList", "Tag", tags)), nil
	}
	return nil, wire.Errf(400, "InvalidParameterValue", "Invalid resource name: %s", arn)
}
