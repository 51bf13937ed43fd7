package acm

import (
	"regexp"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

var certificateArnRE = regexp.MustCompile(`^arn:aws[-a-z]*:acm:[a-z0-9-]+:[0-9]{12}:certificate/[A-Za-z0-9-]+$`)

// certificate finds the certificate a request names.
func certificate(st *world.State, c *wire.Call) (*world.Resource, string, error) {
	var in struct{ CertificateArn string }
	if err := c.Decode(&in); err != nil {
		return nil, "", err
	}
	if !certificateArnRE.MatchString(in.CertificateArn) {
		return nil, "", wire.Errf(400, "InvalidArnException", "The certificate ARN %s is not valid.", in.CertificateArn)
	}
	cert := st.Resource(c.Account, c.Region, "AWS::CertificateManager::Certificate", in.CertificateArn)
	if cert == nil {
		return nil, "", wire.Errf(400, "ResourceNotFoundException", "Could not find certificate %s.", in.CertificateArn)
	}
	return cert, in.CertificateArn, nil
}

func acmDescribeCertificate(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	cert, arn, err := certificate(st, c)
	if err != nil {
		return nil, err
	}
	domain := world.FieldString(cert, "DomainName")
	sans := []string{domain}
	for _, n := range world.FieldStrings(cert, "SubjectAlternativeNames") {
		if !world.Contains(sans, n) {
			sans = append(sans, n)
		}
	}
	key := world.FieldString(cert, "KeyAlgorithm")
	if key == "" {
		key = "RSA_2048"
	}
	ctl := world.FieldString(cert, "CertificateTransparencyLoggingPreference")
	if ctl == "" {
		ctl = "ENABLED"
	}
	options := map[string]any{"CertificateTransparencyLoggingPreference": ctl}
	if e := world.FieldString(cert, "CertificateExport"); e != "" {
		options["Export"] = e
	}
	out := map[string]any{
		"CertificateArn":          arn,
		"DomainName":              domain,
		"SubjectAlternativeNames": sans,
		"Status":                  "ISSUED",
		"Type":                    "AMAZON_ISSUED",
		"KeyAlgorithm":            strings.ReplaceAll(key, "_", "-"),
		"SignatureAlgorithm":      "SHA256WITHRSA",
		"InUseBy":                 []string{},
		"CreatedAt":               wire.Epoch(world.DefaultTime),
		"IssuedAt":                wire.Epoch(world.DefaultTime),
		"Options":                 options,
		"RenewalEligibility":      "INELIGIBLE",
	}
	if ca := world.FieldString(cert, "CertificateAuthorityArn"); ca != "" {
		out["Type"], out["CertificateAuthorityArn"] = "PRIVATE", ca
	} else {
		method := world.FieldString(cert, "ValidationMethod")
		if method == "" {
			method = "EMAIL"
		}
		var dvs []map[string]any
		for _, n := range sans {
			dv := map[string]any{"DomainName": n, "ValidationDomain": n, "ValidationStatus": "SUCCESS", "ValidationMethod": method}
			if method == "DNS" {
				dv["ResourceRecord"] = map[string]any{"Name": "_" + world.ShortHash(n, 32) + "." + n + ".", "Type": "CNAME", "Value": "_" + world.ShortHash(arn+n, 32) + ".acm-validations.aws."}
			}
			dvs = append(dvs, dv)
		}
		out["DomainValidationOptions"] = dvs
	}
	return map[string]any{"Certificate": out}, nil
}

func acmListTagsForCertificate(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	cert, _, err := certificate(st, c)
	if err != nil {
		return nil, err
	}
	tags := []map[string]any{}
	if ts, ok := world.FieldValue(cert, "Tags").([]any); ok {
		for _, t := range ts {
			if m, ok := t.(map[string]any); ok {
				tags = append(tags, map[string]any{"Key": m["Key"], "Value": m["Value"]})
			}
		}
	}
	return map[string]any{"Tags": tags}, nil
}
