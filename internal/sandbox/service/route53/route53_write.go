package route53

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Route 53's write side: ChangeResourceRecordSets (CREATE, UPSERT and
// DELETE, all of a batch or none) and GetChange.
//
// A change writes the record's model at once (ListResourceRecordSets
// shows it, as Route 53's API does); its status is PENDING when submitted
// and INSYNC once the operation delay has passed since, as GetChange
// answers it. The change id carries its submission time (C + the Unix
// nanoseconds in base 36), so no change table is kept.
//
// An UPSERT or DELETE finds the record by zone, name (Route 53's form),
// type and set identifier: an AWS::Route53::RecordSet model has its
// record-data properties replaced (its zone, name and every other
// property kept; TTL keeps the kind the model wrote it in), an entry of an
// AWS::Route53::RecordSetGroup's RecordSets likewise. A DELETE marks the
// record set deleted or drops the group's entry; a CREATE (or an UPSERT of
// a new record) adds a live-only AWS::Route53::RecordSet.

// r53RecordData are the record-data properties a change replaces.
var r53RecordData = []string{"TTL", "ResourceRecords", "AliasTarget", "Weight", "Region", "Failover", "GeoLocation",
	"GeoProximityLocation", "CidrRoutingConfig", "MultiValueAnswer", "HealthCheckId"}

type r53ChangeRequest struct {
	XMLName xml.Name    `xml:"ChangeResourceRecordSetsRequest"`
	Comment string      `xml:"ChangeBatch>Comment"`
	Changes []r53Change `xml:"ChangeBatch>Changes>Change"`
}

type r53Change struct {
	Action string    `xml:"Action"`
	Set    *r53XMLRR `xml:"ResourceRecordSet"`
}

type r53XMLRR struct {
	Name          string   `xml:"Name"`
	Type          string   `xml:"Type"`
	SetIdentifier string   `xml:"SetIdentifier"`
	Weight        *int64   `xml:"Weight"`
	Region        string   `xml:"Region"`
	Failover      string   `xml:"Failover"`
	MultiValue    *bool    `xml:"MultiValueAnswer"`
	TTL           *int64   `xml:"TTL"`
	HealthCheckID string   `xml:"HealthCheckId"`
	Values        []string `xml:"ResourceRecords>ResourceRecord>Value"`
	GeoLocation   *struct {
		ContinentCode   string `xml:"ContinentCode"`
		CountryCode     string `xml:"CountryCode"`
		SubdivisionCode string `xml:"SubdivisionCode"`
	} `xml:"GeoLocation"`
	AliasTarget *struct {
		HostedZoneID         string `xml:"HostedZoneId"`
		DNSName              string `xml:"DNSName"`
		EvaluateTargetHealth bool   `xml:"EvaluateTargetHealth"`
	} `xml:"AliasTarget"`
	CidrRoutingConfig *struct {
		CollectionID string `xml:"CollectionId"`
		LocationName string `xml:"LocationName"`
	} `xml:"CidrRoutingConfig"`
	GeoProximity *struct {
		AWSRegion      string `xml:"AWSRegion"`
		LocalZoneGroup string `xml:"LocalZoneGroup"`
		Bias           *int64 `xml:"Bias"`
		Coordinates    *struct {
			Latitude  string `xml:"Latitude"`
			Longitude string `xml:"Longitude"`
		} `xml:"Coordinates"`
	} `xml:"GeoProximityLocation"`
}

