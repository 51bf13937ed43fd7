package lambdarouter

import (
	"fmt"
	"strings"
)

// function is a parsed FunctionName path parameter.
type function struct {
	partition, region, account string
	name, qualifier            string
}

// parseFunction accepts every FunctionName form Invoke accepts:
//
//	name, name:qualifier,
//	account:function:name[:qualifier],
//	arn:partition:lambda:region:account:function:name[:qualifier]
func parseFunction(raw string) (function, error) {
	f := function{partition: "aws", region: defaultRegion, account: defaultAccount}
	parts := strings.Split(raw, ":")
	var rest []string
	switch {
	case len(parts) >= 7 && parts[0] == "arn":
		if parts[2] != "lambda" || parts[5] != "function" {
			return function{}, fmt.Errorf("function name %q: not a Lambda function ARN", raw)
		}
		f.partition, f.region, f.account = parts[1], parts[3], parts[4]
		rest = parts[6:]
	case len(parts) >= 3 && parts[1] == "function":
		f.account = parts[0]
		rest = parts[2:]
	default:
		rest = parts
	}
	switch len(rest) {
	case 1:
		f.name = rest[0]
	case 2:
		f.name, f.qualifier = rest[0], rest[1]
	default:
		return function{}, fmt.Errorf("function name %q: too many segments", raw)
	}
	if !validName.MatchString(f.name) {
		return function{}, fmt.Errorf("function name %q: invalid name %q", raw, f.name)
	}
	return f, nil
}

// arn renders the function's full ARN, qualifier included.
func (f function) arn() string {
	s := "arn:" + f.partition + ":lambda:" + f.region + ":" + f.account + ":function:" + f.name
	if f.qualifier != "" {
		s += ":" + f.qualifier
	}
	return s
}
