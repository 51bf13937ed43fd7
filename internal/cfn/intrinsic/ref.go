package intrinsic

import (
	"strings"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
)

// maskedNoEcho is how DescribeStacks shows a NoEcho parameter's value.
const maskedNoEcho = "****"

// ref resolves {"Ref": name}.
func (r *Resolver) ref(arg any, depth int) any {
	name, secret, u := r.strictString(arg, depth, "Ref target")
	if u != nil {
		return *u
	}
	return taint(r.refName(name), secret)
}

// refName resolves a Ref to a pseudo parameter, parameter or resource.
func (r *Resolver) refName(name string) any {
	if name == "AWS::NoValue" {
		return noValue{}
	}
	if strings.HasPrefix(name, "AWS::") {
		return r.pseudo(name)
	}
	if p, ok := r.t.Parameters[name]; ok {
		return r.param(p)
	}
	if _, ok := r.t.Resources[name]; ok {
		if id, ok := r.c.PhysicalIDs[name]; ok && id != "" {
			return id
		}
		return unknown("physical id of " + name + " is not known")
	}
	return unknown("Ref to undeclared name " + name)
}

// param resolves a Ref to a template parameter.
func (r *Resolver) param(p *cfn.Parameter) any {
	v, supplied := r.c.Parameters[p.Name]
	if p.NoEcho {
		if !supplied || v == maskedNoEcho {
			return drift.Unknown{Reason: "NoEcho parameter " + p.Name + " has no supplied value", Secret: true}
		}
		return taint(paramValue(p, v), true)
	}
	if !supplied {
		switch {
		case p.IsSSM():
			return unknown("SSM parameter " + p.Name + " has no supplied resolved value")
		case !p.HasDefault:
			return unknown("parameter " + p.Name + " has no value")
		}
		v = p.Default
	}
	return paramValue(p, v)
}

// paramValue shapes a parameter's text: a list for list types.
func paramValue(p *cfn.Parameter, v string) any {
	if !p.IsList() {
		return v
	}
	if v == "" {
		return unknown("list parameter " + p.Name + " is empty")
	}
	parts := strings.Split(v, ",")
	out := make([]any, len(parts))
	for i, s := range parts {
		out[i] = strings.TrimSpace(s)
	}
	return out
}
