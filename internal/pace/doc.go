// Package pace holds the read rate of a sweep: one limit per member
// account and region (AWS's API quotas are per account and region), shared
// by every Lambda of the sweep however many run at once.
//
// # Why a DynamoDB item, not Map concurrency
//
// A Map's MaxConcurrency bounds executions, not calls: a stack of 300
// resources and one of 3 count the same, and a bound tight enough to keep a
// large stack under the quota starves an account of small ones. So the
// limit is on calls, kept where every Lambda of the sweep can see it: one
// item per account and region in the service's table
// (pk PACE#<account>#<region>, sk PACE), holding "next", the time (µs since
// the epoch) at which the next call may start. This is a GCRA (generic cell
// rate algorithm) schedule: reserving n calls moves next by n/rate seconds
// in one conditional UpdateItem —
//
//	SET next = next + :d   IF next >= :now          (busy: queue behind)
//	SET next = :now + :d   IF next < :now OR absent (idle: start now)
//
// — no read first, no lock, no lost update: DynamoDB serialises the writes
// of one item, and the returned value is the caller's own reservation.
// Calls are then spaced 1/rate apart from the reserved start, so the
// account-region never sees more than rate calls in any second, from any
// number of Lambdas, and as long as calls are waiting the schedule has no
// gaps (the rate is sustained, not just bounded).
//
// A Limiter reserves for every call waiting in its process at once (one
// write for up to Options.MaxBlock calls), so the DynamoDB cost is at most
// one write request per call and usually far less. A reserved slot is only
// lost when its caller gives up (context ended): the limit errs on the
// slow side, never the fast one.
//
// Every attempt goes through the limiter (Middleware sits after the SDK's
// retry loop), so retries are paced like first attempts. The limit is on
// the calls the sweep makes into member accounts with their read role:
// CloudFormation, Cloud Control and the SDK readers alike.
//
// Time comes in as Options.Now and Options.Sleep; nothing reads the wall
// clock directly.
package pace
