package live

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbv2types "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
)

type elbv2WriteAPI interface {
	ModifyLoadBalancerAttributes(ctx context.Context, in *elbv2.ModifyLoadBalancerAttributesInput, optFns ...func(*elbv2.Options)) (*elbv2.ModifyLoadBalancerAttributesOutput, error)
	ModifyTargetGroupAttributes(ctx context.Context, in *elbv2.ModifyTargetGroupAttributesInput, optFns ...func(*elbv2.Options)) (*elbv2.ModifyTargetGroupAttributesOutput, error)
	ModifyListenerAttributes(ctx context.Context, in *elbv2.ModifyListenerAttributesInput, optFns ...func(*elbv2.Options)) (*elbv2.ModifyListenerAttributesOutput, error)
}

var _ elbv2WriteAPI = (*elbv2.Client)(nil)

// maxELBAttributes is the most attributes one Modify*Attributes call takes.
const maxELBAttributes = 20

// attributeBags are the ELBv2 attribute bags (a list of {Key, Value}; the
// template declares a subset): per type, the bag property. Each is written
// per key by its Modify*Attributes call, never through a Cloud Control
// patch of the list (an index patch misaligns against the full live bag).
var attributeBags = map[string]string{
	"AWS::ElasticLoadBalancingV2::LoadBalancer": "LoadBalancerAttributes",
	"AWS::ElasticLoadBalancingV2::TargetGroup":  "TargetGroupAttributes",
	"AWS::ElasticLoadBalancingV2::Listener":     "ListenerAttributes",
}

// AttributeBag reports whether prop of typ is an ELB attribute bag, whose
// writer's projection is an object of the bag's keys (a patch addresses
// "/<prop>/<key>").
func AttributeBag(typ, prop string) bool { return attributeBags[typ] == prop }

// writeAttributeBag writes the keys a patch sets in an ELBv2 attribute
// bag. The projection the patch addresses is {Bag: {key: value}}, read
// from the live bag through Cloud Control; only the keys whose value the
// patch changes are sent (at most 20 a call), so a bag already at the
// target makes no call. A key cannot be removed: ELB attributes have no
// absent state.
func writeAttributeBag(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	bag, ok := attributeBags[t.Type]
	if !ok {
		return fmt.Errorf("write %s: not an attribute-bag type", t.Type)
	}
	if w.ELBv2 == nil {
		return skip("no Elastic Load Balancing v2 client")
	}
	if w.CloudControl == nil {
		return skip("no Cloud Control client")
	}
	id := t.Identifier
	if id == "" {
		id = t.PhysicalID
	}
	model, err := getResource(ctx, &Clients{CloudControl: w.CloudControl}, t.Type, id)
	if err != nil {
		return fmt.Errorf("read before the attribute write: %w", err)
	}
	live := map[string]any{}
	list, _ := model[bag].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if k, ok := m["Key"].(string); ok {
				live[k] = m["Value"]
			}
		}
	}
	before := map[string]any{bag: live}
	after, err := ApplyPatch(before, ops)
	if err != nil {
		return err
	}
	now, ok := after[bag].(map[string]any)
	if !ok {
		return fmt.Errorf("write %s %s: the patch does not leave %s an object of keys", t.Type, t.LogicalID, bag)
	}
	var attrs []elbv2types.LoadBalancerAttribute
	var keys []string
	for k := range live {
		if _, ok := now[k]; !ok {
			return fmt.Errorf("write %s %s: %s.%s has no absent state; it cannot be removed", t.Type, t.LogicalID, bag, k)
		}
	}
	for k := range now {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if reflect.DeepEqual(live[k], now[k]) {
			if _, had := live[k]; had {
				continue
			}
		}
		v, err := attributeText(now[k])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", bag, k, err)
		}
		attrs = append(attrs, elbv2types.LoadBalancerAttribute{Key: aws.String(k), Value: aws.String(v)})
	}
	for len(attrs) > 0 {
		n := min(len(attrs), maxELBAttributes)
		if err := w.modifyAttributes(ctx, t.Type, t.PhysicalID, attrs[:n]); err != nil {
			return err
		}
		attrs = attrs[n:]
	}
	return nil
}

// attributeText is an attribute value as ELB takes it: text.
func attributeText(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		return strconv.FormatBool(t), nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("value %v is not text", v)
}

// modifyAttributes sends one Modify*Attributes call for the type.
func (w *Writers) modifyAttributes(ctx context.Context, typ, arn string, attrs []elbv2types.LoadBalancerAttribute) error {
	var err error
	switch typ {
	case "AWS::ElasticLoadBalancingV2::LoadBalancer":
		_, err = w.ELBv2.ModifyLoadBalancerAttributes(ctx, &elbv2.ModifyLoadBalancerAttributesInput{LoadBalancerArn: &arn, Attributes: attrs})
	case "AWS::ElasticLoadBalancingV2::TargetGroup":
		tg := make([]elbv2types.TargetGroupAttribute, len(attrs))
		for i, a := range attrs {
			tg[i] = elbv2types.TargetGroupAttribute{Key: a.Key, Value: a.Value}
		}
		_, err = w.ELBv2.ModifyTargetGroupAttributes(ctx, &elbv2.ModifyTargetGroupAttributesInput{TargetGroupArn: &arn, Attributes: tg})
	case "AWS::ElasticLoadBalancingV2::Listener":
		la := make([]elbv2types.ListenerAttribute, len(attrs))
		for i, a := range attrs {
			la[i] = elbv2types.ListenerAttribute{Key: a.Key, Value: a.Value}
		}
		_, err = w.ELBv2.ModifyListenerAttributes(ctx, &elbv2.ModifyListenerAttributesInput{ListenerArn: &arn, Attributes: la})
	default:
		err = fmt.Errorf("write %s: not an attribute-bag type", typ)
	}
	return err
}
