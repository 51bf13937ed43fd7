package ecs

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func clusterName(s string) string {
	if i := strings.LastIndex(s, ":cluster/"); i >= 0 {
		return s[i+len(":cluster/"):]
	}
	return s
}

func ecsListServices(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		Cluster    string `json:"cluster"`
		NextToken  string `json:"nextToken"`
		MaxResults int    `json:"maxResults"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "ecs", Default: 10, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidParameterException", "maxResults must be between 1 and 100.")
		},
		BadToken: wire.Errf(400, "InvalidParameterException", "Invalid token")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	cluster := clusterName(in.Cluster)
	if cluster == "" {
		cluster = "default"
	}
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, cl := range st.OfType(c.Account, c.Region, "AWS::ECS::Cluster") {
		exists = exists || world.FieldString(cl, "ClusterName") == cluster || clusterName(cl.PhysicalID) == cluster
	}
	var arns []string
	for _, sv := range st.OfType(c.Account, c.Region, "AWS::ECS::Service") {
		if clusterName(world.FieldString(sv, "Cluster")) != cluster {
			continue
		}
		exists = true
		arn := world.FieldString(sv, "ServiceArn")
		if arn == "" {
			arn = sv.PhysicalID
		}
		arns = append(arns, arn)
	}
	if !exists {
		return nil, wire.Errf(400, "ClusterNotFoundException", "Cluster not found.")
	}
	sort.Strings(arns)
	lo, hi, next := cur.Cut(len(arns))
	out := map[string]any{"serviceArns": append([]string{}, arns[lo:hi]...)}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}
