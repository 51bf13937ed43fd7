package lambda

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// lambdaRoutes maps REST paths (with {fn} for the function name) to
// operations; all are GETs.
var lambdaRoutes = []struct {
	version, suffix, action string
}{
	{"2015-03-31", "policy", "GetPolicy"},
	{"2021-10-31", "urls", "ListFunctionUrlConfigs"},
	{"2015-03-31", "aliases", "ListAliases"},
	{"2015-03-31", "versions", "ListVersionsByFunction"},
	{"2015-03-31", "configuration", "GetFunctionConfiguration"},
}

func lambdaRoute(r *http.Request) (string, map[string]string) {
	segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	if len(segs) >= 4 && segs[0] == "2015-03-31" && segs[1] == "functions" && segs[3] == "policy" {
		fn, err := url.PathUnescape(segs[2])
		if err != nil {
			return "", nil
		}
		switch {
		case r.Method == http.MethodPost && len(segs) == 4:
			return "AddPermission", map[string]string{"fn": fn}
		case r.Method == http.MethodDelete && len(segs) == 5:
			sid, err := url.PathUnescape(segs[4])
			if err != nil {
				return "", nil
			}
			return "RemovePermission", map[string]string{"fn": fn, "sid": sid}
		}
	}
	if r.Method != http.MethodGet {
		return "", nil
	}
	if len(segs) == 2 && segs[0] == "2015-03-31" && segs[1] == "event-source-mappings" {
		return "ListEventSourceMappings", map[string]string{}
	}
	if len(segs) != 4 || segs[1] != "functions" {
		return "", nil
	}
	fn, err := url.PathUnescape(segs[2])
	if err != nil {
		return "", nil
	}
	for _, rt := range lambdaRoutes {
		if segs[0] == rt.version && segs[3] == rt.suffix {
			return rt.action, map[string]string{"fn": fn}
		}
	}
	return "", nil
}

var functionArnRE = regexp.MustCompile(`^(?:arn:aws[-a-z]*:lambda:[a-z0-9-]+:)?(?:[0-9]{12}:)?(?:function:)?([A-Za-z0-9_-]+)(?::[A-Za-z0-9$_-]+)?$`)

// functionName reduces a function name, ARN or partial ARN to the name.
func functionName(ref string) string {
	if m := functionArnRE.FindStringSubmatch(ref); m != nil {
		return m[1]
	}
	return ref
}

func noFunction(c *wire.Call, name string) error {
	return wire.Errf(404, "ResourceNotFoundException", "Function not found: arn:aws:lambda:%s:%s:function:%s", c.Region, c.Account, name)
}

// findFunction returns the function named by ref (nil when absent).
func findFunction(st *world.State, c *wire.Call, ref string) *world.Resource {
	name := functionName(ref)
	if f := st.Resource(c.Account, c.Region, "AWS::Lambda::Function", name); f != nil {
		return f
	}
	for _, f := range st.OfType(c.Account, c.Region, "AWS::Lambda::Function") {
		if world.FieldString(f, "FunctionName") == name {
			return f
		}
	}
	return nil
}

func functionArn(c *wire.Call, f *world.Resource, name string) string {
	if a := world.FieldString(f, "Arn"); a != "" {
		return a
	}
	return "arn:aws:lambda:" + c.Region + ":" + c.Account + ":function:" + name
}

// childrenOf returns resources of typ whose prop names the function.
func childrenOf(st *world.State, c *wire.Call, typ, prop, name string) []*world.Resource {
	var out []*world.Resource
	for _, r := range st.OfType(c.Account, c.Region, typ) {
		if functionName(world.FieldString(r, prop)) == name {
			out = append(out, r)
		}
	}
	return out
}

