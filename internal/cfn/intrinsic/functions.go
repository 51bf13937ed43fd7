package intrinsic

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// join resolves {"Fn::Join": [delimiter, [values…]]}. Any Unknown element
// makes the whole string Unknown.
func (r *Resolver) join(arg any, depth int) any {
	a, bad := args(arg, "Fn::Join", 2, 2)
	if bad != nil {
		return *bad
	}
	delim, secret, u := r.strictString(a[0], depth, "Fn::Join delimiter")
	if u != nil {
		return *u
	}
	v, sec, u := r.strict(a[1], depth)
	if u != nil {
		u.Secret = u.Secret || secret
		return *u
	}
	secret = secret || sec
	list, ok := v.([]any)
	if !ok {
		return taint(unknown("Fn::Join needs a list"), secret)
	}
	parts := make([]string, len(list))
	for i, e := range list {
		s, ok := text(e)
		if !ok {
			return taint(unknown("Fn::Join element is not a string"), secret)
		}
		parts[i] = s
	}
	return taint(checkDynamic(strings.Join(parts, delim)), secret)
}

// selectFn resolves {"Fn::Select": [index, list]}. Only the selected
// element needs to be known; an index out of range is Unknown.
func (r *Resolver) selectFn(arg any, depth int) any {
	a, bad := args(arg, "Fn::Select", 2, 2)
	if bad != nil {
		return *bad
	}
	iv, secret, u := r.strict(a[0], depth)
	if u != nil {
		return *u
	}
	idx, ok := integer(iv)
	if !ok {
		return taint(unknown("Fn::Select index is not a non-negative integer"), secret)
	}
	lv := r.resolve(a[1], depth+1)
	if s, ok := lv.(drift.Secret); ok {
		lv, secret = s.Value, true
	}
	if u, ok := lv.(drift.Unknown); ok {
		return taint(u, secret)
	}
	list, ok := lv.([]any)
	if !ok {
		return taint(unknown("Fn::Select needs a list"), secret)
	}
	if idx >= len(list) {
		return taint(unknown("Fn::Select index "+strconv.Itoa(idx)+" is out of range"), secret)
	}
	return taint(list[idx], secret)
}

// split resolves {"Fn::Split": [delimiter, source]}.
func (r *Resolver) split(arg any, depth int) any {
	a, bad := args(arg, "Fn::Split", 2, 2)
	if bad != nil {
		return *bad
	}
	delim, secret, u := r.strictString(a[0], depth, "Fn::Split delimiter")
	if u != nil {
		return *u
	}
	src, sec, u := r.strictString(a[1], depth, "Fn::Split source")
	if u != nil {
		u.Secret = u.Secret || secret
		return *u
	}
	secret = secret || sec
	if delim == "" {
		return taint(unknown("Fn::Split delimiter is empty"), secret)
	}
	parts := strings.Split(src, delim)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return taint(out, secret)
}

// findInMap resolves {"Fn::FindInMap": [map, top, second]} and the
// four-argument form whose last argument is {"DefaultValue": v}.
func (r *Resolver) findInMap(arg any, depth int) any {
	a, bad := args(arg, "Fn::FindInMap", 3, 4)
	if bad != nil {
		return *bad
	}
	keys := make([]string, 3)
	secret := false
	for i := range keys {
		k, sec, u := r.strictString(a[i], depth, "Fn::FindInMap key")
		if u != nil {
			u.Secret = u.Secret || secret
			return *u
		}
		keys[i], secret = k, secret || sec
	}
	if v, ok := r.t.Mappings[keys[0]][keys[1]][keys[2]]; ok {
		return taint(literal(v), secret)
	}
	if len(a) == 4 {
		opt, ok := a[3].(map[string]any)
		if def, has := opt["DefaultValue"]; ok && has && len(opt) == 1 {
			return taint(r.resolve(def, depth+1), secret)
		}
		return taint(unknown("malformed Fn::FindInMap default"), secret)
	}
	return taint(unknown("mapping "+keys[0]+" has no entry for the keys"), secret)
}

// importValue resolves {"Fn::ImportValue": name} from Context.Exports.
func (r *Resolver) importValue(arg any, depth int) any {
	name, secret, u := r.strictString(arg, depth, "Fn::ImportValue name")
	if u != nil {
		return *u
	}
	v, ok := r.c.Exports[name]
	if !ok {
		return taint(unknown("export "+name+" is not known"), secret)
	}
	return taint(v, secret)
}

// getStackOutput resolves {"Fn::GetStackOutput": {StackName, OutputName,
// Region?, RoleArn?}} through Context.StackOutputs.
func (r *Resolver) getStackOutput(arg any, depth int) any {
	m, ok := arg.(map[string]any)
	if !ok {
		return unknown("malformed Fn::GetStackOutput")
	}
	var ref StackOutputRef
	fields := map[string]*string{"StackName": &ref.StackName, "OutputName": &ref.OutputName, "Region": &ref.Region, "RoleArn": &ref.RoleArn}
	secret := false
	for k, raw := range m {
		dst, ok := fields[k]
		if !ok {
			return unknown("Fn::GetStackOutput has unknown field " + k)
		}
		s, sec, u := r.strictString(raw, depth, "Fn::GetStackOutput "+k)
		if u != nil {
			u.Secret = u.Secret || secret
			return *u
		}
		*dst, secret = s, secret || sec
	}
	if ref.StackName == "" || ref.OutputName == "" {
		return unknown("malformed Fn::GetStackOutput")
	}
	if ref.Region == "" {
		if r.c.Region == "" {
			return unknown("region is not known")
		}
		ref.Region = strings.ToLower(r.c.Region)
	}
	if r.c.StackOutputs == nil {
		return taint(unknown("stack outputs are not known"), secret)
	}
	v, ok := r.c.StackOutputs(ref)
	if !ok {
		return taint(unknown("output "+ref.OutputName+" of stack "+ref.StackName+" is not known"), secret)
	}
	return taint(v, secret)
}

// base64 resolves {"Fn::Base64": string}.
func (r *Resolver) base64(arg any, depth int) any {
	s, secret, u := r.strictString(arg, depth, "Fn::Base64 input")
	if u != nil {
		return *u
	}
	return taint(base64.StdEncoding.EncodeToString([]byte(s)), secret)
}
