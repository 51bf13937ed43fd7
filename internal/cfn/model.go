package cfn

import (
	"fmt"
)

// build turns a decoded long-form document into a Template, checking the
// shape of every section it models.
func build(doc any) (*Template, error) {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, modelErr("", "template must be a mapping, got %s", kind(doc))
	}
	t := &Template{
		Parameters: map[string]*Parameter{},
		Mappings:   map[string]map[string]map[string]any{},
		Conditions: map[string]any{},
		Resources:  map[string]*Resource{},
		Outputs:    map[string]*Output{},
		Rules:      map[string]any{},
		Metadata:   map[string]any{},
		Raw:        root,
	}
	var err error
	if t.FormatVersion, err = optString(root, "AWSTemplateFormatVersion", "AWSTemplateFormatVersion"); err != nil {
		return nil, err
	}
	if t.Description, err = optString(root, "Description", "Description"); err != nil {
		return nil, err
	}
	if t.Transform, err = stringList(root["Transform"], "Transform"); err != nil {
		return nil, err
	}
	if err := sectionMap(root, "Metadata", &t.Metadata); err != nil {
		return nil, err
	}
	if err := sectionMap(root, "Rules", &t.Rules); err != nil {
		return nil, err
	}
	if err := sectionMap(root, "Conditions", &t.Conditions); err != nil {
		return nil, err
	}
	if err := buildParameters(root, t); err != nil {
		return nil, err
	}
	if err := buildMappings(root, t); err != nil {
		return nil, err
	}
	if err := buildResources(root, t); err != nil {
		return nil, err
	}
	if err := buildOutputs(root, t); err != nil {
		return nil, err
	}
	return t, nil
}

func buildParameters(root map[string]any, t *Template) error {
	sec, err := section(root, "Parameters")
	if err != nil {
		return err
	}
	return eachMapping(sec, "Parameters", func(name, path string, decl map[string]any) error {
		var err error
		p := &Parameter{Name: name, Raw: decl}
		if p.Type, err = reqString(decl, "Type", path+".Type"); err != nil {
			return err
		}
		if d, ok := decl["Default"]; ok {
			if p.Default, err = defaultString(d, path+".Default"); err != nil {
				return err
			}
			p.HasDefault = true
		}
		if p.NoEcho, err = optBool(decl, "NoEcho", path+".NoEcho"); err != nil {
			return err
		}
		if av, ok := decl["AllowedValues"]; ok {
			list, ok := av.([]any)
			if !ok {
				return modelErr(path+".AllowedValues", "must be a list, got %s", kind(av))
			}
			for i, e := range list {
				s, ok := scalarString(e)
				if !ok {
					return modelErr(fmt.Sprintf("%s.AllowedValues.%d", path, i), "must be a scalar, got %s", kind(e))
				}
				p.AllowedValues = append(p.AllowedValues, s)
			}
		}
		if p.Description, err = optString(decl, "Description", path+".Description"); err != nil {
			return err
		}
		t.Parameters[name] = p
		return nil
	})
}

