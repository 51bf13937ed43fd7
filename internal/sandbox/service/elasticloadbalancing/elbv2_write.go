package elasticloadbalancing

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Elastic Load Balancing v2's attribute writes: ModifyLoadBalancerAttributes,
// ModifyTargetGroupAttributes and ModifyListenerAttributes set the given
// keys in the model's attribute bag (LoadBalancerAttributes,
// TargetGroupAttributes, ListenerAttributes: a list of {Key, Value}) — a
// key the bag lacks is added, every other key is kept — and answer the
// whole bag, as ELB does. One call takes 1 to 20 attributes.

// elbBag is one attribute-bag family: the type, the ARN parameter and
// model field, the bag property and the not-found error.
type elbBag struct {
	typ, arnParam, bag, notFound, noun string
}

var elbBags = map[string]elbBag{
	"ModifyLoadBalancerAttributes": {"AWS::ElasticLoadBalancingV2::LoadBalancer", "LoadBalancerArn", "LoadBalancerAttributes", "LoadBalancerNotFound", "load balancers"},
	"ModifyTargetGroupAttributes":  {"AWS::ElasticLoadBalancingV2::TargetGroup", "TargetGroupArn", "TargetGroupAttributes", "TargetGroupNotFound", "target groups"},
	"ModifyListenerAttributes":     {"AWS::ElasticLoadBalancingV2::Listener", "ListenerArn", "ListenerAttributes", "ListenerNotFound", "listeners"},
}

// elbv2WriteOps are the write handlers elbv2Service registers.
func elbv2WriteOps() map[string]wire.Handler {
	out := map[string]wire.Handler{}
	for op := range elbBags {
		out[op] = elbv2ModifyAttributes
	}
	return out
}

var elbAttributeKey = regexp.MustCompile(`^[a-zA-Z0-9._]{1,256}$`)

// elbv2ModifyAttributes is the handler of the three Modify*Attributes.
func elbv2ModifyAttributes(st *world.State, c *wire.Call) (any, error) {
	b := elbBags[c.Action]
	arn := c.Str(b.arnParam)
	if arn == "" {
		return nil, wire.Validation("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", wire.LowerFirst(b.arnParam))
	}
	type kv struct{ key, value string }
	var set []kv
	for i := 1; ; i++ {
		k, ok := c.Form[fmt.Sprintf("Attributes.member.%d.Key", i)]
		if !ok {
			break
		}
		set = append(set, kv{k[0], c.Str(fmt.Sprintf("Attributes.member.%d.Value", i))})
	}
	if len(set) == 0 || len(set) > 20 {
		return nil, wire.Validation("1 validation error detected: Value at 'attributes' failed to satisfy constraint: Member must have length between 1 and 20")
	}
	for _, a := range set {
		if !elbAttributeKey.MatchString(a.key) {
			return nil, wire.Errf(400, "InvalidConfigurationRequest", "The attribute key '%s' is not recognized", a.key)
		}
	}
	st.Lock()
	defer st.Unlock()
	var res *world.Resource
	for _, r := range st.OfType(c.Account, c.Region, b.typ) {
		if id := world.FieldString(r, b.arnParam); id == arn || (id == "" && r.CCID() == arn) {
			res = r
		}
	}
	if res == nil {
		return nil, wire.Errf(400, b.notFound, "One or more %s not found", b.noun)
	}
	var bag []map[string]any
	if raw := world.Field(res, b.bag); raw != nil {
		if err := json.Unmarshal(raw, &bag); err != nil {
			return nil, wire.Errf(500, "InternalFailure", "%s of %s is not a list of attributes", b.bag, arn)
		}
	}
	for _, a := range set {
		found := false
		for _, e := range bag {
			if e["Key"] == a.key {
				e["Value"], found = a.value, true
			}
		}
		if !found {
			bag = append(bag, map[string]any{"Key": a.key, "Value": a.value})
		}
	}
	if err := world.SetField(res, b.bag, bag); err != nil {
		return nil, err
	}
	nodes := make([]*wire.Node, 0, len(bag))
	for _, e := range bag {
		k, _ := e["Key"].(string)
		v, _ := e["Value"].(string)
		nodes = append(nodes, wire.El("", wire.Tx("Key", k), wire.Tx("Value", v)))
	}
	return wire.El("", wire.Members("Attributes", nodes)), nil
}
