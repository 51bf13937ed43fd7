package sandbox

import (
	"strconv"
	"strings"
)

// docDBService serves the RDS query API (signing name rds, the one DocDB's
// SDK client speaks) for DocumentDB: DescribeDBClusters and
// DescribeDBInstances from the world's AWS::DocDB::DBCluster and DBInstance
// models (by identifier, else their identifier property, matched without
// regard to case as RDS does), answering what the model holds in the API's
// shape — DBClusterParameterGroupName as DBClusterParameterGroup,
// DBSubnetGroupName as DBSubnetGroup, VpcSecurityGroupIds as
// <VpcSecurityGroupMembership>s, EnableCloudwatchLogsExports as
// EnabledCloudwatchLogsExports, EnablePerformanceInsights as
// PerformanceInsightsEnabled; a master password is never answered.
// ListTagsForResource lists a model's Tags by its ARN (cluster:<id>,
// db:<id>). Pages are MaxRecords (20-100) and Marker; a missing cluster is
// DBClusterNotFoundFault, a missing instance DBInstanceNotFound (404).
func docDBService() *service {
	return &service{
		name:     "rds",
		protocol: protoQuery,
		xmlns:    "http://rds.amazonaws.com/doc/2014-10-31/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"DescribeDBClusters":  (*Server).docDBDescribeClusters,
			"DescribeDBInstances": (*Server).docDBDescribeInstances,
			"ListTagsForResource": (*Server).docDBListTags,
		},
	}
}

// docDBKind is what differs between clusters and instances.
type docDBKind struct {
	typ, idProp, idParam, arnKind, item, list, fault, noun string
	status                                                 [2]string
	// renames are template property → API field; the other properties
	// of the model the API answers under their own name are in plain.
	renames map[string]string
	plain   []string
}

var (
	docDBCluster = docDBKind{typ: "AWS::DocDB::DBCluster", idProp: "DBClusterIdentifier", idParam: "DBClusterIdentifier", arnKind: "cluster",
		item: "DBCluster", list: "DBClusters", fault: "DBClusterNotFoundFault", noun: "DBCluster", status: [2]string{"Status", "available"},
		renames: map[string]string{"DBClusterParameterGroupName": "DBClusterParameterGroup", "DBSubnetGroupName": "DBSubnetGroup"},
		plain: []string{"BackupRetentionPeriod", "DeletionProtection", "EngineVersion", "KmsKeyId", "MasterUsername", "NetworkType", "Port",
			"PreferredBackupWindow", "PreferredMaintenanceWindow", "StorageEncrypted", "StorageType"}}
	docDBInstance = docDBKind{typ: "AWS::DocDB::DBInstance", idProp: "DBInstanceIdentifier", idParam: "DBInstanceIdentifier", arnKind: "db",
		item: "DBInstance", list: "DBInstances", fault: "DBInstanceNotFound", noun: "DBInstance", status: [2]string{"DBInstanceStatus", "available"},
		renames: map[string]string{"EnablePerformanceInsights": "PerformanceInsightsEnabled"},
		plain:   []string{"AutoMinorVersionUpgrade", "AvailabilityZone", "CACertificateIdentifier", "DBClusterIdentifier", "DBInstanceClass", "PreferredMaintenanceWindow"}}
)

func docDBArn(c *call, kind, id string) string {
	return "arn:aws:rds:" + c.region + ":" + c.account + ":" + kind + ":" + id
}

// docDBModels returns the models of k by lower-cased identifier.
func (s *Server) docDBModels(c *call, k docDBKind) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	for _, r := range s.st.ofType(c.account, c.region, k.typ) {
		m, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		id, _ := m[k.idProp].(string)
		if id == "" {
			id = r.ccID()
		}
		m[k.idProp] = strings.ToLower(id)
		out[strings.ToLower(id)] = m
	}
	return out, nil
}

