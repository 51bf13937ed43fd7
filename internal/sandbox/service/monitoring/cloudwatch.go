package monitoring

import (
	"strconv"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

type cwDimension struct{ Name, Value string }

// cwQuery is what DescribeAnomalyDetectors asks.
type cwQuery struct {
	Namespace, MetricName, NextToken string
	Dimensions                       []cwDimension
	AnomalyDetectorTypes             []string
	MaxResults                       int
}

// cwRangeTime reads a template's excluded-range time.
func cwRangeTime(v any) (time.Time, bool) {
	s, _ := v.(string)
	for _, layout := range []string{"2006-01-02T15:04:05", time.RFC3339, "2006-01-02T15:04:05.000Z"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func cloudWatchDescribeAnomalyDetectors(st *world.State, c *wire.Call) (any, error) {
	query := c.Service.Protocol == wire.ProtoQuery
	var in cwQuery
	if query {
		in.Namespace, in.MetricName, in.NextToken = c.Str("Namespace"), c.Str("MetricName"), c.Str("NextToken")
		in.AnomalyDetectorTypes = c.List("AnomalyDetectorTypes")
		for i := 1; c.Str("Dimensions.member."+strconv.Itoa(i)+".Name") != ""; i++ {
			p := "Dimensions.member." + strconv.Itoa(i)
			in.Dimensions = append(in.Dimensions, cwDimension{c.Str(p + ".Name"), c.Str(p + ".Value")})
		}
		in.MaxResults, _ = strconv.Atoi(c.Str("MaxResults"))
	} else if err := c.DecodeCBOR(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "cw", Default: 100,
		BadToken: wire.Errf(400, "InvalidNextToken", "Invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	var found []map[string]any
	for _, r := range world.SortedByID(st.OfType(c.Account, c.Region, "AWS::CloudWatch::AnomalyDetector")) {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		d := cwDetector(m)
		if cwMatches(d, in) {
			found = append(found, d)
		}
	}
	lo, hi, next := cur.Cut(len(found))
	if query {
		var nodes []*wire.Node
		for _, d := range found[lo:hi] {
			nodes = append(nodes, cwXML(d))
		}
		out := wire.El("", wire.Members("AnomalyDetectors", nodes))
		if next != "" {
			out.Kids = append(out.Kids, wire.Tx("NextToken", next))
		}
		return out, nil
	}
	list := []any{}
	for _, d := range found[lo:hi] {
		list = append(list, d)
	}
	out := map[string]any{"AnomalyDetectors": list}
	if next != "" {
		out["NextToken"] = next
	}
	return wire.CBORReply(out), nil
}

// cwDetector renders a template-shaped model in the API's shape.
func cwDetector(m map[string]any) map[string]any {
	d := map[string]any{"StateValue": "TRAINED_INSUFFICIENT_DATA"}
	for _, k := range []string{"Namespace", "MetricName", "Dimensions", "Stat", "MetricCharacteristics", "MetricMathAnomalyDetector", "SingleMetricAnomalyDetector"} {
		if v, ok := m[k]; ok {
			d[k] = v
		}
	}
	if sm, ok := m["SingleMetricAnomalyDetector"].(map[string]any); ok {
		for _, k := range []string{"Namespace", "MetricName", "Dimensions", "Stat"} {
			if v, ok := sm[k]; ok {
				d[k] = v
			}
		}
	}
	if cfg, ok := m["Configuration"].(map[string]any); ok {
		out := map[string]any{}
		if tz, ok := cfg["MetricTimeZone"]; ok {
			out["MetricTimezone"] = tz
		}
		if rs, ok := cfg["ExcludedTimeRanges"].([]any); ok {
			ranges := []any{}
			for _, e := range rs {
				rm, _ := e.(map[string]any)
				st, ok1 := cwRangeTime(rm["StartTime"])
				et, ok2 := cwRangeTime(rm["EndTime"])
				if ok1 && ok2 {
					ranges = append(ranges, map[string]any{"StartTime": wire.CBORTime(st), "EndTime": wire.CBORTime(et)})
				}
			}
			out["ExcludedTimeRanges"] = ranges
		}
		d["Configuration"] = out
	}
	return d
}

func cwMatches(d map[string]any, in cwQuery) bool {
	if in.Namespace != "" && d["Namespace"] != in.Namespace || in.MetricName != "" && d["MetricName"] != in.MetricName {
		return false
	}
	if len(in.AnomalyDetectorTypes) > 0 {
		typ := "SINGLE_METRIC"
		if _, ok := d["MetricMathAnomalyDetector"]; ok {
			typ = "METRIC_MATH"
		}
		if !world.Contains(in.AnomalyDetectorTypes, typ) {
			return false
		}
	}
	for _, want := range in.Dimensions {
		hit := false
		for _, e := range world.Objects(d["Dimensions"]) {
			hit = hit || (e["Name"] == want.Name && e["Value"] == want.Value)
		}
		if !hit {
			return false
		}
	}
	return true
}

// cwXML renders a detector as query XML (lists as members, times ISO).
func cwXML(d map[string]any) *wire.Node {
	n := &wire.Node{Name: "member"}
	for _, k := range world.SortedKeys(d) {
		if k == "Configuration" {
			cfg, _ := d[k].(map[string]any)
			cn := wire.El("Configuration", wire.Opt("MetricTimezone", strOf(cfg["MetricTimezone"])))
			var rs []*wire.Node
			for _, e := range world.Objects(cfg["ExcludedTimeRanges"]) {
				rs = append(rs, wire.El("", wire.Time("StartTime", time.Time(e["StartTime"].(wire.CBORTime))), wire.Time("EndTime", time.Time(e["EndTime"].(wire.CBORTime)))))
			}
			cn.Kids = append(cn.Kids, wire.Members("ExcludedTimeRanges", rs))
			n.Kids = append(n.Kids, cn)
			continue
		}
		if x := wire.ValueXML(k, d[k]); x != nil {
			n.Kids = append(n.Kids, x)
		}
	}
	return n
}

func strOf(v any) string { s, _ := v.(string); return s }
