package region

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
)

//go:embed partitions.json
var partitionsJSON []byte

type partition struct {
	Partition   string   `json:"partition"`
	RegionRegex string   `json:"regionRegex"`
	Regions     []string `json:"regions"`
	// Global maps each global service (its endpoint prefix: iam,
	// cloudfront, route53, …) to the one region its endpoint signs for.
	Global map[string]string `json:"global"`
}

func partitions() ([]partition, error) {
	var doc struct {
		Partitions []partition `json:"partitions"`
	}
	if err := json.Unmarshal(partitionsJSON, &doc); err != nil {
		return nil, fmt.Errorf("region data: %w", err)
	}
	return doc.Partitions, nil
}

// Valid reports whether name is an AWS region name: listed by a partition
// or matching a partition's region-name pattern.
func Valid(name string) bool {
	ps, err := partitions()
	if err != nil {
		return false
	}
	for _, p := range ps {
		if inPartition(p, name) {
			return true
		}
	}
	return false
}

// Known lists the regions the partition data names, sorted.
func Known() []string {
	ps, err := partitions()
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Regions...)
	}
	sort.Strings(out)
	return out
}

// Home is the region where CloudTrail records the calls to service (an
// endpoint prefix: "iam", "cloudfront", "route53", …) made from region:
// a global service's one region in region's partition (us-east-1 for
// IAM in the aws partition, cn-north-1 in aws-cn), else region itself.
// An unknown region is its own home.
func Home(service, region string) string {
	ps, err := partitions()
	if err != nil {
		return region
	}
	for _, p := range ps {
		if !inPartition(p, region) {
			continue
		}
		if home, ok := p.Global[service]; ok {
			return home
		}
		return region
	}
	return region
}

// inPartition reports whether a partition lists region or its pattern
// admits it.
func inPartition(p partition, region string) bool {
	for _, r := range p.Regions {
		if r == region {
			return true
		}
	}
	re, err := regexp.Compile(p.RegionRegex)
	return err == nil && re.MatchString(region)
}