// defaultString reads a parameter Default. CloudFormation defaults are
// strings; numbers and booleans are read as their text, and a list of
// scalars (a YAML-written list default) as its comma-joined text.
func defaultString(v any, path string) (string, error) {
	if s, ok := scalarString(v); ok {
		return s, nil
	}
	list, ok := v.([]any)
	if !ok {
		return "", modelErr(path, "must be a string, got %s", kind(v))
	}
	out := ""
	for i, e := range list {
		s, ok := scalarString(e)
		if !ok {
			return "", modelErr(fmt.Sprintf("%s.%d", path, i), "must be a scalar, got %s", kind(e))
		}
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out, nil
}

func buildMappings(root map[string]any, t *Template) error {
	sec, err := section(root, "Mappings")
	if err != nil {
		return err
	}
	return eachMapping(sec, "Mappings", func(name, path string, top map[string]any) error {
		m := make(map[string]map[string]any, len(top))
		if err := eachMapping(top, path, func(k1, _ string, second map[string]any) error {
			m[k1] = second
			return nil
		}); err != nil {
			return err
		}
		t.Mappings[name] = m
		return nil
	})
}

func buildResources(root map[string]any, t *Template) error {
	raw, present := root["Resources"]
	if !present {
		return modelErr("Resources", "section is missing")
	}
	sec, err := asMapping(raw, "Resources")
	if err != nil {
		return err
	}
	return eachMapping(sec, "Resources", func(id, path string, entry map[string]any) error {
		r := &Resource{LogicalID: id, Raw: entry, Properties: map[string]any{}, Metadata: map[string]any{}}
		var err error
		if r.Type, err = reqString(entry, "Type", path+".Type"); err != nil {
			return err
		}
		if p, ok := entry["Properties"]; ok && p != nil {
			if r.Properties, err = asMapping(p, path+".Properties"); err != nil {
				return err
			}
		}
		if r.Condition, err = optString(entry, "Condition", path+".Condition"); err != nil {
			return err
		}
		if r.DependsOn, err = stringList(entry["DependsOn"], path+".DependsOn"); err != nil {
			return err
		}
		if r.DeletionPolicy, err = policy(entry, "DeletionPolicy", path); err != nil {
			return err
		}
		if r.UpdateReplacePolicy, err = policy(entry, "UpdateReplacePolicy", path); err != nil {
			return err
		}
		if md, ok := entry["Metadata"]; ok && md != nil {
			m, err := asMapping(md, path+".Metadata")
			if err != nil {
				return err
			}
			r.Metadata = m
			if cp, ok := m[ConstructPathKey].(string); ok {
				r.ConstructPath = cp
			}
		}
		t.Resources[id] = r
		return nil
	})
}

func buildOutputs(root map[string]any, t *Template) error {
	sec, err := section(root, "Outputs")
	if err != nil {
		return err
	}
	return eachMapping(sec, "Outputs", func(name, path string, entry map[string]any) error {
		o := &Output{Name: name, Raw: entry, Description: entry["Description"]}
		v, ok := entry["Value"]
		if !ok {
			return modelErr(path+".Value", "is missing")
		}
		o.Value = v
		if ex, ok := entry["Export"]; ok {
			em, err := asMapping(ex, path+".Export")
			if err != nil {
				return err
			}
			n, ok := em["Name"]
			if !ok || n == nil {
				return modelErr(path+".Export.Name", "is missing")
			}
			o.ExportName = n
		}
		var err error
		if o.Condition, err = optString(entry, "Condition", path+".Condition"); err != nil {
			return err
		}
		t.Outputs[name] = o
		return nil
	})
}

// stringList reads a value CloudFormation takes as one string or a list
// of strings (Transform, DependsOn).
func stringList(v any, path string) ([]string, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{t}, nil
	case []any:
		out := make([]string, 0, len(t))
		for i, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, modelErr(fmt.Sprintf("%s.%d", path, i), "must be a string, got %s", kind(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, modelErr(path, "must be a string or a list of strings, got %s", kind(v))
}

// policy reads a DeletionPolicy-like attribute: a string, or an intrinsic
// (kept in Resource.Raw only).
func policy(entry map[string]any, key, path string) (string, error) {
	switch t := entry[key].(type) {
	case nil, map[string]any:
		return "", nil
	case string:
		return t, nil
	default:
		return "", modelErr(path+"."+key, "must be a string, got %s", kind(t))
	}
}

func section(root map[string]any, name string) (map[string]any, error) {
	v, ok := root[name]
	if !ok || v == nil {
		return map[string]any{}, nil
	}
	return asMapping(v, name)
}

// asMapping is v as a mapping, or an error at path naming what v is.
func asMapping(v any, path string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, modelErr(path, "must be a mapping, got %s", kind(v))
	}
	return m, nil
}

// eachMapping calls each for every entry of sec, whose path is
// prefix.name; an entry that is not a mapping is an error.
func eachMapping(sec map[string]any, prefix string, each func(name, path string, entry map[string]any) error) error {
	for name, raw := range sec {
		path := prefix + "." + name
		entry, err := asMapping(raw, path)
		if err != nil {
			return err
		}
		if err := each(name, path, entry); err != nil {
			return err
		}
	}
	return nil
}

func sectionMap(root map[string]any, name string, dst *map[string]any) error {
	m, err := section(root, name)
	if err != nil {
		return err
	}
	*dst = m
	return nil
}

func reqString(m map[string]any, key, path string) (string, error) {
	v, ok := m[key]
	if !ok {
		return "", modelErr(path, "is missing")
	}
	s, ok := v.(string)
	if !ok {
		return "", modelErr(path, "must be a string, got %s", kind(v))
	}
	return s, nil
}

func optString(m map[string]any, key, path string) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", modelErr(path, "must be a string, got %s", kind(v))
	}
	return s, nil
}

// optBool reads a boolean written as true/false or "true"/"false".
func optBool(m map[string]any, key, path string) (bool, error) {
	switch t := m[key].(type) {
	case nil:
		return false, nil
	case bool:
		return t, nil
	case string:
		switch t {
		case "true", "True", "TRUE":
			return true, nil
		case "false", "False", "FALSE":
			return false, nil
		}
	}
	return false, modelErr(path, "must be true or false, got %v", describe(m[key]))
}

func modelErr(path, format string, args ...any) *Error {
	if path == "" {
		path = "(template)"
	}
	return &Error{Path: path, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// kind names a decoded value's JSON kind for error messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

func describe(v any) string {
	if s, ok := scalarString(v); ok {
		return fmt.Sprintf("%q", s)
	}
	return kind(v)
}
