package ec2

import (
	"encoding/json"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Launch templates (EC2 query): DescribeLaunchTemplateVersions answers the
// world's AWS::EC2::LaunchTemplate models by id (the identifier, or the
// model's LaunchTemplateId) or name. A model is one version: its number
// is the model's DefaultVersionNumber (else 1) and both $Default and
// $Latest; its data is the model's LaunchTemplateData in EC2's XML shape
// (element names with a lower-case first letter, lists as <nameSet> of
// <item>s). A model without LaunchTemplateData (a Cloud Control recording,
// which cannot read it) answers a version without data.

// ltListNames are list elements of launch template data whose EC2 name is
// not the singular of the template's name plus "Set".
var ltListNames = map[string]string{
	"LicenseSpecifications": "licenseSet",
	"PrivateIpAddresses":    "privateIpAddressesSet",
	"Ipv6Addresses":         "ipv6AddressesSet",
	"Ipv4Prefixes":          "ipv4PrefixSet",
	"Ipv6Prefixes":          "ipv6PrefixSet",
}

// ec2XML renders a template-shaped value as EC2 XML under name: keys
// camelCased, a list's key as EC2 names its set (ltListNames, else
// singular + "Set"), list items as <item>s.
func ec2XML(name string, v any) *wire.Node {
	return wire.XMLStyle{Item: "item", Key: func(k string, list bool) string {
		if !list {
			return wire.LowerFirst(k)
		}
		if ln, ok := ltListNames[k]; ok {
			return ln
		}
		return strings.TrimSuffix(wire.LowerFirst(k), "s") + "Set"
	}}.Value(name, v)
}

func ec2DescribeLaunchTemplateVersions(st *world.State, c *wire.Call) (any, error) {
	id, name := c.Str("LaunchTemplateId"), c.Str("LaunchTemplateName")
	if (id == "") == (name == "") {
		return nil, wire.Errf(400, "MissingParameter", "The request must contain exactly one of LaunchTemplateId or LaunchTemplateName")
	}
	st.RLock()
	defer st.RUnlock()
	var lt *world.Resource
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::LaunchTemplate") {
		rid := world.FieldString(r, "LaunchTemplateId")
		if rid == "" {
			rid = r.CCID()
		}
		if (id != "" && rid == id) || (name != "" && world.FieldString(r, "LaunchTemplateName") == name) {
			lt, id = r, rid
			break
		}
	}
	if lt == nil {
		if name != "" {
			return nil, wire.Errf(400, "InvalidLaunchTemplateName.NotFoundException", "At least one of the launch templates specified in the request does not exist.")
		}
		return nil, wire.Errf(400, "InvalidLaunchTemplateId.NotFound", "The specified launch template, with template ID %s, does not exist.", id)
	}
	m, err := world.FieldObject(lt)
	if err != nil {
		return nil, err
	}
	number := "1"
	if n, ok := m["DefaultVersionNumber"]; ok {
		if b, err := json.Marshal(n); err == nil {
			number = strings.Trim(string(b), `"`)
		}
	}
	want := ec2List(c, "LaunchTemplateVersion")
	for _, v := range want {
		if v != "$Default" && v != "$Latest" && v != number {
			return nil, wire.Errf(400, "InvalidLaunchTemplateId.VersionNotFound", "Could not find launch template version %s for launch template ID %s.", v, id)
		}
	}
	ver := wire.El("item", wire.Tx("launchTemplateId", id), wire.Tx("launchTemplateName", world.FieldString(lt, "LaunchTemplateName")),
		wire.Tx("versionNumber", number), wire.Bool("defaultVersion", true), wire.Time("createTime", world.DefaultTime))
	if d, ok := m["LaunchTemplateData"].(map[string]any); ok {
		ver.Kids = append(ver.Kids, ec2XML("launchTemplateData", d))
	}
	return wire.El("", items("launchTemplateVersionSet", []*wire.Node{ver})), nil
}
