package glue

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

var glueClassifierKinds = []string{"CsvClassifier", "GrokClassifier", "JsonClassifier", "XMLClassifier"}

func glueClassifier(st *world.State, c *wire.Call, name string) (map[string]any, error) {
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Glue::Classifier") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		n := r.CCID()
		for _, k := range glueClassifierKinds {
			if o, ok := m[k].(map[string]any); ok {
				if on, _ := o["Name"].(string); on != "" {
					n = on
				}
			}
		}
		if n == name {
			return m, nil
		}
	}
	return nil, wire.Errf(400, "EntityNotFoundException", "Classifier %s not found", name)
}

func glueWorkflow(st *world.State, c *wire.Call, name string) (map[string]any, error) {
	m, err := st.Named(c.Account, c.Region, "AWS::Glue::Workflow", name)
	if err == nil && m == nil {
		err = wire.Errf(400, "EntityNotFoundException", "Workflow with name: %s not found", name)
	}
	return m, err
}

func glueGetClassifier(st *world.State, c *wire.Call, in struct{ Name string }) (any, error) {
	m, err := glueClassifier(st, c, in.Name)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, k := range glueClassifierKinds {
		if o, ok := m[k].(map[string]any); ok {
			o["Version"] = 1
			o["CreationTime"], o["LastUpdated"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
			out[k] = o
		}
	}
	return map[string]any{"Classifier": out}, nil
}

func glueGetWorkflow(st *world.State, c *wire.Call, in struct{ Name string }) (any, error) {
	m, err := glueWorkflow(st, c, in.Name)
	if err != nil {
		return nil, err
	}
	delete(m, "Tags")
	m["CreatedOn"], m["LastModifiedOn"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
	return map[string]any{"Workflow": m}, nil
}

func glueGetTags(st *world.State, c *wire.Call, in struct{ ResourceArn string }) (any, error) {
	name := world.ARNTail(in.ResourceArn, ":workflow/")
	if in.ResourceArn != "arn:aws:glue:"+c.Region+":"+c.Account+":workflow/"+name {
		return nil, wire.Errf(400, "EntityNotFoundException", "Resource %s not found", in.ResourceArn)
	}
	m, err := glueWorkflow(st, c, name)
	if err != nil {
		return nil, err
	}
	tags := map[string]any{}
	if t, ok := m["Tags"].(map[string]any); ok {
		tags = t
	}
	return map[string]any{"Tags": tags}, nil
}
