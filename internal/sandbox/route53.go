package sandbox

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// route53Service serves Route 53 (REST-XML, errors wrapped in
// <ErrorResponse>): a zone's record sets and zones by name, and record
// changes (route53_write.go).
//
// A hosted zone is an AWS::Route53::HostedZone model (Id, else its
// identifier; Name), or a zone id that a record names. Records are the
// AWS::Route53::RecordSet models and the RecordSets of the
// AWS::Route53::RecordSetGroup models, in their zone (HostedZoneId, else
// the zone named HostedZoneName). They are answered as Route 53 does:
// names in lower case with the final dot and characters outside
// [a-z0-9-_.] as \ddd octal escapes, ordered by name read from its last
// label, then type, then set identifier. The SOA and NS records AWS creates
// with a zone are not synthesised.
func route53Service() *service {
	return &service{
		name:       "route53",
		protocol:   protoRESTXML,
		xmlns:      route53NS,
		wrapErrors: true,
		throttle:   apiError{Status: 400, Code: "Throttling"},
		deny:       apiError{Status: 403, Code: "AccessDenied"},
		route:      route53Route,
		ops: map[string]handler{
			"ListResourceRecordSets": route53ListResourceRecordSets,
			"ListHostedZonesByName":  route53ListHostedZonesByName,
			// The write side (route53_write.go).
			"ChangeResourceRecordSets": route53ChangeResourceRecordSets,
			"GetChange":                route53GetChange,
		},
	}
}

const route53NS = "https://route53.amazonaws.com/doc/2013-04-01/"

// route53Route names GET /2013-04-01/hostedzone/{Id}/rrset and GET
// /2013-04-01/hostedzonesbyname, and the write side's routes
// (route53WriteRoute).
func route53Route(r *http.Request) (string, map[string]string) {
	if op, params := route53WriteRoute(r); op != "" {
		return op, params
	}
	if r.Method != http.MethodGet {
		return "", nil
	}
	segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	switch {
	case len(segs) == 2 && segs[0] == "2013-04-01" && segs[1] == "hostedzonesbyname":
		return "ListHostedZonesByName", map[string]string{}
	case len(segs) == 4 && segs[0] == "2013-04-01" && segs[1] == "hostedzone" && segs[3] == "rrset":
		id, err := url.PathUnescape(segs[2])
		if err != nil {
			return "", nil
		}
		return "ListResourceRecordSets", map[string]string{"zone": id}
	}
	return "", nil
}

// restXML is a REST-XML reply with root as the document element.
func restXML(root *xnode, ns string) raw {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	inner := &bytes.Buffer{}
	for _, k := range root.kids {
		k.write(inner)
	}
	fmt.Fprintf(&b, `<%s xmlns="%s">`, root.name, ns)
	b.Write(inner.Bytes())
	fmt.Fprintf(&b, `</%s>`, root.name)
	return raw{status: 200, contentType: "text/xml", body: b.Bytes()}
}

// r53Zone is one hosted zone.
type r53Zone struct{ id, name string }

// r53Record is one record set in a zone, as a template declares it.
type r53Record struct {
	zone  string
	model map[string]any
}

// route53Zones returns the account's hosted zones by id.
func route53Zones(st *world.State, c *call) map[string]*r53Zone {
	zones := map[string]*r53Zone{}
	for _, z := range st.OfType(c.account, c.region, "AWS::Route53::HostedZone") {
		id := strings.TrimPrefix(world.FieldString(z, "Id"), "/hostedzone/")
		if id == "" {
			id = z.CCID()
		}
		zones[id] = &r53Zone{id: id, name: r53Name(world.FieldString(z, "Name"))}
	}
	return zones
}

