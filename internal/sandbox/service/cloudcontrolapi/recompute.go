package cloudcontrolapi

import "time"

// recompute derives a type's read-only properties from the rest of its
// model after an update, as the service would.
type recompute func(m map[string]any, now time.Time)

// recomputes is the one registration table of read-only recomputations.
func recomputes() map[string]recompute {
	return map[string]recompute{
		// SnapStart (write-only) is echoed as SnapStartResponse.
		"AWS::Lambda::Function": func(m map[string]any, _ time.Time) {
			applyOn := "None"
			if ss, ok := m["SnapStart"].(map[string]any); ok {
				if a, ok := ss["ApplyOn"].(string); ok && a != "" {
					applyOn = a
				}
			}
			status := "Off"
			if applyOn != "None" {
				status = "On"
			}
			if _, had := m["SnapStartResponse"]; had || applyOn != "None" {
				m["SnapStartResponse"] = map[string]any{"ApplyOn": applyOn, "OptimizationStatus": status}
			}
		},
		// A table has a StreamArn exactly while its stream is enabled.
		"AWS::DynamoDB::Table": func(m map[string]any, now time.Time) {
			spec, enabled := m["StreamSpecification"].(map[string]any)
			enabled = enabled && spec["StreamViewType"] != nil
			arn, _ := m["Arn"].(string)
			switch _, has := m["StreamArn"]; {
			case enabled && !has && arn != "":
				m["StreamArn"] = arn + "/stream/" + now.UTC().Format("2006-01-02T15:04:05.000")
			case !enabled && has:
				delete(m, "StreamArn")
			}
		},
	}
}
