package kafka

import (
	"encoding/base64"
	"strconv"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

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
	created := wire.ISOTime(world.DefaultTime)
	out := map[string]any{"arn": c.Params["arn"], "name": world.FieldString(r, "Name"), "state": "ACTIVE", "creationTime": created,
		"latestRevision": map[string]any{"revision": rev, "creationTime": created}}
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
