package mediaconvert

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func mediaConvertQueue(st *world.State, c *wire.Call, name string) (map[string]any, error) {
	m, err := st.Named(c.Account, c.Region, "AWS::MediaConvert::Queue", name)
	if err == nil && m == nil {
		err = wire.Errf(404, "NotFoundException", "The specified queue %s doesn't exist.", name)
	}
	return m, err
}

func mediaConvertQueueArn(c *wire.Call, name string) string {
	return "arn:aws:mediaconvert:" + c.Region + ":" + c.Account + ":queues/" + name
}

func mediaConvertGetQueue(st *world.State, c *wire.Call) (any, error) {
	name := c.Params["name"]
	st.RLock()
	defer st.RUnlock()
	m, err := mediaConvertQueue(st, c, name)
	if err != nil {
		return nil, err
	}
	delete(m, "Tags")
	q := wire.CamelModel(m, nil).(map[string]any)
	q["arn"], q["type"] = mediaConvertQueueArn(c, name), "CUSTOM"
	q["createdAt"], q["lastUpdated"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
	return map[string]any{"queue": q}, nil
}

func mediaConvertListTags(st *world.State, c *wire.Call) (any, error) {
	arn := c.Params["arn"]
	st.RLock()
	defer st.RUnlock()
	var m map[string]any
	var err error
	switch {
	case arn == mediaConvertQueueArn(c, world.ARNTail(arn, ":queues/")):
		m, err = mediaConvertQueue(st, c, world.ARNTail(arn, ":queues/"))
	case arn == mediaConvertJobTemplateArn(c, world.ARNTail(arn, ":jobTemplates/")):
		m, err = mediaConvertJobTemplate(st, c, world.ARNTail(arn, ":jobTemplates/"))
	default:
		return nil, wire.Errf(404, "NotFoundException", "The resource %s doesn't exist.", arn)
	}
	if err != nil {
		return nil, err
	}
	tags := map[string]any{}
	if t, ok := m["Tags"].(map[string]any); ok {
		tags = t
	}
	return map[string]any{"resourceTags": map[string]any{"arn": arn, "tags": tags}}, nil
}