// permissionStatement renders an AWS::Lambda::Permission as the policy
// statement Lambda stores for it.
func permissionStatement(c *wire.Call, p *world.Resource, fnArn string) map[string]any {
	st := map[string]any{"Sid": p.CCID(), "Effect": "Allow", "Resource": fnArn}
	if a := world.FieldValue(p, "Action"); a != nil {
		st["Action"] = a
	}
	switch pr := world.FieldString(p, "Principal"); {
	case pr == "*":
		st["Principal"] = "*"
	case world.AccountRE.MatchString(pr):
		st["Principal"] = map[string]any{"AWS": "arn:aws:iam::" + pr + ":root"}
	case strings.HasPrefix(pr, "arn:"):
		st["Principal"] = map[string]any{"AWS": pr}
	case pr != "":
		st["Principal"] = map[string]any{"Service": pr}
	}
	cond := map[string]map[string]any{}
	addCond := func(op, key string, prop string) {
		if v := world.FieldValue(p, prop); v != nil {
			if cond[op] == nil {
				cond[op] = map[string]any{}
			}
			cond[op][key] = v
		}
	}
	addCond("ArnLike", "AWS:SourceArn", "SourceArn")
	addCond("StringEquals", "AWS:SourceAccount", "SourceAccount")
	addCond("StringEquals", "lambda:EventSourceToken", "EventSourceToken")
	addCond("StringEquals", "aws:PrincipalOrgID", "PrincipalOrgID")
	addCond("StringEquals", "lambda:FunctionUrlAuthType", "FunctionUrlAuthType")
	if len(cond) > 0 {
		st["Condition"] = cond
	}
	return st
}

func lambdaGetPolicy(st *world.State, c *wire.Call) (any, error) {
	name := functionName(c.Params["fn"])
	st.RLock()
	defer st.RUnlock()
	f := findFunction(st, c, name)
	perms := childrenOf(st, c, "AWS::Lambda::Permission", "FunctionName", name)
	if f == nil && len(perms) == 0 {
		return nil, noFunction(c, name)
	}
	if len(perms) == 0 {
		return nil, wire.Errf(404, "ResourceNotFoundException", "The resource you requested does not exist.")
	}
	fnArn := functionArn(c, f, name)
	var sts []any
	for _, p := range perms {
		sts = append(sts, permissionStatement(c, p, fnArn))
	}
	doc, err := world.MarshalNoEscape(map[string]any{"Version": "2012-10-17", "Id": "default", "Statement": sts})
	if err != nil {
		return nil, err
	}
	return map[string]any{"Policy": string(doc), "RevisionId": world.UUIDFrom(string(doc))}, nil
}

// listPage pages a Lambda list by Marker / MaxItems (wire.Paging: at most
// the server's page size; a Marker holds for the list that issued it).
func listPage(st *world.State, c *wire.Call, items []map[string]any) ([]map[string]any, string, error) {
	size := c.PageSize
	if n := c.Form.Get("MaxItems"); n != "" {
		var m int
		for _, ch := range n {
			if ch < '0' || ch > '9' {
				return nil, "", wire.Errf(400, "InvalidParameterValueException", "Invalid MaxItems")
			}
			m = m*10 + int(ch-'0')
		}
		if m > 0 && m < size {
			size = m
		}
	}
	cur, err := wire.Paging{Prefix: "lambda", Default: c.PageSize,
		BadToken: wire.Errf(400, "InvalidParameterValueException", "Invalid Marker")}.Start(c, size, c.Form.Get("Marker"))
	if err != nil {
		return nil, "", err
	}
	lo, hi, marker := cur.Cut(len(items))
	return items[lo:hi], marker, nil
}

// pagedReply answers one page of items under key, with NextMarker when
// more follow.
func pagedReply(st *world.State, c *wire.Call, key string, items []map[string]any) (any, error) {
	pg, marker, err := listPage(st, c, items)
	if err != nil {
		return nil, err
	}
	out := map[string]any{key: pg}
	if marker != "" {
		out["NextMarker"] = marker
	}
	return out, nil
}

// functionList answers a list of the rows one function owns: 404 when the
// function named in the path is absent, else a page of rows(f, name), built
// under the read lock.
func functionList(st *world.State, c *wire.Call, key string, rows func(f *world.Resource, name string) []map[string]any) (any, error) {
	name := functionName(c.Params["fn"])
	st.RLock()
	defer st.RUnlock()
	f := findFunction(st, c, name)
	if f == nil {
		return nil, noFunction(c, name)
	}
	return pagedReply(st, c, key, rows(f, name))
}

