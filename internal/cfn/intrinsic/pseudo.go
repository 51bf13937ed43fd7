package intrinsic

import (
	"regexp"
	"strings"
)

// partition is one AWS partition, recognised by its regions' name prefix.
type partition struct {
	regionPrefix string
	name         string
	urlSuffix    string
}

// partitions is the one table of non-commercial partitions, most specific
// prefix first. A region that matches none but has a region's shape is in
// the commercial partition.
var partitions = []partition{
	{"cn-", "aws-cn", "amazonaws.com.cn"},
	{"us-gov-", "aws-us-gov", "amazonaws.com"},
	{"us-iso-", "aws-iso", "c2s.ic.gov"},
	{"us-isob-", "aws-iso-b", "sc2s.sgov.gov"},
	{"eu-isoe-", "aws-iso-e", "cloud.adc-e.uk"},
	{"us-isof-", "aws-iso-f", "csp.hci.ic.gov"},
	{"eusc-", "aws-eusc", "amazonaws.eu"},
}

var commercial = partition{name: "aws", urlSuffix: "amazonaws.com"}

var regionShape = regexp.MustCompile(`^[a-z]{2,4}(-[a-z]+)+-[0-9]+$`)

// partitionOf returns the partition of a lower-case region name.
func partitionOf(region string) (partition, bool) {
	if !regionShape.MatchString(region) {
		return partition{}, false
	}
	for _, p := range partitions {
		if strings.HasPrefix(region, p.regionPrefix) {
			return p, true
		}
	}
	return commercial, true
}

// pseudo resolves a Ref to an AWS:: pseudo parameter.
func (r *Resolver) pseudo(name string) any {
	region := strings.ToLower(r.c.Region)
	known := func(v, what string) any {
		if v == "" {
			return unknown(what + " is not known")
		}
		return v
	}
	switch name {
	case "AWS::AccountId":
		return known(r.c.AccountID, "account id")
	case "AWS::Region":
		return known(region, "region")
	case "AWS::StackName":
		return known(r.c.StackName, "stack name")
	case "AWS::StackId":
		return known(r.c.StackID, "stack id")
	case "AWS::Partition", "AWS::URLSuffix":
		p, ok := partitionOf(region)
		if !ok {
			return unknown("partition of region " + strings.TrimSpace(region) + " is not known")
		}
		if name == "AWS::Partition" {
			return p.name
		}
		return p.urlSuffix
	case "AWS::NotificationARNs":
		return unknown("stack notification ARNs are not known")
	}
	return unknown("unknown pseudo parameter " + name)
}
