package live

import (
	"context"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/realdrift/realdrift/internal/drift"
)

// AWS::CloudWatch::AnomalyDetector (Cloud Control cannot read it in full)
// through DescribeAnomalyDetectors, paged. A detector has no name: its
// physical id is CloudFormation's, and the detector is the one of the
// declared metric — SingleMetricAnomalyDetector (or the legacy top-level
// Namespace, MetricName, Dimensions, Stat), whose namespace, name, stat and
// dimension set must all be the declared ones, or MetricMathAnomalyDetector,
// whose queries' ids and expressions or metrics must be. In the template's
// shape: the API's top-level metric copies are left out when the template
// uses SingleMetricAnomalyDetector, Configuration's MetricTimezone is
// MetricTimeZone and its excluded ranges are the template's
// "2006-01-02T15:04:05" (UTC) text; MetricCharacteristics is read when
// declared or on. A metric math query's Label is not answered: a readGap.

type cloudWatchAPI interface {
	cloudwatch.DescribeAnomalyDetectorsAPIClient
}

var _ cloudWatchAPI = (*cloudwatch.Client)(nil)

const anomalyRangeLayout = "2006-01-02T15:04:05"

// readAnomalyDetector reads AWS::CloudWatch::AnomalyDetector.
func readAnomalyDetector(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.CloudWatch == nil {
		return nil, skip("no CloudWatch client")
	}
	if drift.ContainsUnknown(r.Declared["SingleMetricAnomalyDetector"]) {
		return nil, waiting("SingleMetricAnomalyDetector")
	}
	if drift.ContainsUnknown(r.Declared["MetricMathAnomalyDetector"]) {
		return nil, waiting("MetricMathAnomalyDetector")
	}
	single, _ := r.Declared["SingleMetricAnomalyDetector"].(map[string]any)
	legacy := single == nil && r.Declared["MetricName"] != nil
	if legacy {
		single = map[string]any{}
		for _, k := range []string{"Namespace", "MetricName", "Dimensions", "Stat"} {
			if drift.ContainsUnknown(r.Declared[k]) {
				return nil, waiting(k)
			}
			if v, ok := r.Declared[k]; ok {
				single[k] = v
			}
		}
	}
	math, _ := r.Declared["MetricMathAnomalyDetector"].(map[string]any)
	in := &cloudwatch.DescribeAnomalyDetectorsInput{}
	switch {
	case single != nil:
		in.AnomalyDetectorTypes = []cwtypes.AnomalyDetectorType{cwtypes.AnomalyDetectorTypeSingleMetric}
		in.Namespace, in.MetricName = cwString(single["Namespace"]), cwString(single["MetricName"])
		for _, d := range dimensionsOf(single["Dimensions"]) {
			in.Dimensions = append(in.Dimensions, cwtypes.Dimension{Name: aws.String(d[0]), Value: aws.String(d[1])})
		}
	case math != nil:
		in.AnomalyDetectorTypes = []cwtypes.AnomalyDetectorType{cwtypes.AnomalyDetectorTypeMetricMath}
	default:
		return nil, skip("declares neither SingleMetricAnomalyDetector, MetricMathAnomalyDetector nor a metric: the detector cannot be named")
	}
	p := cloudwatch.NewDescribeAnomalyDetectorsPaginator(c.CloudWatch, in)
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, d := range out.AnomalyDetectors {
			m := sdkModel(d)
			if single != nil && !sameMetric(objectAt(m, "SingleMetricAnomalyDetector"), single) && !sameMetric(m, single) {
				continue
			}
			if math != nil && !sameQueries(objectAt(m, "MetricMathAnomalyDetector"), math) {
				continue
			}
			return anomalyModel(m, d, r, legacy), nil
		}
	}
	return nil, fmt.Errorf("anomaly detector %s: %w", r.PhysicalID, ErrNotFound)
}

// anomalyModel projects a matched detector.
func anomalyModel(m map[string]any, d cwtypes.AnomalyDetector, r Request, legacy bool) map[string]any {
	out := map[string]any{}
	switch {
	case legacy:
		for _, k := range []string{"Namespace", "MetricName", "Dimensions", "Stat"} {
			if v, ok := m[k]; ok {
				out[k] = v
			}
		}
	case m["MetricMathAnomalyDetector"] != nil:
		out["MetricMathAnomalyDetector"] = m["MetricMathAnomalyDetector"]
	default:
		if sm, ok := m["SingleMetricAnomalyDetector"]; ok {
			out["SingleMetricAnomalyDetector"] = sm
		} else {
			sm := map[string]any{}
			for _, k := range []string{"Namespace", "MetricName", "Dimensions", "Stat"} {
				if v, ok := m[k]; ok {
					sm[k] = v
				}
			}
			out["SingleMetricAnomalyDetector"] = sm
		}
	}
	if cfg := d.Configuration; cfg != nil {
		c := map[string]any{}
		if tz := aws.ToString(cfg.MetricTimezone); tz != "" {
			c["MetricTimeZone"] = tz
		}
		if cfg.ExcludedTimeRanges != nil {
			ranges := []any{}
			for _, rg := range cfg.ExcludedTimeRanges {
				e := map[string]any{}
				if rg.StartTime != nil {
					e["StartTime"] = rg.StartTime.UTC().Format(anomalyRangeLayout)
				}
				if rg.EndTime != nil {
					e["EndTime"] = rg.EndTime.UTC().Format(anomalyRangeLayout)
				}
				ranges = append(ranges, e)
			}
			c["ExcludedTimeRanges"] = ranges
		}
		if len(c) > 0 {
			out["Configuration"] = c
		}
	}
	if mc := objectAt(m, "MetricCharacteristics"); mc != nil {
		if _, declared := r.Declared["MetricCharacteristics"]; declared || mc["PeriodicSpikes"] == true {
			out["MetricCharacteristics"] = mc
		}
	}
	return out
}

func cwString(v any) *string {
	if s, ok := v.(string); ok && s != "" {
		return &s
	}
	return nil
}

// dimensionsOf returns a Name/Value list as sorted pairs.
func dimensionsOf(v any) [][2]string {
	var out [][2]string
	l, _ := v.([]any)
	for _, e := range l {
		m, _ := e.(map[string]any)
		n, _ := m["Name"].(string)
		val, _ := m["Value"].(string)
		out = append(out, [2]string{n, val})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1] })
	return out
}

// sameMetric reports whether the live metric (namespace, name, stat,
// dimension set) is the declared one.
func sameMetric(live, declared map[string]any) bool {
	if live == nil {
		return false
	}
	for _, k := range []string{"Namespace", "MetricName", "Stat"} {
		if live[k] != declared[k] {
			return false
		}
	}
	a, b := dimensionsOf(live["Dimensions"]), dimensionsOf(declared["Dimensions"])
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sameQueries reports whether the live metric math queries have the
// declared ids, expressions and metrics, in order.
func sameQueries(live, declared map[string]any) bool {
	lq, dq := objectsAt(live, "MetricDataQueries"), objectsAt(declared, "MetricDataQueries")
	if live == nil || len(lq) != len(dq) {
		return false
	}
	for i := range lq {
		if lq[i]["Id"] != dq[i]["Id"] || lq[i]["Expression"] != dq[i]["Expression"] {
			return false
		}
		lm, dm := objectAt(objectAt(lq[i], "MetricStat"), "Metric"), objectAt(objectAt(dq[i], "MetricStat"), "Metric")
		if (lm == nil) != (dm == nil) || lm != nil && (lm["Namespace"] != dm["Namespace"] || lm["MetricName"] != dm["MetricName"]) {
			return false
		}
	}
	return true
}