// fieldOrID is the string property prop, or the resource's identifier
// when the model leaves it out.
func fieldOrID(r *world.Resource, prop string) string {
	if v := world.FieldString(r, prop); v != "" {
		return v
	}
	return r.CCID()
}

func lambdaListFunctionURLConfigs(st *world.State, c *wire.Call) (any, error) {
	return functionList(st, c, "FunctionUrlConfigs", func(f *world.Resource, name string) []map[string]any {
		items := []map[string]any{}
		for _, u := range childrenOf(st, c, "AWS::Lambda::Url", "TargetFunctionArn", name) {
			fa := world.FieldString(u, "FunctionArn")
			if fa == "" {
				fa = functionArn(c, f, name)
			}
			it := map[string]any{
				"FunctionArn": fa, "FunctionUrl": world.FieldString(u, "FunctionUrl"), "AuthType": world.FieldString(u, "AuthType"),
				"CreationTime": wire.ISOTime(world.DefaultTime), "LastModifiedTime": wire.ISOTime(world.DefaultTime),
			}
			if m := world.FieldString(u, "InvokeMode"); m != "" {
				it["InvokeMode"] = m
			}
			if cors := world.FieldValue(u, "Cors"); cors != nil {
				it["Cors"] = cors
			}
			items = append(items, it)
		}
		return items
	})
}

func lambdaListAliases(st *world.State, c *wire.Call) (any, error) {
	return functionList(st, c, "Aliases", func(f *world.Resource, name string) []map[string]any {
		items := []map[string]any{}
		for _, a := range childrenOf(st, c, "AWS::Lambda::Alias", "FunctionName", name) {
			arn := fieldOrID(a, "AliasArn")
			it := map[string]any{
				"AliasArn": arn, "Name": world.FieldString(a, "Name"), "FunctionVersion": world.FieldString(a, "FunctionVersion"),
				"RevisionId": world.UUIDFrom(string(a.Properties)),
			}
			if d := world.FieldString(a, "Description"); d != "" {
				it["Description"] = d
			}
			if rc := world.FieldValue(a, "RoutingConfig"); rc != nil {
				it["RoutingConfig"] = rc
			}
			items = append(items, it)
		}
		return items
	})
}

// lambdaListVersionsByFunction lists $LATEST (from the function's model)
// and then the published versions: the AWS::Lambda::Version resources
// naming the function, each answered from its own model.
func lambdaListVersionsByFunction(st *world.State, c *wire.Call) (any, error) {
	return functionList(st, c, "Versions", func(f *world.Resource, name string) []map[string]any {
		base := functionArn(c, f, name)
		config := func(r *world.Resource, version, arn string) map[string]any {
			it := map[string]any{"FunctionName": name, "FunctionArn": arn, "Version": version, "LastModified": wire.ISOTime(world.DefaultTime)}
			for _, k := range []string{"Description", "CodeSha256", "Runtime", "Handler", "Role", "MemorySize", "Timeout"} {
				if v := world.FieldValue(r, k); v != nil {
					it[k] = v
				}
			}
			return it
		}
		items := []map[string]any{config(f, "$LATEST", base+":$LATEST")}
		for _, v := range childrenOf(st, c, "AWS::Lambda::Version", "FunctionName", name) {
			ver := world.FieldString(v, "Version")
			arn := fieldOrID(v, "FunctionArn")
			if ver == "" {
				if i := strings.LastIndex(arn, ":"); i >= 0 {
					ver = arn[i+1:]
				}
			}
			items = append(items, config(v, ver, arn))
		}
		return items
	})
}

