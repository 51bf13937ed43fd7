package live

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/scheduler"
)

// AWS::Scheduler::Schedule (physical id: the schedule name) through
// GetSchedule in the declared GroupName (else "default"). The SDK's field
// names are the template's; the ARN and times of the API are dropped, and
// StartDate / EndDate are given as the template writes them when they name
// the same instant (else RFC 3339).

type schedulerAPI interface {
	GetSchedule(ctx context.Context, in *scheduler.GetScheduleInput, optFns ...func(*scheduler.Options)) (*scheduler.GetScheduleOutput, error)
}

var _ schedulerAPI = (*scheduler.Client)(nil)

// readSchedule reads AWS::Scheduler::Schedule.
func readSchedule(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Scheduler == nil {
		return nil, skip("no EventBridge Scheduler client")
	}
	group := "default"
	if _, ok := r.Declared["GroupName"]; ok {
		g, err := declaredString(r.Declared, "GroupName")
		if err != nil {
			return nil, err
		}
		group = g
	}
	out, err := c.Scheduler.GetSchedule(ctx, &scheduler.GetScheduleInput{Name: &r.PhysicalID, GroupName: &group})
	if err != nil {
		return nil, err
	}
	m := sdkModel(*out)
	delete(m, "Arn")
	for k, t := range map[string]*time.Time{"StartDate": out.StartDate, "EndDate": out.EndDate} {
		if t != nil {
			m[k] = declaredTimeForm(*t, r.Declared[k])
		}
	}
	return m, nil
}

// declaredTimeForm is t as the declared text when that text names the same
// instant, else t in RFC 3339.
func declaredTimeForm(t time.Time, declared any) string {
	if s, ok := declared.(string); ok {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05Z0700"} {
			if d, err := time.Parse(layout, s); err == nil && d.Equal(t) {
				return s
			}
		}
	}
	return t.UTC().Format(time.RFC3339)
}