// data is the record's record-data properties in the template's shape
// (TTL as ttlNumber says).
func (x *r53XMLRR) data(ttlNumber bool) map[string]any {
	m := map[string]any{}
	if x.TTL != nil {
		if ttlNumber {
			m["TTL"] = json.Number(strconv.FormatInt(*x.TTL, 10))
		} else {
			m["TTL"] = strconv.FormatInt(*x.TTL, 10)
		}
	}
	if len(x.Values) > 0 {
		vals := make([]any, len(x.Values))
		for i, v := range x.Values {
			vals[i] = v
		}
		m["ResourceRecords"] = vals
	}
	if a := x.AliasTarget; a != nil {
		m["AliasTarget"] = map[string]any{"HostedZoneId": a.HostedZoneID, "DNSName": a.DNSName, "EvaluateTargetHealth": a.EvaluateTargetHealth}
	}
	if x.Weight != nil {
		m["Weight"] = json.Number(strconv.FormatInt(*x.Weight, 10))
	}
	for k, v := range map[string]string{"Region": x.Region, "Failover": x.Failover, "HealthCheckId": x.HealthCheckID} {
		if v != "" {
			m[k] = v
		}
	}
	if x.MultiValue != nil {
		m["MultiValueAnswer"] = *x.MultiValue
	}
	if g := x.GeoLocation; g != nil {
		geo := map[string]any{}
		for k, v := range map[string]string{"ContinentCode": g.ContinentCode, "CountryCode": g.CountryCode, "SubdivisionCode": g.SubdivisionCode} {
			if v != "" {
				geo[k] = v
			}
		}
		m["GeoLocation"] = geo
	}
	if g := x.GeoProximity; g != nil {
		geo := map[string]any{}
		if g.AWSRegion != "" {
			geo["AWSRegion"] = g.AWSRegion
		}
		if g.LocalZoneGroup != "" {
			geo["LocalZoneGroup"] = g.LocalZoneGroup
		}
		if g.Bias != nil {
			geo["Bias"] = json.Number(strconv.FormatInt(*g.Bias, 10))
		}
		if co := g.Coordinates; co != nil {
			geo["Coordinates"] = map[string]any{"Latitude": co.Latitude, "Longitude": co.Longitude}
		}
		m["GeoProximityLocation"] = geo
	}
	if cr := x.CidrRoutingConfig; cr != nil {
		m["CidrRoutingConfig"] = map[string]any{"CollectionId": cr.CollectionID, "LocationName": cr.LocationName}
	}
	return m
}

// check refuses a record Route 53 would not accept for what its model's
// shapes cannot say (which members go together); the front end has
// checked the shapes' constraints (a TTL's range) before the handler.
func (x *r53XMLRR) check() error {
	switch {
	case x.Name == "" || x.Type == "":
		return wire.Errf(400, "InvalidInput", "Invalid request: a resource record set needs Name and Type")
	case x.AliasTarget != nil && (x.TTL != nil || len(x.Values) > 0):
		return wire.Errf(400, "InvalidInput", "Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found more than one in Change with [Action=…, Name=%s, Type=%s, SetIdentifier=%s]", x.Name, x.Type, x.SetIdentifier)
	case x.AliasTarget == nil && (x.TTL == nil || len(x.Values) == 0):
		return wire.Errf(400, "InvalidInput", "Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found none in Change with [Name=%s, Type=%s, SetIdentifier=%s]", x.Name, x.Type, x.SetIdentifier)
	case x.Weight != nil && x.SetIdentifier == "", x.Region != "" && x.SetIdentifier == "", x.Failover != "" && x.SetIdentifier == "":
		return wire.Errf(400, "InvalidInput", "Invalid request: a routing policy needs SetIdentifier (record %s %s)", x.Name, x.Type)
	}
	return nil
}

// r53Holder is where a record lives: a RecordSet resource, or entry i of a
// RecordSetGroup's RecordSets.
type r53Holder struct {
	res   *world.Resource
	group bool
	index int
	model map[string]any
}

// route53Holders finds the records of zone by name, type and set key.
func route53Holders(st *world.State, c *wire.Call, zone string) map[string]*r53Holder {
	zones := route53Zones(st, c)
	zoneOf := recordZone(zones)
	out := map[string]*r53Holder{}
	key := func(m map[string]any) string {
		n, _ := m["Name"].(string)
		t, _ := m["Type"].(string)
		id, _ := m["SetIdentifier"].(string)
		return r53Key(n, t, id)
	}
	for _, res := range st.OfType(c.Account, c.Region, "AWS::Route53::RecordSet") {
		m, _ := world.FieldObject(res)
		if zoneOf(m) == zone {
			out[key(m)] = &r53Holder{res: res, model: m}
		}
	}
	for _, res := range st.OfType(c.Account, c.Region, "AWS::Route53::RecordSetGroup") {
		g, _ := world.FieldObject(res)
		if zoneOf(g) != zone {
			continue
		}
		sets, _ := g["RecordSets"].([]any)
		for i, e := range sets {
			if m, ok := e.(map[string]any); ok {
				out[key(m)] = &r53Holder{res: res, group: true, index: i, model: m}
			}
		}
	}
	return out
}

func r53Key(name, typ, set string) string {
	return r53Name(name) + "\x00" + strings.ToUpper(typ) + "\x00" + set
}

