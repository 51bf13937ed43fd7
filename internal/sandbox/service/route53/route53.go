package route53

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

const route53NS = "https://route53.amazonaws.com/doc/2013-04-01/"

// restXML is a REST-XML reply with root as the document element.
func restXML(root *wire.Node, ns string) wire.Raw {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	inner := &bytes.Buffer{}
	for _, k := range root.Kids {
		k.Write(inner)
	}
	fmt.Fprintf(&b, `<%s xmlns="%s">`, root.Name, ns)
	b.Write(inner.Bytes())
	fmt.Fprintf(&b, `</%s>`, root.Name)
	return wire.Raw{Status: 200, ContentType: "text/xml", Body: b.Bytes()}
}

// r53Zone is one hosted zone.
type r53Zone struct{ id, name string }

// r53Record is one record set in a zone, as a template declares it.
type r53Record struct {
	zone  string
	model map[string]any
}

// route53Zones returns the account's hosted zones by id.
func route53Zones(st *world.State, c *wire.Call) map[string]*r53Zone {
	zones := map[string]*r53Zone{}
	for _, z := range st.OfType(c.Account, c.Region, "AWS::Route53::HostedZone") {
		id := strings.TrimPrefix(world.FieldString(z, "Id"), "/hostedzone/")
		if id == "" {
			id = z.CCID()
		}
		zones[id] = &r53Zone{id: id, name: r53Name(world.FieldString(z, "Name"))}
	}
	return zones
}

// recordZone gives the id of the zone a record set's model is in (its
// HostedZoneId, else the zone of its HostedZoneName among zones; "" when
// neither names one).
func recordZone(zones map[string]*r53Zone) func(m map[string]any) string {
	byName := map[string]string{}
	for id, z := range zones {
		byName[z.name] = id
	}
	return func(m map[string]any) string {
		if id, _ := m["HostedZoneId"].(string); id != "" {
			return strings.TrimPrefix(id, "/hostedzone/")
		}
		if n, _ := m["HostedZoneName"].(string); n != "" {
			return byName[r53Name(n)]
		}
		return ""
	}
}

// route53Records returns the account's records, each with its zone id; a
// record whose zone cannot be named is left out.
func route53Records(st *world.State, c *wire.Call, zones map[string]*r53Zone) []r53Record {
	zoneOf := recordZone(zones)
	var out []r53Record
	add := func(zone string, m map[string]any) {
		if zone == "" {
			return
		}
		if zones[zone] == nil {
			zones[zone] = &r53Zone{id: zone}
		}
		out = append(out, r53Record{zone: zone, model: m})
	}
	for _, res := range st.OfType(c.Account, c.Region, "AWS::Route53::RecordSet") {
		m, _ := world.FieldObject(res)
		add(zoneOf(m), m)
	}
	for _, res := range st.OfType(c.Account, c.Region, "AWS::Route53::RecordSetGroup") {
		g, _ := world.FieldObject(res)
		zone := zoneOf(g)
		sets, _ := g["RecordSets"].([]any)
		for _, e := range sets {
			if m, ok := e.(map[string]any); ok {
				add(zone, m)
			}
		}
	}
	return out
}

// r53Name is a name as Route 53 answers it: lower case, escaped, with the
// final dot.
func r53Name(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '-', ch == '_', ch == '.':
			b.WriteByte(ch)
		case ch == '\\' && i+3 < len(s) && isOctal(s[i+1:i+4]):
			b.WriteString(s[i : i+4])
			i += 3
		default:
			fmt.Fprintf(&b, `\%03o`, ch)
		}
	}
	return b.String() + "."
}

func isOctal(s string) bool {
	_, err := strconv.ParseUint(s, 8, 8)
	return err == nil
}

// r53Order is a name's sort key: its labels from the last.
func r53Order(name string) string {
	labels := strings.Split(strings.TrimSuffix(name, "."), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, "\x00")
}

// r53Item is one record of a listing.
type r53Item struct {
	name, typ, set string
	model          map[string]any
}

