// Package who attributes drift to the CloudTrail management event that
// made it: for each drifted resource, the last write event naming it since
// the window's start (WindowStart: the earlier of the stack's last update
// and its baseline's record), as a drift.ChangedBy.
//
// Rules:
//
//   - Only drifted resources are looked up, each at most once per run
//     (Finder caches by account, region and resource name), with one
//     LookupEvents call by ResourceName (the physical id: a queue URL, a
//     topic ARN, a role name) and StartTime at the window's start; a
//     second page is asked only when the first holds no write event and
//     says there is more (MaxPages bounds it).
//   - Calls are paced to LookupEvents' quota (Options.Rate, 2 a second per
//     account and region) on the injected clock (Options.Now, Options.Sleep),
//     across every Session of a Finder (one pacing per process, one cache
//     per check);
//     a ThrottlingException the SDK's retries did not absorb is retried
//     after a backoff (Options.Retries times), then said.
//   - A write event is one CloudTrail marks readOnly=false with no
//     errorCode; the most recent wins (LookupEvents lists newest first).
//   - Fail closed: a resource with no such event gets Unknown saying why
//     (the window reaches past the 90 days LookupEvents covers; or, within
//     it, no management event names it: a data event, a change a service
//     made itself, or one made through another resource's API), a lookup
//     that fails gets Unknown naming the error (AccessDenied, throttled
//     out). Nothing here changes a finding's tier or a verdict.
//   - Attribute attributes a stack's drifted findings (Drifted: confirmed
//     drift, never potential drift): a writer the caller already knows
//     (Stack.Known: the service's stored trigger events) when it is not
//     older than the window's start, else a lookup in the region
//     CloudTrail records the type's writes in (Home: a global service's
//     one region from AWS's endpoint data, us-east-1 for IAM; else the
//     stack's). Once its context ends the findings left say they were
//     not looked up.
//   - FromRecord reads one CloudTrail record (LookupEvents'
//     CloudTrailEvent, or an EventBridge event's detail) into a
//     drift.ChangedBy: the principal's ARN, the name to show (the source
//     identity, else the role session name, the IAM user's name, or
//     "root"), event name and source, time, source IP ("AWS Internal"
//     kept as CloudTrail says it), user agent and its family, event id.
package who
