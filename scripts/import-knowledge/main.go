// Command import-knowledge turns the per-type AWS facts that cdk-real-drift
// observed (../shared/knowledge/cdkrd-facts.json, Apache-2.0) into the
// classifier's own committed table, internal/classify/imported.json, so a
// fresh clone needs no ../shared. Only data crosses: every rule that applies
// a fact is the classifier's own (seed 002 §6 names them).
//
// Usage (through go generate ./internal/classify/):
//
//	go run ./scripts/import-knowledge [-in FILE] [-out FILE] [-awsfacts FILE] [-documented FILE]
//
// What it writes:
//   - values: (type, path, tier, value template) rows in the known-values
//     form (classify.KnownValue), each an equality-gated fold: the plain
//     defaults and their one-of alternatives, nested-path defaults (a "*"
//     segment written both as an index "A.*.B" and as an identity-keyed
//     element "A[*].B"), own-account / own-region / own-partition
//     defaults as value templates, the minted defaults (generated), the
//     ELB attribute-bag and Elastic Beanstalk option defaults per key (an
//     option with no value is the platform's unset entry), and AWS's
//     managed default names as anchored patterns (pattern rows, written
//     to the watched table below).
//     A row may carry a condition on a top-level property of the resource
//     (the ELB defaults that depend on the load balancer's type or the
//     target group's protocol / target type) and may compare one field of
//     an element (an option setting's Value) instead of the whole element;
//     an object default may be compared subset-tolerantly (every listed
//     leaf equal, every other leaf empty).
//   - types: per-type path facts for the classifier's existing mechanisms
//     (unordered scalar and object sets, identity fields, order-significant
//     arrays, case-insensitive strings and keys, version-prefix and LATEST
//     tracks, collections the read never returns, Redis ACL strings,
//     epoch-hour rounding, the undeclared objects reported per sub-key),
//     plus the paths AWS picks per resource (watched, including the
//     Elastic Beanstalk options AWS moves by itself) and the paths it
//     mints (minted), which no fold may hide without a baseline.
//   - watchedShapes: the one table of folds that do not pin a value —
//     every pattern row (AWS's managed default names from the facts file,
//     and the pattern rows of awsfacts.json and documented.json with
//     their conditions and sources): values AWS names or assigns by shape,
//     atDefault on a first check and watched by the baseline.
//
// The output depends only on the input file: two runs give the same bytes.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/normalize"
)

func main() {
	in := flag.String("in", "../../../shared/knowledge/cdkrd-facts.json", "cdk-real-drift facts file")
	out := flag.String("out", "imported.json", "table to write")
	awsFacts := flag.String("awsfacts", "awsfacts.json", "hand-kept AWS facts whose pattern rows join the watched table")
	documented := flag.String("documented", "documented.json", "documented defaults whose pattern rows join the watched table")
	flag.Parse()
	if err := run(*in, *out, *awsFacts, *documented); err != nil {
		fmt.Fprintln(os.Stderr, "import-knowledge:", err)
		os.Exit(1)
	}
}

type facts struct {
	Source map[string]string          `json:"source"`
	Tables map[string]json.RawMessage `json:"tables"`
}

