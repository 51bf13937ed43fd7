package sagemaker

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "strings"

// sageMakerKind is one SageMaker type's naming facts.
type sageMakerKind struct{ typ, nameProp, arnKind, arnField string }

var (
	smEndpointConfig     = sageMakerKind{"AWS::SageMaker::EndpointConfig", "EndpointConfigName", "endpoint-config", "EndpointConfigArn"}
	smMonitoringSchedule = sageMakerKind{"AWS::SageMaker::MonitoringSchedule", "MonitoringScheduleName", "monitoring-schedule", "MonitoringScheduleArn"}
)

func (k sageMakerKind) arn(c *wire.Call, name string) string {
	return "arn:aws:sagemaker:" + c.Region + ":" + c.Account + ":" + k.arnKind + "/" + name
}

// sageMakerModel returns the model of k named name (its name set).
func sageMakerModel(st *world.State, c *wire.Call, k sageMakerKind, name string) (map[string]any, error) {
	for _, r := range st.OfType(c.Account, c.Region, k.typ) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		n, _ := m[k.nameProp].(string)
		if n == "" {
			n = world.ARNTail(r.CCID(), ":"+k.arnKind+"/")
		}
		if n == name {
			m[k.nameProp] = n
			return m, nil
		}
	}
	return nil, nil
}

func sageMakerDescribe(st *world.State, c *wire.Call, k sageMakerKind, missing func(string) error) (map[string]any, error) {
	var in map[string]string
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	name := in[k.nameProp]
	st.RLock()
	defer st.RUnlock()
	m, err := sageMakerModel(st, c, k, name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, missing(name)
	}
	delete(m, "Tags")
	m[k.arnField], m["CreationTime"] = k.arn(c, name), wire.Epoch(world.DefaultTime)
	return m, nil
}

func sageMakerDescribeEndpointConfig(st *world.State, c *wire.Call) (any, error) {
	return sageMakerDescribe(st, c, smEndpointConfig, func(name string) error {
		return wire.Errf(400, "ValidationException", "Could not find endpoint configuration \"%s\".", smEndpointConfig.arn(c, name))
	})
}

func sageMakerDescribeMonitoringSchedule(st *world.State, c *wire.Call) (any, error) {
	m, err := sageMakerDescribe(st, c, smMonitoringSchedule, func(name string) error {
		return wire.Errf(400, "ResourceNotFound", "Monitoring schedule %s does not exist.", name)
	})
	if err != nil {
		return nil, err
	}
	m["MonitoringScheduleStatus"], m["LastModifiedTime"] = "Scheduled", wire.Epoch(world.DefaultTime)
	if cfg, ok := m["MonitoringScheduleConfig"].(map[string]any); ok && cfg["MonitoringType"] != nil {
		m["MonitoringType"] = cfg["MonitoringType"]
	}
	return m, nil
}

func sageMakerListTags(st *world.State, c *wire.Call, in struct {
	ResourceArn, NextToken string
	MaxResults             int
}) (any, error) {
	cur, err := wire.Paging{Prefix: "sagemaker", Default: 50,
		BadToken: wire.Errf(400, "ValidationException", "Invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	for _, k := range []sageMakerKind{smEndpointConfig, smMonitoringSchedule} {
		prefix := k.arn(c, "")
		if !strings.HasPrefix(in.ResourceArn, prefix) {
			continue
		}
		m, err := sageMakerModel(st, c, k, strings.TrimPrefix(in.ResourceArn, prefix))
		if err != nil {
			return nil, err
		}
		if m == nil {
			break
		}
		tags := []any{}
		for _, t := range world.Objects(m["Tags"]) {
			tags = append(tags, map[string]any{"Key": t["Key"], "Value": t["Value"]})
		}
		lo, hi, next := cur.Cut(len(tags))
		out := map[string]any{"Tags": tags[lo:hi]}
		if next != "" {
			out["NextToken"] = next
		}
		return out, nil
	}
	return nil, wire.Errf(400, "ValidationException", "Resource %s does not exist.", in.ResourceArn)
}
