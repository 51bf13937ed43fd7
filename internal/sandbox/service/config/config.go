package config

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

// configDescribe lists the models of typ named in names (all when none),
// camelCased; a missing name is the error code notFound.
func configDescribe(st *world.State, c *wire.Call, typ string, names []string, notFound, noun string) ([]any, error) {
	st.RLock()
	defer st.RUnlock()
	byName := map[string]*world.Resource{}
	var order []string
	for _, r := range st.OfType(c.Account, c.Region, typ) {
		n := world.FieldString(r, "Name")
		if n == "" {
			n = r.CCID()
		}
		byName[n] = r
		order = append(order, n)
	}
	if len(names) == 0 {
		names = order
	}
	out := []any{}
	for _, n := range names {
		r := byName[n]
		if r == nil {
			return nil, wire.Errf(400, notFound, "Cannot find %s with specified name '%s'.", noun, n)
		}
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		m["Name"] = n
		out = append(out, wire.CamelModel(m, nil))
	}
	return out, nil
}

func configDescribeRecorders(st *world.State, c *wire.Call) (any, error) {
	var in struct{ ConfigurationRecorderNames []string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	rs, err := configDescribe(st, c, "AWS::Config::ConfigurationRecorder", in.ConfigurationRecorderNames, "NoSuchConfigurationRecorderException", "configuration recorder")
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		m := r.(map[string]any)
		m["arn"] = "arn:aws:config:" + c.Region + ":" + c.Account + ":configuration-recorder/" + m["name"].(string) + "/" + world.ShortHash(m["name"].(string), 16)
	}
	return map[string]any{"ConfigurationRecorders": rs}, nil
}

func configDescribeChannels(st *world.State, c *wire.Call) (any, error) {
	var in struct{ DeliveryChannelNames []string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	chs, err := configDescribe(st, c, "AWS::Config::DeliveryChannel", in.DeliveryChannelNames, "NoSuchDeliveryChannelException", "delivery channel")
	if err != nil {
		return nil, err
	}
	return map[string]any{"DeliveryChannels": chs}, nil
}