func (a r53Item) less(b r53Item) bool {
	if oa, ob := r53Order(a.name), r53Order(b.name); oa != ob {
		return oa < ob
	}
	if a.typ != b.typ {
		return a.typ < b.typ
	}
	return a.set < b.set
}

// route53ListResourceRecordSets lists a zone's records from name, type and
// identifier (each needs the one before it), at most maxitems (1-300,
// default 300) a page, with IsTruncated and NextRecordName / Type /
// Identifier as Route 53 pages them.
func route53ListResourceRecordSets(st *world.State, c *wire.Call) (any, error) {
	zone := strings.TrimPrefix(c.Params["zone"], "/hostedzone/")
	name, typ, set := c.Str("name"), c.Str("type"), c.Str("identifier")
	if typ != "" && name == "" {
		return nil, wire.Errf(400, "InvalidInput", "Invalid request: type specified without name")
	}
	if set != "" && typ == "" {
		return nil, wire.Errf(400, "InvalidInput", "Invalid request: identifier specified without type")
	}
	size := 300
	if m := c.Str("maxitems"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return nil, wire.Errf(400, "InvalidInput", "1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must be a positive integer", m)
		}
		size = min(n, 300)
	}
	st.RLock()
	defer st.RUnlock()
	zones := route53Zones(st, c)
	recs := route53Records(st, c, zones)
	if zones[zone] == nil {
		return nil, wire.Errf(404, "NoSuchHostedZone", "No hosted zone found with ID: %s", zone)
	}
	var its []r53Item
	for _, r := range recs {
		if r.zone != zone {
			continue
		}
		n, _ := r.model["Name"].(string)
		t, _ := r.model["Type"].(string)
		id, _ := r.model["SetIdentifier"].(string)
		its = append(its, r53Item{name: r53Name(n), typ: t, set: id, model: r.model})
	}
	sort.Slice(its, func(i, j int) bool { return its[i].less(its[j]) })
	start := 0
	if name != "" {
		from := r53Item{name: r53Name(name), typ: typ, set: set}
		for start < len(its) && its[start].less(from) {
			start++
		}
	}
	end := min(start+size, len(its))
	var nodes []*wire.Node
	for _, it := range its[start:end] {
		nodes = append(nodes, r53RecordNode(it))
	}
	list := &wire.Node{Name: "ResourceRecordSets", Kids: nodes}
	out := wire.El("ListResourceRecordSetsResponse", list, wire.Bool("IsTruncated", end < len(its)), wire.Tx("MaxItems", strconv.Itoa(size)))
	if end < len(its) {
		nx := its[end]
		out.Add(wire.Tx("NextRecordName", nx.name), wire.Tx("NextRecordType", nx.typ), wire.Opt("NextRecordIdentifier", nx.set))
	}
	return restXML(out, route53NS), nil
}