// route53ChangeResourceRecordSets applies a change batch: every change is
// checked against the zone first, then all are written.
func route53ChangeResourceRecordSets(st *world.State, c *wire.Call) (any, error) {
	zone := strings.TrimPrefix(c.Params["zone"], "/hostedzone/")
	var in r53ChangeRequest
	if err := xml.Unmarshal(c.Body, &in); err != nil {
		return nil, wire.Errf(400, "InvalidInput", "Invalid request: the change batch is not valid XML: %v", err)
	}
	if len(in.Changes) == 0 {
		return nil, wire.Errf(400, "InvalidInput", "1 validation error detected: Value '[]' at 'changeBatch.changes' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	st.Lock()
	defer st.Unlock()
	zones := route53Zones(st, c)
	z := zones[zone]
	if z == nil {
		route53Records(st, c, zones) // zones only records name
		if z = zones[zone]; z == nil {
			return nil, wire.Errf(404, "NoSuchHostedZone", "No hosted zone found with ID: %s", zone)
		}
	}
	have := route53Holders(st, c, zone)
	seen := map[string]bool{}
	var problems []string
	for _, ch := range in.Changes {
		x := ch.Set
		if x == nil {
			return nil, wire.Errf(400, "InvalidInput", "Invalid request: a change needs a ResourceRecordSet")
		}
		if err := x.check(); err != nil {
			return nil, err
		}
		k := r53Key(x.Name, x.Type, x.SetIdentifier)
		desc := fmt.Sprintf("[name='%s', type='%s'%s]", r53Name(x.Name), strings.ToUpper(x.Type), setDesc(x.SetIdentifier))
		if seen[k] {
			return nil, wire.Errf(400, "InvalidChangeBatch", "[The request contains an invalid set of changes for a resource record set '%s %s']", r53Name(x.Name), x.Type)
		}
		seen[k] = true
		if z.name != "" && r53Name(x.Name) != z.name && !strings.HasSuffix(r53Name(x.Name), "."+z.name) {
			problems = append(problems, fmt.Sprintf("RRSet with DNS name %s is not permitted in zone %s", r53Name(x.Name), z.name))
			continue
		}
		h := have[k]
		switch ch.Action {
		case "CREATE":
			if h != nil {
				problems = append(problems, "Tried to create resource record set "+desc+" but it already exists")
			}
		case "DELETE":
			switch {
			case h == nil:
				problems = append(problems, "Tried to delete resource record set "+desc+" but it was not found")
			case !r53SameData(h.model, x):
				problems = append(problems, "Tried to delete resource record set "+desc+" but the values provided do not match the current values")
			}
		case "UPSERT":
		default:
			return nil, wire.Errf(400, "InvalidInput", "1 validation error detected: Value '%s' at 'changeBatch.changes.member.action' failed to satisfy constraint: Member must satisfy enum value set: [CREATE, DELETE, UPSERT]", ch.Action)
		}
	}
	if len(problems) > 0 {
		return nil, wire.Errf(400, "InvalidChangeBatch", "[%s]", strings.Join(problems, ", "))
	}
	for _, ch := range in.Changes {
		x := ch.Set
		h := have[r53Key(x.Name, x.Type, x.SetIdentifier)]
		var err error
		switch {
		case ch.Action == "DELETE":
			err = r53Delete(st, c, h)
		case h != nil:
			err = r53Replace(h, x)
		default:
			err = r53Create(st, c, zone, x)
		}
		if err != nil {
			return nil, err
		}
	}
	return restXML(wire.El("ChangeResourceRecordSetsResponse", r53ChangeInfo(c.Now(), "PENDING", in.Comment)), route53NS), nil
}

func setDesc(set string) string {
	if set == "" {
		return ""
	}
	return ", set-identifier='" + set + "'"
}

// r53SameData reports whether x holds the record data the model has.
func r53SameData(model map[string]any, x *r53XMLRR) bool {
	ttlNumber := false
	if _, ok := model["TTL"].(json.Number); ok {
		ttlNumber = true
	}
	want := x.data(ttlNumber)
	for _, k := range r53RecordData {
		a, _ := json.Marshal(model[k])
		b, _ := json.Marshal(want[k])
		if k == "AliasTarget" && model[k] != nil && want[k] != nil {
			ma, _ := model[k].(map[string]any)
			mb, _ := want[k].(map[string]any)
			if ma == nil || mb == nil || r53Name(fmt.Sprint(ma["DNSName"])) != r53Name(fmt.Sprint(mb["DNSName"])) ||
				fmt.Sprint(ma["HostedZoneId"]) != fmt.Sprint(mb["HostedZoneId"]) || fmt.Sprint(ma["EvaluateTargetHealth"]) != fmt.Sprint(mb["EvaluateTargetHealth"]) {
				return false
			}
			continue
		}
		if string(a) != string(b) {
			return false
		}
	}
	return true
}

// withData returns model with its record data replaced by x's.
func withData(model map[string]any, x *r53XMLRR) map[string]any {
	_, ttlNumber := model["TTL"].(json.Number)
	out := map[string]any{}
	for k, v := range model {
		out[k] = v
	}
	for _, k := range r53RecordData {
		delete(out, k)
	}
	for k, v := range x.data(ttlNumber) {
		out[k] = v
	}
	return out
}

// r53Replace writes x's record data into the record h holds.
func r53Replace(h *r53Holder, x *r53XMLRR) error {
	m := withData(h.model, x)
	if !h.group {
		for _, k := range r53RecordData {
			if err := world.RemoveField(h.res, k); err != nil {
				return err
			}
		}
		for _, k := range world.SortedKeys(m) {
			if world.Contains(r53RecordData, k) {
				if err := world.SetField(h.res, k, m[k]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	g, err := world.FieldObject(h.res)
	if err != nil {
		return err
	}
	sets, _ := g["RecordSets"].([]any)
	if h.index >= len(sets) {
		return wire.Errf(500, "InternalError", "record set group %s changed under the write", h.res.CCID())
	}
	sets[h.index] = m
	return world.SetField(h.res, "RecordSets", sets)
}

// r53Delete removes the record h holds.
func r53Delete(st *world.State, c *wire.Call, h *r53Holder) error {
	if !h.group {
		st.Remove(c.Account, c.Region, h.res)
		return nil
	}
	g, err := world.FieldObject(h.res)
	if err != nil {
		return err
	}
	sets, _ := g["RecordSets"].([]any)
	kept := make([]any, 0, len(sets))
	for i, e := range sets {
		if i != h.index {
			kept = append(kept, e)
		}
	}
	return world.SetField(h.res, "RecordSets", kept)
}

// r53Create adds a record of zone as a live-only AWS::Route53::RecordSet,
// identified by its name (with its type and set identifier when the name
// is taken).
func r53Create(st *world.State, c *wire.Call, zone string, x *r53XMLRR) error {
	m := map[string]any{"HostedZoneId": zone, "Name": x.Name, "Type": strings.ToUpper(x.Type)}
	if x.SetIdentifier != "" {
		m["SetIdentifier"] = x.SetIdentifier
	}
	for k, v := range x.data(false) {
		m[k] = v
	}
	b, err := world.MarshalNoEscape(m)
	if err != nil {
		return err
	}
	id := strings.TrimSuffix(x.Name, ".")
	if st.Resource(c.Account, c.Region, "AWS::Route53::RecordSet", id) != nil {
		id += "|" + strings.ToUpper(x.Type) + "|" + x.SetIdentifier
	}
	return st.AddLive(c.Account, c.Region, &world.Resource{Type: "AWS::Route53::RecordSet", PhysicalID: id, Properties: b})
}

// r53ChangeInfo is a <ChangeInfo> for a change submitted at t.
func r53ChangeInfo(t time.Time, status, comment string) *wire.Node {
	id := "C" + strings.ToUpper(strconv.FormatInt(t.UnixNano(), 36))
	return wire.El("ChangeInfo", wire.Tx("Id", "/change/"+id), wire.Tx("Status", status), wire.Time("SubmittedAt", t), wire.Opt("Comment", comment))
}

// route53GetChange answers a change's status: PENDING until the operation
// delay has passed since it was submitted, INSYNC after.
func route53GetChange(st *world.State, c *wire.Call) (any, error) {
	id := strings.TrimPrefix(c.Params["id"], "/change/")
	n, err := strconv.ParseInt(strings.ToLower(strings.TrimPrefix(id, "C")), 36, 64)
	if !strings.HasPrefix(id, "C") || err != nil {
		return nil, wire.Errf(404, "NoSuchChange", "A change with the specified change ID does not exist: %s", id)
	}
	at := time.Unix(0, n).UTC()
	if at.After(c.Now()) {
		return nil, wire.Errf(404, "NoSuchChange", "A change with the specified change ID does not exist: %s", id)
	}
	status := "PENDING"
	if !c.Now().Before(at.Add(c.OperationDelay)) {
		status = "INSYNC"
	}
	info := r53ChangeInfo(at, status, "")
	return restXML(wire.El("GetChangeResponse", info), route53NS), nil
}
