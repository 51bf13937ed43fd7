package live

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/realdrift/realdrift/internal/drift"
)

// The Route 53 family's children: the out-of-band record sets of a
// declared AWS::Route53::HostedZone (physical id: its zone id), listed by
// ListResourceRecordSets over the whole zone (paged by NextRecordName,
// NextRecordType and NextRecordIdentifier, 300 a page).
//
// Each child is an AWS::Route53::RecordSet identified
// "<zone id>|<name>|<type>" ("|<set identifier>" after it for a weighted,
// latency, failover, geo or multivalue record); its physical id, what the
// ownership check asks for, is the name without the final dot, as
// CloudFormation names a RecordSet. Cloud Control cannot read a record,
// so its model is the one readRecordSet reads for {HostedZoneId, Name,
// Type, SetIdentifier}, projected from the listing (no second call).
//
// Records that are never added, whatever the zone:
//   - AWS-made ones (awsMadeRecord): the zone's apex NS and SOA, created
//     with the zone, and the DNS-validation CNAMEs of ACM certificates,
//     which CloudFormation writes (and deletes) for a certificate declaring
//     DomainValidationOptions.HostedZoneId;
//   - the records the stack declares: a RecordSet by Name, Type and
//     SetIdentifier (a RecordSet whose name is unresolved by its physical
//     id: every record of that name), each entry of a RecordSetGroup the
//     same way, when declared in this zone or in a zone that cannot be
//     told (fail closed);
//   - the records another stack's RecordSet owns (ownedByStack, by name).
//     As that asks by physical id, every record of a name some stack's
//     RecordSet has is owned, whatever its type.
//
// A RecordSetGroup of the stack whose RecordSets, or an entry's Name, is
// not resolved may declare any record of the zone: the zone is then
// skipped with the reason, never reported on a guess. A record of another
// stack's RecordSetGroup has no physical id of its own (the group's is
// generated), so the ownership check cannot find it: such a record comes
// out added.

// recordSetType is the child type of a hosted zone.
const recordSetType = "AWS::Route53::RecordSet"

// acmValidationName is the first label of an ACM DNS-validation record's
// name: an underscore and a hex digest.
var acmValidationName = regexp.MustCompile(`^_[0-9a-f]+\.`)

// acmValidationTarget is the domain every ACM DNS-validation value is in.
const acmValidationTarget = ".acm-validations.aws."

// hostedZoneRecords lists the record sets of a declared hosted zone that
// are neither AWS-made nor declared by the stack. A zone that is gone
// lists nothing: it is reported deleted itself.
func hostedZoneRecords(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Route53 == nil {
		return nil, skip("no Route 53 client")
	}
	zone := strings.TrimPrefix(parent.PhysicalID, "/hostedzone/")
	var recs []r53types.ResourceRecordSet
	p := route53.NewListResourceRecordSetsPaginator(c.Route53, &route53.ListResourceRecordSetsInput{HostedZoneId: &zone})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, page.ResourceRecordSets...)
	}
	apex := zoneApex(parent, recs)
	declared, err := declaredRecords(stack, zone, apex)
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, rec := range recs {
		if awsMadeRecord(rec, apex) || declared.has(rec) {
			continue
		}
		out = append(out, recordCandidate(zone, rec))
	}
	return out, nil
}

// zoneApex is the zone's name in dnsKey form: the name of its SOA record
// (a zone has one, at its apex), else the zone's declared Name, else "".
func zoneApex(parent StackResource, recs []r53types.ResourceRecordSet) string {
	for _, rec := range recs {
		if rec.Type == r53types.RRTypeSoa {
			return dnsKey(aws.ToString(rec.Name))
		}
	}
	if name, err := declaredString(parent.Declared, "Name"); err == nil {
		return dnsKey(name)
	}
	return ""
}

// awsMadeRecord reports whether AWS made rec: the apex NS and SOA records
// Route 53 creates with every zone, or an ACM DNS-validation record (a
// CNAME named "_<hex>.<domain>" whose one value is in acm-validations.aws).
func awsMadeRecord(rec r53types.ResourceRecordSet, apex string) bool {
	name := dnsKey(aws.ToString(rec.Name))
	switch rec.Type {
	case r53types.RRTypeNs, r53types.RRTypeSoa:
		return apex != "" && name == apex
	case r53types.RRTypeCname:
		if !acmValidationName.MatchString(name) || len(rec.ResourceRecords) != 1 {
			return false
		}
		return strings.HasSuffix(dnsKey(aws.ToString(rec.ResourceRecords[0].Value)), acmValidationTarget)
	}
	return false
}

