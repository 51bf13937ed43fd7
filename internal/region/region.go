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
		for _, r := range p.Regions {
			if r == name {
				return true
			}
		}
		if re, err := regexp.Compile(p.RegionRegex); err == nil && re.MatchString(name) {
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
