package ecs

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "strings"

// ecsDescribeServices serves DescribeServices from the world's
// AWS::ECS::Service models in the request's cluster (default "default"),
// each named by its ARN or name (at most 10). A service is answered with
// one PRIMARY deployment carrying the model's ServiceConnectConfiguration
// and VolumeConfigurations in the API's camelCase (log options keep their
// keys); one not in the cluster is a MISSING failure, and an unknown
// cluster a ClusterNotFoundException, as ECS answers.
func ecsDescribeServices(st *world.State, c *wire.Call, in struct {
	Cluster  string   `json:"cluster"`
	Services []string `json:"services"`
}) (any, error) {
	if len(in.Services) == 0 || len(in.Services) > 10 {
		return nil, wire.Errf(400, "InvalidParameterException", "services can have at most 10 items and at least 1.")
	}
	cluster := clusterName(in.Cluster)
	if cluster == "" {
		cluster = "default"
	}
	exists := false
	for _, cl := range st.OfType(c.Account, c.Region, "AWS::ECS::Cluster") {
		exists = exists || world.FieldString(cl, "ClusterName") == cluster || clusterName(cl.PhysicalID) == cluster
	}
	var inCluster []*world.Resource
	for _, sv := range st.OfType(c.Account, c.Region, "AWS::ECS::Service") {
		if clusterName(world.FieldString(sv, "Cluster")) == cluster {
			exists = true
			if !sv.Deleted {
				inCluster = append(inCluster, sv)
			}
		}
	}
	if !exists {
		return nil, wire.Errf(400, "ClusterNotFoundException", "Cluster not found.")
	}
	clusterArn := "arn:aws:ecs:" + c.Region + ":" + c.Account + ":cluster/" + cluster
	services, failures := []any{}, []any{}
	for _, want := range in.Services {
		var hit *world.Resource
		for _, sv := range inCluster {
			if arn, name := ecsServiceIDs(sv); want == arn || want == name {
				hit = sv
			}
		}
		if hit == nil {
			arn := want
			if !strings.HasPrefix(want, "arn:") {
				arn = "arn:aws:ecs:" + c.Region + ":" + c.Account + ":service/" + cluster + "/" + want
			}
			failures = append(failures, map[string]any{"arn": arn, "reason": "MISSING"})
			continue
		}
		arn, name := ecsServiceIDs(hit)
		dep := map[string]any{"id": "ecs-svc/" + world.ShortHash(arn, 19), "status": "PRIMARY", "taskDefinition": world.FieldString(hit, "TaskDefinition")}
		if v := world.FieldValue(hit, "ServiceConnectConfiguration"); v != nil {
			sc := wire.CamelModel(v, nil).(map[string]any)
			if lc, ok := sc["logConfiguration"].(map[string]any); ok {
				if orig, ok := v.(map[string]any)["LogConfiguration"].(map[string]any); ok && orig["Options"] != nil {
					lc["options"] = orig["Options"]
					delete(lc, "Options")
				}
			}
			dep["serviceConnectConfiguration"] = sc
		}
		if v := world.FieldValue(hit, "VolumeConfigurations"); v != nil {
			dep["volumeConfigurations"] = wire.CamelModel(v, nil)
		}
		svc := map[string]any{"serviceArn": arn, "serviceName": name, "clusterArn": clusterArn, "status": "ACTIVE", "deployments": []any{dep}}
		if v := world.FieldString(hit, "TaskDefinition"); v != "" {
			svc["taskDefinition"] = v
		}
		if v := world.FieldString(hit, "LaunchType"); v != "" {
			svc["launchType"] = v
		}
		if v, ok := world.FieldValue(hit, "DesiredCount").(float64); ok {
			svc["desiredCount"] = v
		}
		services = append(services, svc)
	}
	return map[string]any{"services": services, "failures": failures}, nil
}

// ecsServiceIDs are a service model's ARN (ServiceArn, else the physical
// id) and name (ServiceName, else Name, else the ARN's last part).
func ecsServiceIDs(r *world.Resource) (arn, name string) {
	arn = world.FieldString(r, "ServiceArn")
	if arn == "" {
		arn = r.PhysicalID
	}
	name = world.FieldString(r, "ServiceName")
	if name == "" {
		name = world.FieldString(r, "Name")
	}
	if name == "" {
		name = arn[strings.LastIndex(arn, "/")+1:]
	}
	return arn, name
}