func lambdaListEventSourceMappings(st *world.State, c *wire.Call) (any, error) {
	ref := c.Form.Get("FunctionName")
	st.RLock()
	defer st.RUnlock()
	var esms []*world.Resource
	if ref == "" {
		esms = st.OfType(c.Account, c.Region, "AWS::Lambda::EventSourceMapping")
	} else {
		name := functionName(ref)
		if findFunction(st, c, name) == nil {
			return nil, noFunction(c, name)
		}
		esms = childrenOf(st, c, "AWS::Lambda::EventSourceMapping", "FunctionName", name)
	}
	items := []map[string]any{}
	for _, m := range esms {
		id := fieldOrID(m, "Id")
		state := "Enabled"
		if v, ok := world.FieldValue(m, "Enabled").(bool); ok && !v {
			state = "Disabled"
		}
		fn := functionName(world.FieldString(m, "FunctionName"))
		it := map[string]any{
			"UUID": id, "State": state, "FunctionArn": "arn:aws:lambda:" + c.Region + ":" + c.Account + ":function:" + fn,
			"LastModified": wire.Epoch(world.DefaultTime), "StateTransitionReason": "USER_INITIATED",
		}
		for _, k := range []string{"EventSourceArn", "BatchSize", "MaximumBatchingWindowInSeconds", "StartingPosition", "FilterCriteria", "FunctionResponseTypes", "MaximumRetryAttempts", "BisectBatchOnFunctionError", "ParallelizationFactor", "ScalingConfig"} {
			if v := world.FieldValue(m, k); v != nil {
				it[k] = v
			}
		}
		items = append(items, it)
	}
	return pagedReply(st, c, "EventSourceMappings", items)
}

func lambdaAddPermission(st *world.State, c *wire.Call) (any, error) {
	name := functionName(c.Params["fn"])
	var in struct {
		StatementId, Action, Principal, SourceArn, SourceAccount string
		EventSourceToken, PrincipalOrgID, FunctionUrlAuthType    string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if in.StatementId == "" || in.Action == "" || in.Principal == "" {
		return nil, wire.Errf(400, "InvalidParameterValueException", "StatementId, Action and Principal are required")
	}
	st.Lock()
	defer st.Unlock()
	f := findFunction(st, c, name)
	if f == nil {
		return nil, noFunction(c, name)
	}
	for _, p := range childrenOf(st, c, "AWS::Lambda::Permission", "FunctionName", name) {
		if p.CCID() == in.StatementId {
			return nil, wire.Errf(409, "ResourceConflictException", "The statement id (%s) provided already exists. Please provide a new statement id, or remove the existing statement.", in.StatementId)
		}
	}
	model := map[string]any{"FunctionName": functionArn(c, f, name), "Action": in.Action, "Principal": in.Principal}
	for k, v := range map[string]string{"SourceArn": in.SourceArn, "SourceAccount": in.SourceAccount, "EventSourceToken": in.EventSourceToken,
		"PrincipalOrgID": in.PrincipalOrgID, "FunctionUrlAuthType": in.FunctionUrlAuthType} {
		if v != "" {
			model[k] = v
		}
	}
	b, err := world.MarshalNoEscape(model)
	if err != nil {
		return nil, err
	}
	res := &world.Resource{Type: "AWS::Lambda::Permission", Identifier: in.StatementId, PhysicalID: in.StatementId, Properties: b}
	if err := st.AddLive(c.Account, c.Region, res); err != nil {
		return nil, wire.Errf(409, "ResourceConflictException", "%v", err)
	}
	stmt, err := world.MarshalNoEscape(permissionStatement(c, res, functionArn(c, f, name)))
	if err != nil {
		return nil, err
	}
	body, err := world.MarshalNoEscape(map[string]string{"Statement": string(stmt)})
	if err != nil {
		return nil, err
	}
	return wire.Raw{Status: 201, ContentType: "application/json", Body: body}, nil
}

func lambdaRemovePermission(st *world.State, c *wire.Call) (any, error) {
	name, sid := functionName(c.Params["fn"]), c.Params["sid"]
	st.Lock()
	defer st.Unlock()
	if findFunction(st, c, name) == nil {
		return nil, noFunction(c, name)
	}
	for _, p := range childrenOf(st, c, "AWS::Lambda::Permission", "FunctionName", name) {
		if p.CCID() == sid {
			st.Remove(c.Account, c.Region, p)
			return wire.Raw{Status: 204}, nil
		}
	}
	return nil, wire.Errf(404, "ResourceNotFoundException", "No policy is associated with the given resource.")
}