// docDBNode renders one model in the API's shape.
func docDBNode(c *call, k docDBKind, m map[string]any) *xnode {
	id, _ := m[k.idProp].(string)
	n := el(k.item, tx(k.idProp, id), tx("Engine", "docdb"), tx(k.status[0], k.status[1]), tx(k.item+"Arn", docDBArn(c, k.arnKind, id)))
	for _, p := range k.plain {
		if v, ok := m[p]; ok && p != k.idProp {
			if x := queryXML(p, v); x != nil {
				n.kids = append(n.kids, x)
			}
		}
	}
	for _, from := range sortedKeys(k.renames) {
		if v, ok := m[from]; ok {
			if x := queryXML(k.renames[from], v); x != nil {
				n.kids = append(n.kids, x)
			}
		}
	}
	if ids, ok := m["VpcSecurityGroupIds"].([]any); ok {
		var gs []*xnode
		for _, g := range ids {
			if s, ok := g.(string); ok {
				gs = append(gs, el("", tx("VpcSecurityGroupId", s), tx("Status", "active")))
			}
		}
		n.kids = append(n.kids, listOf("VpcSecurityGroups", "VpcSecurityGroupMembership", gs))
	}
	if logs, ok := m["EnableCloudwatchLogsExports"].([]any); ok {
		n.kids = append(n.kids, queryXML("EnabledCloudwatchLogsExports", logs))
	}
	if sc, ok := m["ServerlessV2ScalingConfiguration"].(map[string]any); ok {
		n.kids = append(n.kids, queryXML("ServerlessV2ScalingConfiguration", sc))
	}
	return n
}

func (s *Server) docDBDescribe(c *call, k docDBKind) (any, error) {
	size := 100
	if v := c.str("MaxRecords"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 20 || n > 100 {
			return nil, errf(400, "InvalidParameterValue", "Invalid value for MaxRecords: must be between 20 and 100")
		}
		size = n
	}
	off, ok := pageOffset("rds", c.str("Marker"))
	if !ok {
		return nil, errf(400, "InvalidParameterValue", "Invalid Marker")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	all, err := s.docDBModels(c, k)
	if err != nil {
		return nil, err
	}
	ids := sortedKeys(all)
	if want := c.str(k.idParam); want != "" {
		if all[strings.ToLower(want)] == nil {
			return nil, errf(404, k.fault, "%s %s not found.", k.noun, want)
		}
		ids = []string{strings.ToLower(want)}
	}
	var nodes []*xnode
	for _, id := range ids {
		nodes = append(nodes, docDBNode(c, k, all[id]))
	}
	lo, hi, next := page(len(nodes), off, size)
	out := el("", listOf(k.list, k.item, nodes[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("rds", next)))
	}
	return out, nil
}

func (s *Server) docDBDescribeClusters(c *call) (any, error) { return s.docDBDescribe(c, docDBCluster) }

func (s *Server) docDBDescribeInstances(c *call) (any, error) {
	return s.docDBDescribe(c, docDBInstance)
}

func (s *Server) docDBListTags(c *call) (any, error) {
	arn := c.str("ResourceName")
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, k := range []docDBKind{docDBCluster, docDBInstance} {
		prefix := docDBArn(c, k.arnKind, "")
		id, ok := strings.CutPrefix(arn, prefix)
		if !ok {
			continue
		}
		all, err := s.docDBModels(c, k)
		if err != nil {
			return nil, err
		}
		m := all[id]
		if m == nil {
			return nil, errf(404, k.fault, "%s %s not found.", k.noun, id)
		}
		var tags []*xnode
		for _, t := range objectList(m["Tags"]) {
			key, _ := t["Key"].(string)
			val, _ := t["Value"].(string)
			tags = append(tags, el("", tx("Key", key), tx("Value", val)))
		}
		return el("", listOf("TagList", "Tag", tags)), nil
	}
	return nil, errf(400, "InvalidParameterValue", "Invalid resource name: %s", arn)
}

// objectList returns the objects of a list value.
func objectList(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}