func run(in, out, awsFacts, documented string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var f facts
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	t, err := build(f)
	if err != nil {
		return err
	}
	var tables []*classify.Imported
	for _, name := range []string{awsFacts, documented} {
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var x classify.Imported
		if err := json.Unmarshal(b, &x); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		tables = append(tables, &x)
	}
	if err := watchShapes(t, tables[0], tables[1]); err != nil {
		return err
	}
	// One value row and one type per line, so a regeneration diffs by fact.
	var buf bytes.Buffer
	buf.WriteString("{\"source\":")
	if err := encode(&buf, t.Source); err != nil {
		return err
	}
	buf.WriteString(",\n\"types\":{")
	typs := make([]string, 0, len(t.Types))
	for k := range t.Types {
		typs = append(typs, k)
	}
	sort.Strings(typs)
	for i, k := range typs {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n")
		if err := encode(&buf, k); err != nil {
			return err
		}
		buf.WriteByte(':')
		if err := encode(&buf, t.Types[k]); err != nil {
			return err
		}
	}
	buf.WriteString("},\n\"values\":[")
	for i, r := range t.Values {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n")
		if err := encode(&buf, r); err != nil {
			return err
		}
	}
	buf.WriteString("\n]}\n")
	if !json.Valid(buf.Bytes()) {
		return fmt.Errorf("%s: generated invalid JSON", out)
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func encode(buf *bytes.Buffer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Write(bytes.TrimRight(b.Bytes(), "\n"))
	return nil
}

func build(f facts) (*classify.Imported, error) {
	t := &classify.Imported{Source: f.Source, Types: map[string]*classify.ImportedFacts{}}
	consumed := map[string]bool{}
	get := func(name string, v any) error {
		consumed[name] = true
		raw, ok := f.Tables[name]
		if !ok {
			return fmt.Errorf("table %s missing", name)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("table %s: %w", name, err)
		}
		return nil
	}
	var rows []classify.ImportedValue
	add := func(r classify.ImportedValue) { rows = append(rows, r) }

	// Plain defaults, top-level and nested.
	var defaults, defaultPaths map[string]map[string]any
	if err := get("KNOWN_DEFAULTS", &defaults); err != nil {
		return nil, err
	}
	if err := get("KNOWN_DEFAULT_PATHS", &defaultPaths); err != nil {
		return nil, err
	}
	for _, m := range []map[string]map[string]any{defaults, defaultPaths} {
		for typ, props := range m {
			for p, v := range props {
				for _, kp := range keyPaths(p) {
					add(classify.ImportedValue{Type: typ, Path: kp, Tier: "atDefault", Value: normalize.Canonical(v), Subset: isObject(v)})
				}
			}
		}
	}
	var oneOf, oneOfPaths map[string]map[string][]any
	if err := get("KNOWN_DEFAULT_ONE_OF", &oneOf); err != nil {
		return nil, err
	}
	if err := get("KNOWN_DEFAULT_ONE_OF_PATHS", &oneOfPaths); err != nil {
		return nil, err
	}
	for _, m := range []map[string]map[string][]any{oneOf, oneOfPaths} {
		for typ, props := range m {
			for p, vs := range props {
				for _, v := range vs {
					for _, kp := range keyPaths(p) {
						add(classify.ImportedValue{Type: typ, Path: kp, Tier: "atDefault", Value: normalize.Canonical(v), Subset: isObject(v)})
					}
				}
			}
		}
	}

	// Own-context defaults: the region, a list of it, an ARN over the own
	// partition, region and account.
	var ctxDefaults map[string]map[string]string
	if err := get("CONTEXT_DEFAULTS", &ctxDefaults); err != nil {
		return nil, err
	}
	for typ, props := range ctxDefaults {
		for p, kind := range props {
			var v any
			switch kind {
			case "region":
				v = sentinelRegion
			case "regionList":
				v = []any{sentinelRegion}
			default:
				return nil, fmt.Errorf("CONTEXT_DEFAULTS %s %s: unknown kind %q", typ, p, kind)
			}
			add(classify.ImportedValue{Type: typ, Path: p, Tier: "atDefault", Value: template(v)})
		}
	}
	var arnDefaults map[string]map[string]any
	if err := get("CONTEXT_ARN_DEFAULTS", &arnDefaults); err != nil {
		return nil, err
	}
	for typ, props := range arnDefaults {
		for p, v := range props {
			for _, part := range partitions {
				add(classify.ImportedValue{Type: typ, Path: p, Tier: "atDefault", Value: template(substitute(v, part))})
			}
		}
	}
	var genDefaults map[string]map[string]any
	if err := get("GENERATED_DEFAULTS", &genDefaults); err != nil {
		return nil, err
	}
	for typ, props := range genDefaults {
		for p, v := range props {
			add(classify.ImportedValue{Type: typ, Path: p, Tier: "generated", Value: template(substitute(v, "aws")), Subset: isObject(v)})
		}
	}

	// ELB attribute bags, per key; the defaults that depend on the load
	// balancer type, target protocol or target type carry a condition, and
	// the unconditional default of a key some condition overrides holds
	// only outside those conditions.
	var elb map[string]map[string]string
	if err := get("ELB_ATTRIBUTE_DEFAULTS", &elb); err != nil {
		return nil, err
	}
	cond := map[string]map[string]map[string]map[string]string{} // type → prop → value → key → default
	for _, c := range []struct{ table, typ, prop string }{
		{"ELB_ATTRIBUTE_DEFAULTS_BY_LB_TYPE", "AWS::ElasticLoadBalancingV2::LoadBalancer", "Type"},
		{"ELB_TG_ATTRIBUTE_DEFAULTS_BY_PROTOCOL", "AWS::ElasticLoadBalancingV2::TargetGroup", "Protocol"},
		{"ELB_TG_ATTRIBUTE_DEFAULTS_BY_TARGET_TYPE", "AWS::ElasticLoadBalancingV2::TargetGroup", "TargetType"},
	} {
		var m map[string]map[string]string
		if err := get(c.table, &m); err != nil {
			return nil, err
		}
		if cond[c.typ] == nil {
			cond[c.typ] = map[string]map[string]map[string]string{}
		}
		cond[c.typ][c.prop] = m
	}
	for typ, keys := range elb {
		bag, ok := elbBags[typ]
		if !ok {
			return nil, fmt.Errorf("ELB_ATTRIBUTE_DEFAULTS: no attribute bag known for %s", typ)
		}
		for k, v := range keys {
			r := classify.ImportedValue{Type: typ, Path: bag + "[" + k + "]", Tier: "atDefault", Value: normalize.Canonical(v)}
			for prop, byValue := range cond[typ] {
				for cv, ck := range byValue {
					if _, over := ck[k]; over {
						r.Unless = appendCond(r.Unless, prop, cv)
					}
				}
			}
			add(r)
		}
	}
	for typ, byProp := range cond {
		for prop, byValue := range byProp {
			for cv, keys := range byValue {
				for k, v := range keys {
					add(classify.ImportedValue{Type: typ, Path: elbBags[typ] + "[" + k + "]", Tier: "atDefault", Value: normalize.Canonical(v),
						When: []classify.ImportedCond{{Prop: prop, Values: []string{cv}}}})
				}
			}
		}
	}

	// Elastic Beanstalk option settings: the option's Value.
	var eb map[string]string
	if err := get("EB_OPTION_DEFAULTS", &eb); err != nil {
		return nil, err
	}
	for _, typ := range ebTypes {
		for k, v := range eb {
			add(classify.ImportedValue{Type: typ, Path: "OptionSettings[" + k + "]", Tier: "atDefault", Value: normalize.Canonical(v), Field: "Value"})
		}
	}

	// Options whose default follows the environment type (its own option
	// setting; LoadBalanced when unset, EB's default).
	var ebDerived map[string]map[string]string
	if err := get("EB_OPTION_DERIVED", &ebDerived); err != nil {
		return nil, err
	}
	const envType = "OptionSettings[aws:elasticbeanstalk:environment|EnvironmentType].Value"
	for _, typ := range ebTypes {
		for k, byEnv := range ebDerived {
			for env, v := range byEnv {
				when := []string{env}
				if env == "LoadBalanced" {
					when = append(when, "")
				}
				add(classify.ImportedValue{Type: typ, Path: "OptionSettings[" + k + "]", Tier: "atDefault", Value: normalize.Canonical(v), Field: "Value",
					When: []classify.ImportedCond{{Prop: envType, Values: when}}})
			}
		}
	}

	// An option setting with no value (or an empty one) is the platform's
	// unset entry, whatever the option.
	for _, typ := range ebTypes {
		add(classify.ImportedValue{Type: typ, Path: "OptionSettings[*]", Tier: "atDefault", Value: `""`, Field: "Value"})
	}
	// Options AWS moves by itself (the platform's current AMI, asset URLs):
	// watched, not folded by value.
	var ebMoving []string
	if err := get("EB_OPTION_VALUE_INDEPENDENT", &ebMoving); err != nil {
		return nil, err
	}
	for _, typ := range ebTypes {
		for _, k := range ebMoving {
			f := t.Facts(typ)
			f.Watched = append(f.Watched, "OptionSettings["+k+"]")
		}
	}

	// AWS-managed default names (default.<family> parameter groups,
	// default:<engine>-<major>-<minor> option groups): pattern rows.
	var managed map[string]map[string]struct {
		Regex string `json:"$regex"`
		Flags string `json:"flags"`
	}
	if err := get("DEFAULT_MANAGED_NAME_PATHS", &managed); err != nil {
		return nil, err
	}
	for typ, props := range managed {
		for p, re := range props {
			if re.Flags != "" {
				return nil, fmt.Errorf("DEFAULT_MANAGED_NAME_PATHS %s %s: flags %q not supported", typ, p, re.Flags)
			}
			pat := re.Regex
			if full, ok := managedNameShapes[pat]; ok {
				pat = full
			}
			if !strings.HasPrefix(pat, "^") || !strings.HasSuffix(pat, "$") {
				return nil, fmt.Errorf("DEFAULT_MANAGED_NAME_PATHS %s %s: pattern %q is not anchored at both ends and no managed-name shape completes it", typ, p, re.Regex)
			}
			f := t.Facts(typ)
			f.WatchedShapes = append(f.WatchedShapes, classify.WatchedShape{Path: p, Pattern: pat,
				Source: "cdk-real-drift DEFAULT_MANAGED_NAME_PATHS (AWS's managed default names)"})
		}
	}

	// Path facts.
	paths := func(name string, set func(*classify.ImportedFacts, []string)) error {
		var m map[string][]string
		if err := get(name, &m); err != nil {
			return err
		}
		for typ, ps := range m {
			var conv []string
			for _, p := range ps {
				conv = append(conv, strings.ReplaceAll(p, "[]", ".*"))
			}
			set(t.Facts(typ), conv)
		}
		return nil
	}
	for _, p := range []struct {
		name string
		set  func(*classify.ImportedFacts, []string)
	}{
		{"UNORDERED_ARRAY_PROPS", func(f *classify.ImportedFacts, p []string) { f.UnorderedScalar = append(f.UnorderedScalar, p...) }},
		{"UNORDERED_OBJECT_ARRAY_PROPS", func(f *classify.ImportedFacts, p []string) { f.UnorderedObject = append(f.UnorderedObject, p...) }},
		{"UNORDERED_NESTED_OBJECT_ARRAY_PATHS", func(f *classify.ImportedFacts, p []string) { f.UnorderedObject = append(f.UnorderedObject, p...) }},
		{"ORDER_SIGNIFICANT_PATHS", func(f *classify.ImportedFacts, p []string) { f.Ordered = append(f.Ordered, p...) }},
		{"ORDER_SIGNIFICANT_ARRAY_KEYS", func(f *classify.ImportedFacts, p []string) { f.OrderedKeys = append(f.OrderedKeys, p...) }},
		{"CASE_INSENSITIVE_PATHS", func(f *classify.ImportedFacts, p []string) { f.CaseInsensitive = append(f.CaseInsensitive, p...) }},
		{"CASE_INSENSITIVE_ARRAY_PATHS", func(f *classify.ImportedFacts, p []string) {
			for _, x := range p {
				f.CaseInsensitive = append(f.CaseInsensitive, x+".*")
			}
		}},
		{"CASE_INSENSITIVE_KEY_PATHS", func(f *classify.ImportedFacts, p []string) {
			f.CaseInsensitiveKeys = append(f.CaseInsensitiveKeys, p...)
		}},
		{"LATEST_SENTINEL_PATHS", func(f *classify.ImportedFacts, p []string) { f.LatestSentinel = append(f.LatestSentinel, p...) }},
		{"VERSION_PREFIX_PATHS", func(f *classify.ImportedFacts, p []string) { f.VersionPrefix = append(f.VersionPrefix, p...) }},
		{"READGAP_COLLECTION_PATHS", func(f *classify.ImportedFacts, p []string) { f.ReadGapCollections = append(f.ReadGapCollections, p...) }},
		{"ACCESS_STRING_PATHS", func(f *classify.ImportedFacts, p []string) { f.ACLString = append(f.ACLString, p...) }},
		{"EPOCH_HOUR_PATHS", func(f *classify.ImportedFacts, p []string) { f.EpochHour = append(f.EpochHour, p...) }},
		{"DESCEND_UNDECLARED_OBJECT_PATHS", func(f *classify.ImportedFacts, p []string) { f.Descend = append(f.Descend, p...) }},
		{"VALUE_INDEPENDENT_DEFAULT_TOPLEVEL_PATHS", func(f *classify.ImportedFacts, p []string) { f.Watched = append(f.Watched, p...) }},
		{"VALUE_INDEPENDENT_DEFAULT_NESTED_PATHS", func(f *classify.ImportedFacts, p []string) { f.Watched = append(f.Watched, p...) }},
		{"GENERATED_TOPLEVEL_PATHS", func(f *classify.ImportedFacts, p []string) { f.Minted = append(f.Minted, p...) }},
		{"GENERATED_NESTED_PATHS", func(f *classify.ImportedFacts, p []string) { f.Minted = append(f.Minted, p...) }},
		{"GENERATED_PATHS", func(f *classify.ImportedFacts, p []string) { f.Minted = append(f.Minted, p...) }},
	} {
		if err := paths(p.name, p.set); err != nil {
			return nil, err
		}
	}
	// Identity fields of nested object arrays: matched elements are
	// compared by identity and walked. (UNORDERED_OBJECT_ARRAY_IDENTITY
	// only orders a set; its arrays are in the unordered lists.)
	for _, name := range []string{"NESTED_OBJECT_ARRAY_IDENTITY"} {
		var m map[string]map[string]string
		if err := get(name, &m); err != nil {
			return nil, err
		}
		for typ, byPath := range m {
			f := t.Facts(typ)
			if f.Identities == nil {
				f.Identities = map[string]string{}
			}
			for p, field := range byPath {
				f.Identities[p] = field
			}
		}
	}

	// Per-path representational equivalences.
	for _, e := range []struct{ table, kind string }{
		{"TRAILING_SLASH_PATHS", "trailingSlash"},
		{"INTELLIGENT_TIERING_PATHS", "intelligentTiering"},
		{"BOOLEAN_PARAM_MAP_PATHS", "booleanString"},
		{"PROPERTIES_FILE_PATHS", "propertiesText"},
	} {
		var m map[string][]string
		if err := get(e.table, &m); err != nil {
			return nil, err
		}
		for typ, ps := range m {
			f := t.Facts(typ)
			if f.Equivalences == nil {
				f.Equivalences = map[string][]string{}
			}
			for _, p := range ps {
				p = strings.ReplaceAll(p, "[]", ".*")
				f.Equivalences[p] = append(f.Equivalences[p], e.kind)
			}
		}
	}
	// Keys a service injects into JSON text (Cost Explorer's rule Type).
	var fills map[string]map[string]map[string]any
	if err := get("JSON_STRING_DEFAULT_FILLS", &fills); err != nil {
		return nil, err
	}
	for typ, ps := range fills {
		f := t.Facts(typ)
		if f.JSONFills == nil {
			f.JSONFills = map[string]map[string]any{}
		}
		for p, kv := range ps {
			f.JSONFills[strings.ReplaceAll(p, "[]", ".*")] = kv
		}
	}
	// Elements AWS adds to an identity-keyed array by itself (Cognito's
	// standard attributes): one row per element, compared subset-tolerantly.
	var keyedDefaults map[string]map[string]map[string]any
	if err := get("IDENTITY_KEYED_DEFAULT_ELEMENTS", &keyedDefaults); err != nil {
		return nil, err
	}
	for typ, byPath := range keyedDefaults {
		for p, byKey := range byPath {
			for k, el := range byKey {
				add(classify.ImportedValue{Type: typ, Path: p + "[" + k + "]", Tier: "atDefault", Value: normalize.Canonical(el), Subset: true})
			}
		}
	}
	// Paths an SDK reader cannot return: a declared value there is a read
	// gap, never drift.
	var readerGaps map[string][]string
	if err := get("SDK_READER_GAP_PATHS", &readerGaps); err != nil {
		return nil, err
	}
	for typ, ps := range readerGaps {
		f := t.Facts(typ)
		f.ReadGapCollections = append(f.ReadGapCollections, ps...)
	}

	// Every table is consumed above or applied by a rule of the classifier
	// (or reader) that holds beyond the table's own paths; a table this
	// generator does not account for stops it, so a new fact is never
	// silently left out.
	for name := range f.Tables {
		if consumed[name] {
			continue
		}
		if _, ok := appliedElsewhere[name]; !ok {
			return nil, fmt.Errorf("table %s: not imported and not applied by any rule (add it to the generator or to appliedElsewhere)", name)
		}
	}

	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Value != b.Value {
			return a.Value < b.Value
		}
		if a.Pattern != b.Pattern {
			return a.Pattern < b.Pattern
		}
		return condKey(a) < condKey(b)
	})
	t.Values = dedupe(rows)
	for _, f := range t.Types {
		f.Sort()
	}
	return t, nil
}

