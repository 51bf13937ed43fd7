package kafka

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Service serves Amazon MSK (REST-JSON, camelCase): GET
// /v1/configurations/{arn} and /v1/configurations/{arn}/revisions/{n}
// from the world's AWS::MSK::Configuration models (by Arn, else the
// identifier). The model's LatestRevision.Revision (default 1) is the only
// revision; its ServerProperties is answered as the blob MSK sends
// (base64). An unknown configuration or revision is a NotFoundException.
func Service() *wire.Service {
	return &wire.Service{
		Name:     "kafka",
		Protocol: wire.ProtoRESTJSON,
		Throttle: wire.Error{Status: 429, Code: "TooManyRequestsException"},
		Deny:     wire.Error{Status: 403, Code: "ForbiddenException"},
		Route:    kafkaRoute,
		Ops: map[string]wire.Handler{
			"DescribeConfiguration":         kafkaDescribeConfiguration,
			"DescribeConfigurationRevision": kafkaDescribeConfigurationRevision,
		},
	}
}

func kafkaRoute(r *http.Request) (string, map[string]string) {
	segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	if r.Method != http.MethodGet || len(segs) < 3 || segs[0] != "v1" || segs[1] != "configurations" {
		return "", nil
	}
	arn, err := url.PathUnescape(segs[2])
	if err != nil {
		return "", nil
	}
	switch {
	case len(segs) == 3:
		return "DescribeConfiguration", map[string]string{"arn": arn}
	case len(segs) == 5 && segs[3] == "revisions":
		return "DescribeConfigurationRevision", map[string]string{"arn": arn, "revision": segs[4]}
	}
	return "", nil
}

// kafkaConfiguration finds the model and its latest revision.
func kafkaConfiguration(st *world.State, c *wire.Call, arn string) (*world.Resource, int, error) {
	for _, r := range st.OfType(c.Account, c.Region, "AWS::MSK::Configuration") {
		a := world.FieldString(r, "Arn")
		if a == "" {
			a = r.CCID()
		}
		if a != arn || r.Deleted {
			continue
		}
		rev := 1
		if lr, ok := world.FieldValue(r, "LatestRevision").(map[string]any); ok {
			if n, ok := lr["Revision"].(float64); ok && n > 0 {
				rev = int(n)
			}
		}
		return r, rev, nil
	}
	return nil, 0, wire.Errf(404, "NotFoundException", "The configuration %s does not exist.", arn)
}

func kafkaDescribeConfiguration(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	r, rev, err := kafkaConfiguration(st, c, c.Params["arn"])
	if err != nil {
		return nil, err
	}
	out := map[string]any{"arn": c.Params["arn"], "name": world.FieldString(r, "Name"), "state": "ACTIVE", "latestRevision": map[string]any{"revision": rev}}
	if v := world.FieldString(r, "Description"); v != "" {
		out["description"] = v
	}
	if v := world.FieldStrings(r, "KafkaVersionsList"); v != nil {
		out["kafkaVersions"] = v
	}
	return out, nil
}

func kafkaDescribeConfigurationRevision(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	r, rev, err := kafkaConfiguration(st, c, c.Params["arn"])
	if err != nil {
		return nil, err
	}
	n, convErr := strconv.Atoi(c.Params["revision"])
	if convErr != nil || n != rev {
		return nil, wire.Errf(404, "NotFoundException", "The revision %s of configuration %s does not exist.", c.Params["revision"], c.Params["arn"])
	}
	out := map[string]any{"arn": c.Params["arn"], "revision": rev}
	if v := world.FieldString(r, "ServerProperties"); v != "" {
		out["serverProperties"] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return out, nil
}
