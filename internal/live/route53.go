package live

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// The Route 53 family: AWS::Route53::RecordSet and
// AWS::Route53::RecordSetGroup (Cloud Control cannot read either) through
// ListResourceRecordSets, started at the declared name and type and paged
// (by next name, type and identifier) while the records still have that
// name and type; a zone declared by name is found through
// ListHostedZonesByName.
//
// Route 53 answers names in lower case, with the final dot and with
// characters outside [a-z0-9-_.] as \ddd octal escapes; a record is
// matched on the unescaped, case-folded name with the final dot. The model
// names a record the way the template does (with or without the final dot),
// the API's case kept. Comment cannot be read (a readGap).

type route53API interface {
	route53.ListResourceRecordSetsAPIClient
	ListHostedZonesByName(ctx context.Context, in *route53.ListHostedZonesByNameInput, optFns ...func(*route53.Options)) (*route53.ListHostedZonesByNameOutput, error)
}

var _ route53API = (*route53.Client)(nil)

// readRecordSet reads AWS::Route53::RecordSet: the record of the declared
// zone with the declared Name, Type and SetIdentifier, in the resource's
// shape {HostedZoneId | HostedZoneName (as declared), Name, Type, TTL (a
// string, as templates declare it), ResourceRecords, AliasTarget,
// SetIdentifier, Weight, Region, Failover, GeoLocation,
// GeoProximityLocation, CidrRoutingConfig, MultiValueAnswer,
// HealthCheckId}.
func readRecordSet(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	zone, model, err := declaredZone(ctx, c, r.Declared)
	if err != nil {
		return nil, err
	}
	rec, err := findRecord(ctx, c, zone, r.Declared)
	if err != nil {
		return nil, err
	}
	for k, v := range recordModel(rec, r.Declared) {
		model[k] = v
	}
	return model, nil
}

// readRecordSetGroup reads AWS::Route53::RecordSetGroup: {HostedZoneId |
// HostedZoneName (as declared), RecordSets}, each declared record set read
// as readRecordSet reads one, in the declared order. A declared record set
// that no longer exists is left out of the list (the classifier reports
// it); when none exists the group is gone.
func readRecordSetGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	zone, model, err := declaredZone(ctx, c, r.Declared)
	if err != nil {
		return nil, err
	}
	v, ok := r.Declared["RecordSets"]
	if !ok {
		return nil, skip("declared RecordSets is absent")
	}
	list, ok := v.([]any)
	if !ok {
		if _, err := declaredString(r.Declared, "RecordSets"); isWaiting(err) {
			return nil, err
		}
		return nil, skip("declared RecordSets is not a list")
	}
	sets := []any{}
	for i, e := range list {
		d, ok := e.(map[string]any)
		if !ok {
			if _, err := declaredString(map[string]any{"RecordSets": e}, "RecordSets"); isWaiting(err) {
				return nil, err
			}
			return nil, skip(fmt.Sprintf("declared RecordSets.%d is not an object", i))
		}
		rec, err := findRecord(ctx, c, zone, d)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sets = append(sets, recordModel(rec, d))
	}
	if len(sets) == 0 && len(list) > 0 {
		return nil, fmt.Errorf("record sets of group %s in zone %s: %w", r.PhysicalID, zone, ErrNotFound)
	}
	model["RecordSets"] = sets
	return model, nil
}

// declaredZone returns the id of the declared hosted zone and the start
// of the model: the zone as declared (HostedZoneId, HostedZoneName or
// both).
func declaredZone(ctx context.Context, c *Clients, d map[string]any) (string, map[string]any, error) {
	if c.Route53 == nil {
		return "", nil, skip("no Route 53 client")
	}
	model := map[string]any{}
	if _, ok := d["HostedZoneId"]; ok {
		id, err := declaredString(d, "HostedZoneId")
		if err != nil {
			return "", nil, err
		}
		model["HostedZoneId"] = id
		if _, ok := d["HostedZoneName"]; ok {
			if name, err := declaredString(d, "HostedZoneName"); err == nil {
				model["HostedZoneName"] = name
			}
		}
		return strings.TrimPrefix(id, "/hostedzone/"), model, nil
	}
	name, err := declaredString(d, "HostedZoneName")
	if err != nil {
		return "", nil, skip("neither HostedZoneId nor HostedZoneName is declared")
	}
	out, err := c.Route53.ListHostedZonesByName(ctx, &route53.ListHostedZonesByNameInput{DNSName: &name, MaxItems: aws.Int32(2)})
	if err != nil {
		return "", nil, err
	}
	var ids []string
	for _, z := range out.HostedZones {
		if dnsKey(aws.ToString(z.Name)) == dnsKey(name) {
			ids = append(ids, strings.TrimPrefix(aws.ToString(z.Id), "/hostedzone/"))
		}
	}
	switch len(ids) {
	case 0:
		return "", nil, fmt.Errorf("hosted zone %s: %w", name, ErrNotFound)
	case 1:
		model["HostedZoneName"] = name
		return ids[0], model, nil
	}
	return "", nil, skip("more than one hosted zone is named " + name + " (public and private): declare HostedZoneId")
}

