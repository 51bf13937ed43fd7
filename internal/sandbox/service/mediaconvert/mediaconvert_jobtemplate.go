package mediaconvert

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "strings"

// MediaConvert job templates: GET /2017-08-29/jobTemplates/{name} answers
// the world's AWS::MediaConvert::JobTemplate model of that name (Name,
// else the identifier) in the API's camelCase shape: its SettingsJson as
// the settings (already in that shape), a queue name as the queue's ARN,
// plus its ARN, type and times; its Tags map is what ListTagsForResource
// answers by that ARN. An unknown template is NotFoundException.

func mediaConvertJobTemplate(st *world.State, c *wire.Call, name string) (map[string]any, error) {
	m, err := st.Named(c.Account, c.Region, "AWS::MediaConvert::JobTemplate", name)
	if err == nil && m == nil {
		err = wire.Errf(404, "NotFoundException", "The specified job template %s doesn't exist.", name)
	}
	return m, err
}

func mediaConvertJobTemplateArn(c *wire.Call, name string) string {
	return "arn:aws:mediaconvert:" + c.Region + ":" + c.Account + ":jobTemplates/" + name
}

func mediaConvertGetJobTemplate(st *world.State, c *wire.Call) (any, error) {
	name := c.Params["name"]
	st.RLock()
	defer st.RUnlock()
	m, err := mediaConvertJobTemplate(st, c, name)
	if err != nil {
		return nil, err
	}
	settings, hasSettings := m["SettingsJson"]
	delete(m, "Tags")
	delete(m, "SettingsJson")
	jt := wire.CamelModel(m, nil).(map[string]any)
	if hasSettings {
		jt["settings"] = settings
	}
	if q, ok := jt["queue"].(string); ok && !strings.HasPrefix(q, "arn:") {
		jt["queue"] = mediaConvertQueueArn(c, q)
	}
	jt["arn"], jt["type"] = mediaConvertJobTemplateArn(c, name), "CUSTOM"
	jt["createdAt"], jt["lastUpdated"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
	return map[string]any{"jobTemplate": jt}, nil
}
