package events

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves EventBridge (JSON 1.1): the rules of an event bus,
// from the world's AWS::Events::Rule models (EventBusName absent is the
// default bus). A bus exists when it is "default", an AWS::Events::EventBus
// model names it, or a rule is on it.
func Service() *wire.Service {
	return wire.JSON("events", "1.1", "AWSEvents.", wire.Ops{
		"ListRules": eventsListRules,
	})
}
