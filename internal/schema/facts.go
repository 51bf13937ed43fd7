package schema

// Facts are the registry-schema facts of one resource type that the
// classifier, the readers and the revert planner need. Paths are dotted from
// the top of the resource's properties, with "*" for any array item
// (e.g. "LifecycleConfiguration.Rules.*.Prefix").
//
// The JSON form of the first eleven fields is the golden corpus's "schema"
// object, so corpus cases decode straight into Facts.
type Facts struct {
	ReadOnly   []string `json:"readOnly"`
	WriteOnly  []string `json:"writeOnly"`
	CreateOnly []string `json:"createOnly"`

	ReadOnlyPaths   []string `json:"readOnlyPaths"`
	WriteOnlyPaths  []string `json:"writeOnlyPaths"`
	CreateOnlyPaths []string `json:"createOnlyPaths"`

	// Defaults are top-level property defaults; DefaultPaths are defaults at
	// any depth, keyed by dotted path.
	Defaults     map[string]any `json:"defaults"`
	DefaultPaths map[string]any `json:"defaultPaths,omitempty"`

	// UnorderedScalarPaths and UnorderedObjectArrayPaths are the arrays the
	// schema marks insertionOrder: false, split by item shape.
	UnorderedScalarPaths      []string `json:"unorderedScalarPaths,omitempty"`
	UnorderedObjectArrayPaths []string `json:"unorderedObjectArrayPaths,omitempty"`
	// FreeFormMapPaths are object nodes with no fixed properties (user maps
	// such as Lambda Environment.Variables); a map-shaped Tags is excluded.
	FreeFormMapPaths []string `json:"freeFormMapPaths,omitempty"`

	// The fields below are not in the corpus shape.

	// PrimaryIdentifier and AdditionalIdentifiers are property paths.
	PrimaryIdentifier     []string   `json:"primaryIdentifier,omitempty"`
	AdditionalIdentifiers [][]string `json:"additionalIdentifiers,omitempty"`
	// ConditionalCreateOnlyPaths may or may not force replacement.
	ConditionalCreateOnlyPaths []string `json:"conditionalCreateOnlyPaths,omitempty"`
	// PropertyTransforms maps a dotted path to the schema's transform
	// expression (a value the service rewrites before storing).
	PropertyTransforms map[string]string `json:"propertyTransforms,omitempty"`
	// Taggable is the schema's tagging.taggable (true when absent).
	Taggable bool `json:"taggable,omitempty"`
	// TagProperty is the dotted path of the tags property, when taggable.
	TagProperty string `json:"tagProperty,omitempty"`
	// Handlers lists the Cloud Control handlers the type has: any of
	// "create", "read", "update", "delete", "list".
	Handlers []string `json:"handlers,omitempty"`
	// HandlerPermissions are, per handler, the IAM actions the schema says
	// its handler calls (Cloud Control runs the handler with the caller's
	// credentials, so the caller needs them), as the schema writes them.
	HandlerPermissions map[string][]string `json:"handlerPermissions,omitempty"`
}

// Readable reports whether Cloud Control can read the type.
func (f *Facts) Readable() bool { return f.has("read") }

// Updatable reports whether Cloud Control can update the type.
func (f *Facts) Updatable() bool { return f.has("update") }

// Provisionable reports whether Cloud Control can create the type.
func (f *Facts) Provisionable() bool { return f.has("create") }

func (f *Facts) has(h string) bool {
	for _, x := range f.Handlers {
		if x == h {
			return true
		}
	}
	return false
}

// Clone returns a deep copy of f.
func (f *Facts) Clone() *Facts {
	c := *f
	c.ReadOnly = cloneStrings(f.ReadOnly)
	c.WriteOnly = cloneStrings(f.WriteOnly)
	c.CreateOnly = cloneStrings(f.CreateOnly)
	c.ReadOnlyPaths = cloneStrings(f.ReadOnlyPaths)
	c.WriteOnlyPaths = cloneStrings(f.WriteOnlyPaths)
	c.CreateOnlyPaths = cloneStrings(f.CreateOnlyPaths)
	c.Defaults = cloneValues(f.Defaults)
	c.DefaultPaths = cloneValues(f.DefaultPaths)
	c.UnorderedScalarPaths = cloneStrings(f.UnorderedScalarPaths)
	c.UnorderedObjectArrayPaths = cloneStrings(f.UnorderedObjectArrayPaths)
	c.FreeFormMapPaths = cloneStrings(f.FreeFormMapPaths)
	c.PrimaryIdentifier = cloneStrings(f.PrimaryIdentifier)
	if f.AdditionalIdentifiers != nil {
		c.AdditionalIdentifiers = make([][]string, len(f.AdditionalIdentifiers))
		for i, ids := range f.AdditionalIdentifiers {
			c.AdditionalIdentifiers[i] = cloneStrings(ids)
		}
	}
	c.ConditionalCreateOnlyPaths = cloneStrings(f.ConditionalCreateOnlyPaths)
	if f.PropertyTransforms != nil {
		c.PropertyTransforms = make(map[string]string, len(f.PropertyTransforms))
		for k, v := range f.PropertyTransforms {
			c.PropertyTransforms[k] = v
		}
	}
	c.Handlers = cloneStrings(f.Handlers)
	if f.HandlerPermissions != nil {
		c.HandlerPermissions = make(map[string][]string, len(f.HandlerPermissions))
		for h, ps := range f.HandlerPermissions {
			c.HandlerPermissions[h] = cloneStrings(ps)
		}
	}
	return &c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

func cloneValues(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneValues(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}
