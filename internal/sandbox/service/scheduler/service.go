package scheduler

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves EventBridge Scheduler (REST-JSON): GET
// /schedules/{Name}?groupName= answers the world's AWS::Scheduler::Schedule
// model of that name and group (GroupName, else "default") in the API's
// shape, which is the template's, with the schedule's ARN and times, and
// the values Scheduler fills in when a model lacks them (timezone UTC,
// state ENABLED, ActionAfterCompletion NONE, a target retry policy of 24
// hours and 185 attempts).
func Service() *wire.Service {
	return wire.RESTJSON("scheduler", wire.Paths(map[string]string{"GET /schedules/{name}": "GetSchedule"}), wire.Ops{
		"GetSchedule": schedulerGetSchedule,
	}).Throttles(429, "ThrottlingException")
}
