// Package revert plans and applies the writes that undo drift (seed 002
// §7): the only AWS-mutating path of realdrift.
//
// A Plan is plain, reviewable data built by Build from one stack's
// reconciled findings (after the baseline and the ignore rules), its
// baseline and its deployed template. It is pure (no I/O, no clock),
// deterministic (items sorted by logical id, physical id and path) and
// serialisable (JSON), so the CLI and the service share it.
//
// Rules and invariants:
//
//   - One item per revertable finding. Its kind says how it is written:
//     a Cloud Control UpdateResource patch (RFC 6902), an SDK writer
//     (types Cloud Control cannot write, and property-scoped cases such as
//     an IAM role's inline Policies, written per entry), or the deletion
//     of a child added out of band (Cloud Control DeleteResource, or the
//     service's own delete call).
//   - An ELB attribute bag's drifted keys are items of their own (path
//     "Bag[key]", ItemID) written by the bag's property writer, the keys
//     of one resource in one write.
//   - An attachment list (a scalar set reported per member: a role's,
//     user's or group's ManagedPolicyArns, a managed policy's Roles /
//     Users / Groups) is written whole: each chosen member is an item of
//     its own (its keyed path, List[member]), and the items of one list
//     share one write of the list the check read (Resource.Live, kept in
//     the item as Prior) less the members removed (a rogue attachment
//     that appeared since record) plus the members brought back (a
//     detached declared or recorded one). Members not chosen stay as
//     read; the writers attach and detach only that difference, so an
//     attachment another resource owns is never touched. Without the
//     live list a member is not revertable (never written blind).
//   - Targets: declared drift → the deployed template's normalized value
//     (finding.Desired); undeclared drift → the recorded baseline value; a
//     value that appeared since a snapshot-complete record, and an added
//     child, → removal.
//   - Nothing is silently dropped: a drift finding that cannot be written
//     is listed under NotRevertable with its Reason. A value the user never
//     decided on (no baseline entry, resource never snapshot-complete) is
//     never written: the unrecorded guard outranks every other reason.
//   - A target holding an unresolved or secret value is never written.
//   - Apply groups the items of one resource into one write (Cloud Control
//     allows one request per resource at a time), retries only transient
//     failures with backoff under one deadline for the whole run, and
//     every write is idempotent (a patch to the target, a delete of what
//     is already gone succeeds).
//   - Apply gets its writers and its clock as parameters; it never reads
//     the wall clock itself.
package revert
