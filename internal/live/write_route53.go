package live

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
)

type route53WriteAPI interface {
	ChangeResourceRecordSets(ctx context.Context, in *route53.ChangeResourceRecordSetsInput, optFns ...func(*route53.Options)) (*route53.ChangeResourceRecordSetsOutput, error)
	GetChange(ctx context.Context, in *route53.GetChangeInput, optFns ...func(*route53.Options)) (*route53.GetChangeOutput, error)
}

var _ route53WriteAPI = (*route53.Client)(nil)

// recordDataProps are the properties of a record set a change writes in
// place; its zone, Name, Type and SetIdentifier name the record.
var recordDataProps = []string{"TTL", "ResourceRecords", "AliasTarget", "Weight", "Region", "Failover", "GeoLocation",
	"GeoProximityLocation", "CidrRoutingConfig", "MultiValueAnswer", "HealthCheckId"}

// writeRecordSet writes AWS::Route53::RecordSet (Cloud Control cannot read
// it, so cannot update it): the patched record is UPSERTed with
// ChangeResourceRecordSets, and under Wait its change is polled until
// INSYNC. A record already at the target makes no call.
func writeRecordSet(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.Route53 == nil {
		return skip("no Route 53 client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(before, after) {
		return w.awaitPending(ctx, t)
	}
	zone, _, err := declaredZone(ctx, w.Read, t.Declared)
	if err != nil {
		return err
	}
	if err := sameRecord(before, after); err != nil {
		return err
	}
	rrs, err := recordSetOf(after)
	if err != nil {
		return err
	}
	return w.upsertRecords(ctx, t, zone, []r53types.ResourceRecordSet{rrs})
}

// writeRecordSetGroup writes AWS::Route53::RecordSetGroup: every record
// set of the patched group that differs from the live one is UPSERTed in
// one change batch. A patch may not rename a record set, add one no
// template entry declares, or drop one.
func writeRecordSetGroup(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.Route53 == nil {
		return skip("no Route 53 client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(before, after) {
		return w.awaitPending(ctx, t)
	}
	zone, _, err := declaredZone(ctx, w.Read, t.Declared)
	if err != nil {
		return err
	}
	was, _ := before["RecordSets"].([]any)
	now, _ := after["RecordSets"].([]any)
	if len(was) != len(now) {
		return fmt.Errorf("write %s %s: a revert changes record sets in place; it does not add or remove them", t.Type, t.LogicalID)
	}
	var sets []r53types.ResourceRecordSet
	for i := range now {
		b, _ := was[i].(map[string]any)
		a, ok := now[i].(map[string]any)
		if !ok {
			return fmt.Errorf("write %s %s: RecordSets.%d is not an object", t.Type, t.LogicalID, i)
		}
		if reflect.DeepEqual(a, b) {
			continue
		}
		if err := sameRecord(b, a); err != nil {
			return fmt.Errorf("RecordSets.%d: %w", i, err)
		}
		rrs, err := recordSetOf(a)
		if err != nil {
			return fmt.Errorf("RecordSets.%d: %w", i, err)
		}
		sets = append(sets, rrs)
	}
	if len(sets) == 0 {
		return w.awaitPending(ctx, t)
	}
	return w.upsertRecords(ctx, t, zone, sets)
}

// sameRecord refuses a patch that renames the record (its name, type or
// set identifier): that is a replacement, not an in-place change.
func sameRecord(before, after map[string]any) error {
	key := func(m map[string]any) string {
		n, _ := m["Name"].(string)
		t, _ := m["Type"].(string)
		s, _ := m["SetIdentifier"].(string)
		return dnsKey(n) + " " + strings.ToUpper(t) + " " + s
	}
	if len(before) > 0 && key(before) != key(after) {
		return fmt.Errorf("record %s: the name, type and set identifier name the record; changing them replaces it", key(before))
	}
	return nil
}

// upsertRecords UPSERTs sets in zone in one change batch; under Wait the
// change is polled through GetChange until INSYNC (short polls first,
// doubling up to the poll interval). A change whose polling fails stays
// pending for t: the retried write finds the record at its target and
// polls that change instead of confirming nothing.
func (w *Writers) upsertRecords(ctx context.Context, t Target, zone string, sets []r53types.ResourceRecordSet) error {
	changes := make([]r53types.Change, len(sets))
	for i := range sets {
		changes[i] = r53types.Change{Action: r53types.ChangeActionUpsert, ResourceRecordSet: &sets[i]}
	}
	out, err := w.Route53.ChangeResourceRecordSets(ctx, &route53.ChangeResourceRecordSetsInput{
		HostedZoneId: aws.String(zone),
		ChangeBatch:  &r53types.ChangeBatch{Changes: changes, Comment: aws.String("realdrift revert")},
	})
	if err != nil {
		return err
	}
	if !w.Wait || out.ChangeInfo == nil {
		return nil
	}
	w.pending.Store(pendingKey(t), aws.ToString(out.ChangeInfo.Id))
	if err := w.awaitChange(ctx, out.ChangeInfo); err != nil {
		return err
	}
	w.pending.Delete(pendingKey(t))
	return nil
}

func pendingKey(t Target) string { return t.Type + "|" + t.LogicalID + "|" + t.PhysicalID }

// awaitPending polls the change a failed poll left pending for t (under
// Wait); none pending is done.
func (w *Writers) awaitPending(ctx context.Context, t Target) error {
	if !w.Wait || w.Route53 == nil {
		return nil
	}
	id, ok := w.pending.Load(pendingKey(t))
	if !ok {
		return nil
	}
	if err := w.awaitChange(ctx, &r53types.ChangeInfo{Id: aws.String(id.(string)), Status: r53types.ChangeStatusPending}); err != nil {
		return err
	}
	w.pending.Delete(pendingKey(t))
	return nil
}

// awaitChange polls a change through GetChange until INSYNC.
func (w *Writers) awaitChange(ctx context.Context, info *r53types.ChangeInfo) error {
	maxPoll := w.Poll
	if maxPoll <= 0 {
		maxPoll = DefaultPoll
	}
	poll := min(100*time.Millisecond, maxPoll)
	for info.Status != r53types.ChangeStatusInsync {
		if err := w.sleep(ctx, poll); err != nil {
			return fmt.Errorf("change %s still %s: %w", aws.ToString(info.Id), info.Status, err)
		}
		poll = min(poll*2, maxPoll)
		got, err := w.Route53.GetChange(ctx, &route53.GetChangeInput{Id: info.Id})
		if err != nil {
			return err
		}
		if got.ChangeInfo == nil {
			return fmt.Errorf("change %s: GetChange returned no change info", aws.ToString(info.Id))
		}
		info = got.ChangeInfo
	}
	return nil
}

// recordSetOf builds the API's record set from a record's model (the
// template's shape recordModel reads: TTL and Weight as a number or its
// text, booleans as a bool or their text).
func recordSetOf(m map[string]any) (r53types.ResourceRecordSet, error) {
	var rrs r53types.ResourceRecordSet
	name, _ := m["Name"].(string)
	typ, _ := m["Type"].(string)
	if name == "" || typ == "" {
		return rrs, fmt.Errorf("record set: Name and Type are required")
	}
	rrs.Name, rrs.Type = aws.String(name), r53types.RRType(strings.ToUpper(typ))
	var err error
	if rrs.TTL, err = modelInt64(m, "TTL"); err != nil {
		return rrs, err
	}
	if rrs.Weight, err = modelInt64(m, "Weight"); err != nil {
		return rrs, err
	}
	for _, v := range stringsOf(m["ResourceRecords"]) {
		rrs.ResourceRecords = append(rrs.ResourceRecords, r53types.ResourceRecord{Value: aws.String(v)})
	}
	if a, ok := m["AliasTarget"].(map[string]any); ok {
		rrs.AliasTarget = &r53types.AliasTarget{
			DNSName: aws.String(modelString(a, "DNSName")), HostedZoneId: aws.String(modelString(a, "HostedZoneId")),
			EvaluateTargetHealth: modelTruth(a["EvaluateTargetHealth"]),
		}
	}
	if s := modelString(m, "SetIdentifier"); s != "" {
		rrs.SetIdentifier = aws.String(s)
	}
	if s := modelString(m, "HealthCheckId"); s != "" {
		rrs.HealthCheckId = aws.String(s)
	}
	rrs.Region = r53types.ResourceRecordSetRegion(modelString(m, "Region"))
	rrs.Failover = r53types.ResourceRecordSetFailover(modelString(m, "Failover"))
	if v, ok := m["MultiValueAnswer"]; ok && v != nil {
		rrs.MultiValueAnswer = aws.Bool(modelTruth(v))
	}
	if g, ok := m["GeoLocation"].(map[string]any); ok {
		rrs.GeoLocation = &r53types.GeoLocation{
			ContinentCode: optString(g, "ContinentCode"), CountryCode: optString(g, "CountryCode"), SubdivisionCode: optString(g, "SubdivisionCode"),
		}
	}
	if g, ok := m["GeoProximityLocation"].(map[string]any); ok {
		geo := &r53types.GeoProximityLocation{AWSRegion: optString(g, "AWSRegion"), LocalZoneGroup: optString(g, "LocalZoneGroup")}
		b, err := modelInt64(g, "Bias")
		if err != nil {
			return rrs, err
		}
		if b != nil {
			geo.Bias = aws.Int32(int32(*b))
		}
		if co, ok := g["Coordinates"].(map[string]any); ok {
			geo.Coordinates = &r53types.Coordinates{Latitude: optString(co, "Latitude"), Longitude: optString(co, "Longitude")}
		}
		rrs.GeoProximityLocation = geo
	}
	if cr, ok := m["CidrRoutingConfig"].(map[string]any); ok {
		rrs.CidrRoutingConfig = &r53types.CidrRoutingConfig{CollectionId: optString(cr, "CollectionId"), LocationName: optString(cr, "LocationName")}
	}
	return rrs, nil
}

// modelInt64 reads a whole number given as a number or its text.
func modelInt64(m map[string]any, k string) (*int64, error) {
	switch v := m[k].(type) {
	case nil:
		return nil, nil
	case float64:
		return aws.Int64(int64(v)), nil
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s %q is not a whole number", k, v)
		}
		return &n, nil
	}
	return nil, fmt.Errorf("%s is not a number", k)
}

func modelTruth(v any) bool {
	switch t := v.(type) {
	case bool:
		return t
	case string:
		return strings.EqualFold(t, "true")
	}
	return false
}

func optString(m map[string]any, k string) *string {
	if s := modelString(m, k); s != "" {
		return &s
	}
	return nil
}