// watchShapes adds to t's watched table (ImportedFacts.WatchedShapes) the
// pattern rows of the hand-kept AWS facts, and those of the documented
// table at a path no imported or hand-kept row names (the rule by which a
// documented row applies): the classifier applies pattern rows from this
// one table only, so every fold that does not pin a value is listed in
// it.
func watchShapes(t, awsFacts, documented *classify.Imported) error {
	named := map[[2]string]bool{}
	for _, v := range t.Values {
		named[[2]string{v.Type, v.Path}] = true
	}
	for typ, f := range t.Types {
		for _, w := range f.WatchedShapes {
			named[[2]string{typ, w.Path}] = true
		}
	}
	for _, v := range awsFacts.Values {
		named[[2]string{v.Type, v.Path}] = true
	}
	for _, src := range []struct {
		name string
		rows []classify.ImportedValue
		all  bool
	}{{"awsfacts", awsFacts.Values, true}, {"documented", documented.Values, false}} {
		for _, v := range src.rows {
			if v.Pattern == "" || (!src.all && named[[2]string{v.Type, v.Path}]) {
				continue
			}
			if v.Tier != "atDefault" {
				return fmt.Errorf("%s %s %s: a pattern row is atDefault, not %s", src.name, v.Type, v.Path, v.Tier)
			}
			if v.Source == "" {
				return fmt.Errorf("%s %s %s: a pattern row names its source", src.name, v.Type, v.Path)
			}
			f := t.Facts(v.Type)
			f.WatchedShapes = append(f.WatchedShapes, classify.ShapeOf(v))
		}
	}
	for _, f := range t.Types {
		f.Sort()
	}
	return nil
}

