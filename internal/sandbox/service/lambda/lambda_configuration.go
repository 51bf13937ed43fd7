package lambda

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"

// lambdaGetFunctionConfiguration serves GetFunctionConfiguration (GET
// /2015-03-31/functions/{fn}/configuration) from the function's model:
// its name, ARN, runtime, handler, role and the CodeSha256 the model
// holds (none when it holds none); an unknown function is the
// ResourceNotFoundException Lambda answers.
func lambdaGetFunctionConfiguration(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	f := findFunction(st, c, c.Params["fn"])
	if f == nil || f.Deleted {
		return nil, noFunction(c, functionName(c.Params["fn"]))
	}
	name := world.FieldString(f, "FunctionName")
	if name == "" {
		name = functionName(c.Params["fn"])
	}
	out := map[string]any{"FunctionName": name, "FunctionArn": functionArn(c, f, name), "State": "Active"}
	for _, k := range []string{"Runtime", "Handler", "Role", "PackageType", "CodeSha256", "Description"} {
		if v := world.FieldString(f, k); v != "" {
			out[k] = v
		}
	}
	return out, nil
}