// recordCandidate is rec as an added RecordSet of zone, with the model
// readRecordSet reads for it.
func recordCandidate(zone string, rec r53types.ResourceRecordSet) candidate {
	name := strings.TrimSuffix(dnsUnescape(aws.ToString(rec.Name)), ".")
	typ, set := string(rec.Type), aws.ToString(rec.SetIdentifier)
	seed := map[string]any{"HostedZoneId": zone, "Name": name, "Type": typ}
	id := zone + "|" + name + "|" + typ
	if set != "" {
		seed["SetIdentifier"] = set
		id += "|" + set
	}
	model := map[string]any{"HostedZoneId": zone}
	for k, v := range recordModel(rec, seed) {
		model[k] = v
	}
	return candidate{typ: recordSetType, id: id, physical: name, model: model}
}

// recordKeys are the records a stack declares in one zone: by name, type
// and set identifier, by name and type (set identifier unresolved), and
// by name alone (type unresolved). Names are dnsKeys, types upper case.
type recordKeys struct {
	exact, nameType, name map[string]bool
}

func (k recordKeys) has(rec r53types.ResourceRecordSet) bool {
	name, typ := dnsKey(aws.ToString(rec.Name)), strings.ToUpper(string(rec.Type))
	return k.name[name] || k.nameType[name+"\x00"+typ] || k.exact[name+"\x00"+typ+"\x00"+aws.ToString(rec.SetIdentifier)]
}

// add records one declared record set d (a RecordSet's properties or a
// RecordSetGroup's entry); ok is false when its Name is not resolved.
func (k recordKeys) add(d map[string]any) (ok bool) {
	name, err := declaredString(d, "Name")
	if err != nil {
		return false
	}
	name = dnsKey(name)
	typ, err := declaredString(d, "Type")
	if err != nil {
		k.name[name] = true
		return true
	}
	typ = strings.ToUpper(typ)
	set := ""
	if _, declared := d["SetIdentifier"]; declared {
		if set, err = declaredString(d, "SetIdentifier"); err != nil {
			k.nameType[name+"\x00"+typ] = true
			return true
		}
	}
	k.exact[name+"\x00"+typ+"\x00"+set] = true
	return true
}

// declaredRecords gathers the records the stack's RecordSets and
// RecordSetGroups declare in zone (apex: its name, when known). A group
// whose records cannot be told is an error: the zone is skipped.
func declaredRecords(stack []StackResource, zone, apex string) (recordKeys, error) {
	k := recordKeys{exact: map[string]bool{}, nameType: map[string]bool{}, name: map[string]bool{}}
	for _, r := range stack {
		switch r.Type {
		case recordSetType:
			if !declaredInZone(r.Declared, zone, apex) {
				continue
			}
			if !k.add(r.Declared) && r.PhysicalID != "" {
				k.name[dnsKey(r.PhysicalID)] = true
			}
		case "AWS::Route53::RecordSetGroup":
			if !declaredInZone(r.Declared, zone, apex) {
				continue
			}
			v, ok := r.Declared["RecordSets"]
			if !ok || v == nil {
				continue
			}
			list, ok := v.([]any)
			if !ok {
				what := "not a list"
				if drift.ContainsUnknown(v) {
					what = "unresolved"
				}
				return k, skip(fmt.Sprintf("the RecordSets of %s are %s: its records cannot be told from out-of-band ones", r.LogicalID, what))
			}
			if err := k.addGroup(r.LogicalID, list); err != nil {
				return k, err
			}
		}
	}
	return k, nil
}

// addGroup records the entries of group logical's RecordSets.
func (k recordKeys) addGroup(logical string, list []any) error {
	for i, e := range list {
		d, ok := e.(map[string]any)
		if !ok {
			return skip(fmt.Sprintf("%s RecordSets.%d is not a resolved object: its record cannot be told from out-of-band ones", logical, i))
		}
		if !k.add(d) {
			return skip(fmt.Sprintf("the Name of %s RecordSets.%d is unresolved: its record cannot be told from out-of-band ones", logical, i))
		}
	}
	return nil
}

// declaredInZone reports whether a record set declared with d may be in
// zone: its HostedZoneId is zone, or its HostedZoneName is the zone's
// name (apex). A zone that is not resolved, or a name when the zone's is
// not known, may be this one (fail closed).
func declaredInZone(d map[string]any, zone, apex string) bool {
	if _, ok := d["HostedZoneId"]; ok {
		id, err := declaredString(d, "HostedZoneId")
		return err != nil || strings.EqualFold(strings.TrimPrefix(id, "/hostedzone/"), zone)
	}
	if _, ok := d["HostedZoneName"]; ok {
		name, err := declaredString(d, "HostedZoneName")
		return err != nil || apex == "" || dnsKey(name) == apex
	}
	return true
}