// route53Records returns the account's records, each with its zone id; a
// record whose zone cannot be named is left out.
func route53Records(st *world.State, c *call, zones map[string]*r53Zone) []r53Record {
	byName := map[string]string{}
	for id, z := range zones {
		byName[z.name] = id
	}
	zoneOf := func(m map[string]any) string {
		if id, _ := m["HostedZoneId"].(string); id != "" {
			return strings.TrimPrefix(id, "/hostedzone/")
		}
		if n, _ := m["HostedZoneName"].(string); n != "" {
			return byName[r53Name(n)]
		}
		return ""
	}
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
	for _, res := range st.OfType(c.account, c.region, "AWS::Route53::RecordSet") {
		m, _ := fieldObject(res)
		add(zoneOf(m), m)
	}
	for _, res := range st.OfType(c.account, c.region, "AWS::Route53::RecordSetGroup") {
		g, _ := fieldObject(res)
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

// fieldObject decodes a resource's whole model, numbers as json.Number
// (their text kept).
func fieldObject(res *world.Resource) (map[string]any, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(res.Properties))
	d.UseNumber()
	err := d.Decode(&m)
	return m, err
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
func route53ListResourceRecordSets(st *world.State, c *call) (any, error) {
	zone := strings.TrimPrefix(c.params["zone"], "/hostedzone/")
	name, typ, set := c.str("name"), c.str("type"), c.str("identifier")
	if typ != "" && name == "" {
		return nil, errf(400, "InvalidInput", "Invalid request: type specified without name")
	}
	if set != "" && typ == "" {
		return nil, errf(400, "InvalidInput", "Invalid request: identifier specified without type")
	}
	size := 300
	if m := c.str("maxitems"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return nil, errf(400, "InvalidInput", "1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must be a positive integer", m)
		}
		size = min(n, 300)
	}
	st.RLock()
	defer st.RUnlock()
	zones := route53Zones(st, c)
	recs := route53Records(st, c, zones)
	if zones[zone] == nil {
		return nil, errf(404, "NoSuchHostedZone", "No hosted zone found with ID: %s", zone)
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
	var nodes []*xnode
	for _, it := range its[start:end] {
		nodes = append(nodes, r53RecordNode(it))
	}
	list := &xnode{name: "ResourceRecordSets", kids: nodes}
	out := el("ListResourceRecordSetsResponse", list, xbool("IsTruncated", end < len(its)), tx("MaxItems", strconv.Itoa(size)))
	if end < len(its) {
		nx := its[end]
		out.add(tx("NextRecordName", nx.name), tx("NextRecordType", nx.typ), opt("NextRecordIdentifier", nx.set))
	}
	return restXML(out, route53NS), nil
}

// r53RecordNode is a <ResourceRecordSet> from a record's template model.
func r53RecordNode(it r53Item) *xnode {
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
	n := el("ResourceRecordSet", tx("Name", it.name), tx("Type", it.typ), opt("SetIdentifier", it.set), opt("Weight", str("Weight")), opt("Region", str("Region")))
	if g, ok := m["GeoLocation"].(map[string]any); ok {
		n.add(el("GeoLocation", objOpt(g, "ContinentCode"), objOpt(g, "CountryCode"), objOpt(g, "SubdivisionCode")))
	}
	n.add(opt("Failover", str("Failover")), opt("MultiValueAnswer", str("MultiValueAnswer")), opt("TTL", str("TTL")))
	if rrs, ok := m["ResourceRecords"].([]any); ok {
		var kids []*xnode
		for _, v := range rrs {
			if s, ok := v.(string); ok {
				kids = append(kids, el("ResourceRecord", tx("Value", s)))
			}
		}
		n.add(&xnode{name: "ResourceRecords", kids: kids})
	}
	if a, ok := m["AliasTarget"].(map[string]any); ok {
		dns, _ := a["DNSName"].(string)
		eval, _ := a["EvaluateTargetHealth"].(bool)
		n.add(el("AliasTarget", objOpt(a, "HostedZoneId"), tx("DNSName", r53Name(dns)), xbool("EvaluateTargetHealth", eval)))
	}
	n.add(opt("HealthCheckId", str("HealthCheckId")))
	if cr, ok := m["CidrRoutingConfig"].(map[string]any); ok {
		n.add(el("CidrRoutingConfig", objOpt(cr, "CollectionId"), objOpt(cr, "LocationName")))
	}
	if g, ok := m["GeoProximityLocation"].(map[string]any); ok {
		geo := el("GeoProximityLocation", objOpt(g, "AWSRegion"), objOpt(g, "LocalZoneGroup"))
		if co, ok := g["Coordinates"].(map[string]any); ok {
			geo.add(el("Coordinates", objOpt(co, "Latitude"), objOpt(co, "Longitude")))
		}
		if b, ok := g["Bias"].(json.Number); ok {
			geo.add(tx("Bias", b.String()))
		}
		n.add(geo)
	}
	return n
}

// objOpt is an optional element from a string field of an object.
func objOpt(m map[string]any, k string) *xnode {
	s, _ := m[k].(string)
	return opt(k, s)
}

// route53ListHostedZonesByName lists the zones from dnsname (in Route 53's
// order of names), at most maxitems (default 100) a page.
func route53ListHostedZonesByName(st *world.State, c *call) (any, error) {
	from, zoneID := c.str("dnsname"), c.str("hostedzoneid")
	if zoneID != "" && from == "" {
		return nil, errf(400, "InvalidInput", "Invalid request: hostedzoneid specified without dnsname")
	}
	size := 100
	if m := c.str("maxitems"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return nil, errf(400, "InvalidInput", "1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must be a positive integer", m)
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
	var nodes []*xnode
	for _, z := range list[start:end] {
		nodes = append(nodes, el("HostedZone", tx("Id", "/hostedzone/"+z.id), tx("Name", z.name), tx("CallerReference", z.id),
			el("Config", xbool("PrivateZone", false)), tx("ResourceRecordSetCount", "0")))
	}
	out := el("ListHostedZonesByNameResponse", &xnode{name: "HostedZones", kids: nodes}, opt("DNSName", from), opt("HostedZoneId", zoneID),
		xbool("IsTruncated", end < len(list)), tx("MaxItems", strconv.Itoa(size)))
	if end < len(list) {
		out.add(tx("NextDNSName", list[end].name), tx("NextHostedZoneId", list[end].id))
	}
	return restXML(out, route53NS), nil
}

// add appends the non-nil kids.
func (n *xnode) add(kids ...*xnode) {
	for _, k := range kids {
		if k != nil {
			n.kids = append(n.kids, k)
		}
	}
}
