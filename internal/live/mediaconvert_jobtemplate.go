package live

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/mediaconvert"
)

// AWS::MediaConvert::JobTemplate (Cloud Control cannot read it) through
// GetJobTemplate by its name (the physical id) and ListTagsForResource by
// its ARN: {Name, Description, Category, Priority, Queue,
// StatusUpdateInterval, AccelerationSettings, HopDestinations,
// SettingsJson, Tags (the template's map)}. The job settings are read from
// the answer's JSON as MediaConvert sent it (camelCase, the shape
// SettingsJson is written in); the other members are renamed to the
// template's PascalCase. A queue the API answers as an ARN is the declared
// queue name when it names that queue. The template's type, ARN and
// times are MediaConvert's own and dropped; tags that cannot be read skip
// the read.

type mediaConvertJobTemplateAPI interface {
	GetJobTemplate(ctx context.Context, in *mediaconvert.GetJobTemplateInput, optFns ...func(*mediaconvert.Options)) (*mediaconvert.GetJobTemplateOutput, error)
}

var _ mediaConvertJobTemplateAPI = (*mediaconvert.Client)(nil)

// jobTemplateProps are the API members read (camelCase) as template
// properties.
var jobTemplateProps = map[string]string{"name": "Name", "description": "Description", "category": "Category", "priority": "Priority",
	"queue": "Queue", "statusUpdateInterval": "StatusUpdateInterval", "accelerationSettings": "AccelerationSettings",
	"hopDestinations": "HopDestinations", "settings": "SettingsJson"}

// pascalModel renames every key of v to PascalCase.
func pascalModel(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			r, n := utf8.DecodeRuneInString(k)
			out[string(unicode.ToUpper(r))+k[n:]] = pascalModel(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = pascalModel(e)
		}
		return out
	}
	return v
}

// queueAsDeclared returns the declared queue name when the answered queue
// ARN names it, else the answer.
func queueAsDeclared(live any, declared any) any {
	l, _ := live.(string)
	d, ok := declared.(string)
	if ok && !strings.HasPrefix(d, "arn:") && strings.HasSuffix(l, ":queues/"+d) {
		return d
	}
	return live
}

// readMediaConvertJobTemplate reads AWS::MediaConvert::JobTemplate.
func readMediaConvertJobTemplate(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.MediaConvert == nil {
		return nil, skip("no MediaConvert client")
	}
	var raw rawJSON
	out, err := c.MediaConvert.GetJobTemplate(ctx, &mediaconvert.GetJobTemplateInput{Name: &r.PhysicalID},
		func(o *mediaconvert.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
	if err != nil {
		return nil, err
	}
	jt, err := raw.object("jobTemplate")
	if err != nil {
		return nil, err
	}
	if out.JobTemplate == nil || jt == nil {
		return nil, fmt.Errorf("job template %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := map[string]any{}
	for from, to := range jobTemplateProps {
		if v, ok := jt[from]; ok {
			if from != "settings" {
				v = pascalModel(v)
			}
			m[to] = v
		}
	}
	if q, ok := m["Queue"]; ok {
		m["Queue"] = queueAsDeclared(q, r.Declared["Queue"])
	}
	for _, h := range objectsAt(m, "HopDestinations") {
		if q, ok := h["Queue"]; ok {
			h["Queue"] = queueAsDeclared(q, nil)
		}
	}
	arn := deref(out.JobTemplate.Arn)
	if arn == "" {
		return nil, skip("MediaConvert GetJobTemplate answered no ARN: the tags cannot be read")
	}
	tags, err := c.MediaConvert.ListTagsForResource(ctx, &mediaconvert.ListTagsForResourceInput{Arn: &arn})
	if err != nil {
		return nil, err
	}
	if tags.ResourceTags != nil && len(tags.ResourceTags.Tags) > 0 {
		ts := map[string]any{}
		for k, v := range tags.ResourceTags.Tags {
			ts[k] = v
		}
		m["Tags"] = ts
	}
	return m, nil
}