// r53RecordNode is a <ResourceRecordSet> from a record's template model.
func r53RecordNode(it r53Item) *wire.Node {
	m := it.model
	str := func(k string) string {
		switch v := m[k].(type) {
		case string:
			return v
		case json.Number:
			return v.String()
		case bool:
			return strconv.FormatBool(v)
		}
		return ""
	}
	n := wire.El("ResourceRecordSet", wire.Tx("Name", it.name), wire.Tx("Type", it.typ), wire.Opt("SetIdentifier", it.set), wire.Opt("Weight", str("Weight")), wire.Opt("Region", str("Region")))
	if g, ok := m["GeoLocation"].(map[string]any); ok {
		n.Add(wire.El("GeoLocation", objOpt(g, "ContinentCode"), objOpt(g, "CountryCode"), objOpt(g, "SubdivisionCode")))
	}
	n.Add(wire.Opt("Failover", str("Failover")), wire.Opt("MultiValueAnswer", str("MultiValueAnswer")), wire.Opt("TTL", str("TTL")))
	if rrs, ok := m["ResourceRecords"].([]any); ok {
		var kids []*wire.Node
		for _, v := range rrs {
			if s, ok := v.(string); ok {
				kids = append(kids, wire.El("ResourceRecord", wire.Tx("Value", s)))
			}
		}
		n.Add(&wire.Node{Name: "ResourceRecords", Kids: kids})
	}
	if a, ok := m["AliasTarget"].(map[string]any); ok {
		dns, _ := a["DNSName"].(string)
		eval, _ := a["EvaluateTargetHealth"].(bool)
		n.Add(wire.El("AliasTarget", objOpt(a, "HostedZoneId"), wire.Tx("DNSName", r53Name(dns)), wire.Bool("EvaluateTargetHealth", eval)))
	}
	n.Add(wire.Opt("HealthCheckId", str("HealthCheckId")))
	if cr, ok := m["CidrRoutingConfig"].(map[string]any); ok {
		n.Add(wire.El("CidrRoutingConfig", objOpt(cr, "CollectionId"), objOpt(cr, "LocationName")))
	}
	if g, ok := m["GeoProximityLocation"].(map[string]any); ok {
		geo := wire.El("GeoProximityLocation", objOpt(g, "AWSRegion"), objOpt(g, "LocalZoneGroup"))
		if co, ok := g["Coordinates"].(map[string]any); ok {
			geo.Add(wire.El("Coordinates", objOpt(co, "Latitude"), objOpt(co, "Longitude")))
		}
		if b, ok := g["Bias"].(json.Number); ok {
			geo.Add(wire.Tx("Bias", b.String()))
		}
		n.Add(geo)
	}
	return n
}

// objOpt is an optional element from a string field of an object.
func objOpt(m map[string]any, k string) *wire.Node {
	s, _ := m[k].(string)
	return wire.Opt(k, s)
}

// route53ListHostedZonesByName lists the zones from dnsname (in Route 53's
// order of names), at most maxitems (default 100) a page.
func route53ListHostedZonesByName(st *world.State, c *wire.Call) (any, error) {
	from, zoneID := c.Str("dnsname"), c.Str("hostedzoneid")
	if zoneID != "" && from == "" {
		return nil, wire.Errf(400, "InvalidInput", "Invalid request: hostedzoneid specified without dnsname")
	}
	size := 100
	if m := c.Str("maxitems"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return nil, wire.Errf(400, "InvalidInput", "1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must be a positive integer", m)
		}
		size = min(n, 100)
	}
	st.RLock()
	defer st.RUnlock()
	zones := route53Zones(st, c)
	route53Records(st, c, zones)
	var list []*r53Zone
	for _, z := range zones {
		if z.name != "" {
			list = append(list, z)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if oi, oj := r53Order(list[i].name), r53Order(list[j].name); oi != oj {
			return oi < oj
		}
		return list[i].id < list[j].id
	})
	start := 0
	if from != "" {
		key := r53Order(r53Name(from))
		for start < len(list) && (r53Order(list[start].name) < key || (r53Order(list[start].name) == key && zoneID != "" && list[start].id < zoneID)) {
			start++
		}
	}
	end := min(start+size, len(list))
	var nodes []*wire.Node
	for _, z := range list[start:end] {
		nodes = append(nodes, wire.El("HostedZone", wire.Tx("Id", "/hostedzone/"+z.id), wire.Tx("Name", z.name), wire.Tx("CallerReference", z.id),
			wire.El("Config", wire.Bool("PrivateZone", false)), wire.Tx("ResourceRecordSetCount", "0")))
	}
	out := wire.El("ListHostedZonesByNameResponse", &wire.Node{Name: "HostedZones", Kids: nodes}, wire.Opt("DNSName", from), wire.Opt("HostedZoneId", zoneID),
		wire.Bool("IsTruncated", end < len(list)), wire.Tx("MaxItems", strconv.Itoa(size)))
	if end < len(list) {
		out.Add(wire.Tx("NextDNSName", list[end].name), wire.Tx("NextHostedZoneId", list[end].id))
	}
	return restXML(out, route53NS), nil
}