// findRecord lists the zone's records from the declared name and type
// until the name or type changes, and returns the one with the declared
// SetIdentifier (none declared: the record without one).
func findRecord(ctx context.Context, c *Clients, zone string, d map[string]any) (r53types.ResourceRecordSet, error) {
	name, err := declaredString(d, "Name")
	if err != nil {
		return r53types.ResourceRecordSet{}, err
	}
	typ, err := declaredString(d, "Type")
	if err != nil {
		return r53types.ResourceRecordSet{}, err
	}
	set := ""
	if _, ok := d["SetIdentifier"]; ok {
		if set, err = declaredString(d, "SetIdentifier"); err != nil {
			return r53types.ResourceRecordSet{}, err
		}
	}
	in := &route53.ListResourceRecordSetsInput{HostedZoneId: &zone, StartRecordName: &name, StartRecordType: r53types.RRType(typ)}
	p := route53.NewListResourceRecordSetsPaginator(c.Route53, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return r53types.ResourceRecordSet{}, err
		}
		for _, rec := range page.ResourceRecordSets {
			if dnsKey(aws.ToString(rec.Name)) != dnsKey(name) || !strings.EqualFold(string(rec.Type), typ) {
				return r53types.ResourceRecordSet{}, fmt.Errorf("record %s %s in zone %s: %w", name, typ, zone, ErrNotFound)
			}
			if aws.ToString(rec.SetIdentifier) == set {
				return rec, nil
			}
		}
	}
	return r53types.ResourceRecordSet{}, fmt.Errorf("record %s %s in zone %s: %w", name, typ, zone, ErrNotFound)
}

// recordModel projects one record in the template's shape; names follow
// the declared form d gives them.
func recordModel(rec r53types.ResourceRecordSet, d map[string]any) map[string]any {
	m := map[string]any{
		"Name": declaredDotForm(dnsUnescape(aws.ToString(rec.Name)), d["Name"]),
		"Type": string(rec.Type),
	}
	if rec.TTL != nil {
		m["TTL"] = strconv.FormatInt(*rec.TTL, 10)
	}
	if len(rec.ResourceRecords) > 0 {
		vals := make([]any, len(rec.ResourceRecords))
		for i, rr := range rec.ResourceRecords {
			vals[i] = aws.ToString(rr.Value)
		}
		m["ResourceRecords"] = vals
	}
	if a := rec.AliasTarget; a != nil {
		var declared any
		if da, ok := d["AliasTarget"].(map[string]any); ok {
			declared = da["DNSName"]
		}
		m["AliasTarget"] = map[string]any{
			"DNSName":              declaredDotForm(dnsUnescape(aws.ToString(a.DNSName)), declared),
			"HostedZoneId":         aws.ToString(a.HostedZoneId),
			"EvaluateTargetHealth": a.EvaluateTargetHealth,
		}
	}
	for k, v := range map[string]*string{"SetIdentifier": rec.SetIdentifier, "HealthCheckId": rec.HealthCheckId} {
		if aws.ToString(v) != "" {
			m[k] = *v
		}
	}
	if rec.Weight != nil {
		m["Weight"] = float64(*rec.Weight)
	}
	if rec.Region != "" {
		m["Region"] = string(rec.Region)
	}
	if rec.Failover != "" {
		m["Failover"] = string(rec.Failover)
	}
	if rec.MultiValueAnswer != nil {
		m["MultiValueAnswer"] = *rec.MultiValueAnswer
	}
	if g := rec.GeoLocation; g != nil {
		geo := map[string]any{}
		for k, v := range map[string]*string{"ContinentCode": g.ContinentCode, "CountryCode": g.CountryCode, "SubdivisionCode": g.SubdivisionCode} {
			if v != nil {
				geo[k] = *v
			}
		}
		m["GeoLocation"] = geo
	}
	if g := rec.GeoProximityLocation; g != nil {
		geo := map[string]any{}
		if g.AWSRegion != nil {
			geo["AWSRegion"] = *g.AWSRegion
		}
		if g.LocalZoneGroup != nil {
			geo["LocalZoneGroup"] = *g.LocalZoneGroup
		}
		if g.Bias != nil {
			geo["Bias"] = float64(*g.Bias)
		}
		if co := g.Coordinates; co != nil {
			geo["Coordinates"] = map[string]any{"Latitude": aws.ToString(co.Latitude), "Longitude": aws.ToString(co.Longitude)}
		}
		m["GeoProximityLocation"] = geo
	}
	if cr := rec.CidrRoutingConfig; cr != nil {
		m["CidrRoutingConfig"] = map[string]any{"CollectionId": aws.ToString(cr.CollectionId), "LocationName": aws.ToString(cr.LocationName)}
	}
	return m
}

// dnsUnescape decodes Route 53's \ddd octal escapes ("\052" is "*").
func dnsUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dnsKey is the form two DNS names compare in: unescaped, lower case, with
// the final dot.
func dnsKey(s string) string {
	s = strings.ToLower(dnsUnescape(s))
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// declaredDotForm gives a name read from the API the final dot exactly
// when the declared name (a string) has one; anything else declared keeps
// the API's form.
func declaredDotForm(name string, declared any) string {
	d, ok := declared.(string)
	if !ok {
		return name
	}
	if strings.HasSuffix(d, ".") {
		if !strings.HasSuffix(name, ".") {
			return name + "."
		}
		return name
	}
	return strings.TrimSuffix(name, ".")
}