func condKey(r classify.ImportedValue) string {
	b, _ := json.Marshal([]any{r.When, r.Unless, r.Field, r.Tier})
	return string(b)
}

func dedupe(rows []classify.ImportedValue) []classify.ImportedValue {
	var out []classify.ImportedValue
	for i, r := range rows {
		if i > 0 && r.Type == rows[i-1].Type && r.Path == rows[i-1].Path && r.Value == rows[i-1].Value && r.Pattern == rows[i-1].Pattern && condKey(r) == condKey(rows[i-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func appendCond(cs []classify.ImportedCond, prop, v string) []classify.ImportedCond {
	for i := range cs {
		if cs[i].Prop == prop {
			cs[i].Values = append(cs[i].Values, v)
			sort.Strings(cs[i].Values)
			return cs
		}
	}
	cs = append(cs, classify.ImportedCond{Prop: prop, Values: []string{v}})
	sort.Slice(cs, func(i, j int) bool { return cs[i].Prop < cs[j].Prop })
	return cs
}

// elbBags names the attribute-bag property of each ELBv2 type.
var elbBags = map[string]string{
	"AWS::ElasticLoadBalancingV2::LoadBalancer": "LoadBalancerAttributes",
	"AWS::ElasticLoadBalancingV2::TargetGroup":  "TargetGroupAttributes",
	"AWS::ElasticLoadBalancingV2::Listener":     "ListenerAttributes",
}

// appliedElsewhere names the tables a classifier (or reader) rule applies
// on every type, so they need no per-type rows, and the tables left for
// later with the reason. The generator fails on a table in neither list.
var appliedElsewhere = map[string]string{
	"TRAILING_DOT_PATHS":               "normalize.TrailingDotEqual, on every string path",
	"NUMERIC_STRING_EQUAL_PATHS":       "normalize.SameScalarOrEqual: a number and its decimal text compare equal everywhere",
	"RATE_EXPRESSION_PATHS":            "normalize.RateExpressionEqual, on every string path",
	"SSH_PUBLIC_KEY_PATHS":             "normalize.SSHPublicKeyEqual, on every string path",
	"JSON_STRING_PROPS":                "normalize.JSONStringEqual: JSON text compares parsed on every path",
	"FREE_FORM_MAP_PARENTS":            "the registry schema's free-form map paths (normalize.Pass FreeForm)",
	"TAG_PROPERTY_NAMES":               "the schema facts' tag property (classify tagPaths)",
	"NAME_VALUE_SUBSET_PATHS":          "classify nameValueIdentities: every name/value pair list is keyed by its name field",
	"READ_NORMALIZED_DECLARED_PATHS":   "classify typeTable altRepresentation (SSM Document DocumentFormat)",
	"SCALAR_RETURNED_WHEN_SET":         "a declared scalar the read leaves out is a readGap, never drift (classify declared compare)",
	"GENERATED_LOGICALID_PREFIX_PATHS": "classify generated: CloudFormation's <stack>-<logicalId>-<random> and logical-id-prefixed names, on every type",
	"UNORDERED_OBJECT_ARRAY_IDENTITY":  "ordering only: its arrays are in the unordered lists, compared as sets",
	"OVERRIDE_READABLE_WRITEONLY":      "reader side: the SDK override readers return these writeOnly properties (internal/live)",
	"SCHEMA_READONLY_SUPPLEMENTS":      "reader side: readOnly properties an SDK reader adds (internal/live)",
}

// managedNameShapes completes a managed-name prefix with the whole shape
// AWS gives its default groups, so a pattern names that family of values
// and nothing else: parameter groups are default.<engine><version>
// (default.aurora-postgresql17, default.redshift-2.0, default.redis7.cluster.on),
// option groups default:<engine>-<major>[-<minor>] (default:sqlserver-ex-15-00).
var managedNameShapes = map[string]string{
	`^default\.`: `^default\.[a-z][a-z0-9-]*[0-9]+(\.[0-9]+)*(\.cluster\.on)?$`,
	`^default:`:  `^default:[a-z][a-z0-9-]*-[0-9]+(-[0-9]+)*$`,
}

// ebTypes carry the Elastic Beanstalk option-settings model.
var ebTypes = []string{"AWS::ElasticBeanstalk::Environment", "AWS::ElasticBeanstalk::ConfigurationTemplate"}

var partitions = []string{"aws", "aws-cn", "aws-us-gov"}

// Sentinels stand for the own account, region and physical name while a
// value is rendered as a classify value template.
const (
	sentinelAccount = "000000000000"
	sentinelRegion  = "zz-sentinel-9"
	sentinelName    = "PHYSICALNAMESENTINEL"
)

func substitute(v any, partition string) any {
	switch t := v.(type) {
	case string:
		r := strings.NewReplacer("{partition}", partition, "{accountId}", sentinelAccount, "{region}", sentinelRegion, "${PHYSICAL_NAME}", sentinelName)
		return r.Replace(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = substitute(e, partition)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = substitute(e, partition)
		}
		return out
	}
	return v
}

func template(v any) string {
	return classify.Template(v, classify.TemplateContext{PhysicalID: sentinelName, AccountID: sentinelAccount, Region: sentinelRegion})
}

func isObject(v any) bool { _, ok := v.(map[string]any); return ok }

// keyPaths renders a dotted path with "*" segments in the classifier's
// KeyPath forms: each "*" is an array index ("A.*.B") or, after a named
// segment, an identity-keyed element ("A[*].B").
func keyPaths(p string) []string {
	segs := strings.Split(strings.ReplaceAll(p, "[]", ".*"), ".")
	out := []string{""}
	for i, s := range segs {
		var next []string
		for _, o := range out {
			if s == "*" {
				next = append(next, join(o, "*"))
				if o != "" && !strings.HasSuffix(o, "*") && i < len(segs)-1 {
					next = append(next, o+"[*]")
				}
				continue
			}
			next = append(next, join(o, s))
		}
		out = next
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}
