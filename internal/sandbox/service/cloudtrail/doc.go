// Package cloudtrail is the sandbox's CloudTrail (JSON 1.1): LookupEvents
// over the sandbox's own trail (world.Trail), the management events the
// server recorded for every write it served and every admin change.
//
// Rules, as AWS answers them: events of the calling account and region
// only, most recent first, none older than 90 days (world.TrailRetention)
// before the sandbox's clock; at most one lookup attribute
// (InvalidLookupAttributesException otherwise, and for a key LookupEvents
// does not know or an empty value); StartTime after EndTime is
// InvalidTimeRangeException; MaxResults 1..50 (default 50;
// InvalidMaxResultsException); EventCategory only "insight" (the sandbox
// records no Insights events, so that lookup is empty;
// InvalidEventCategoryException otherwise); a NextToken resumes after the
// last event returned and only with the parameters that made it
// (InvalidNextTokenException). LookupEvents' quota — two calls a second
// per account and region — is the Service's Quotas entry, answered with
// ThrottlingException.
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's (package world), its wire facts and
// operations are the Service it registers (package wire).
package cloudtrail
