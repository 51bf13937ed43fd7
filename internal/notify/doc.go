// Package notify tells people and systems that a stack's drift changed: an
// SNS message (subject, text summary, message attributes), a Slack incoming
// webhook post (Block Kit) and an EventBridge event ("Drift Detected" /
// "Drift Resolved" / "Drift Coverage Incomplete") per stack.
//
// Rules and invariants:
//   - Alerts follow changes, not runs. Fingerprint digests a stack's drift
//     set (drift-tier findings not marked unrecorded) and the resources it
//     could not read (skipped findings, by resource) in a stable order,
//     leaving out volatile fields (notes, reasons, construct paths, and the
//     physical id except for added and unread resources). Decide compares
//     it with the previous run's: changed to non-empty is Detected, changed
//     to empty is Resolved, unchanged is nothing. A change with an empty
//     drift set and something unread is Incomplete ("Drift Coverage
//     Incomplete", headline "No Drift Seen, INCOMPLETE (n of m not
//     read)"): a clean stack that became INCOMPLETE alerts as drift
//     appearing would, and drift resolving while something is unread never
//     says "no drift remains". A stack read in full has the fingerprint of
//     its drift set alone, so fingerprints stored before unread resources
//     counted still match.
//   - Findings are named as check prints them (ignore.DisplayPath: the
//     construct path within the stack, else the logical id): declared
//     drift "template X → live Y", undeclared drift against the baseline
//     "recorded X → live Y (changed since record)", an added child with
//     what it is (report.AddedWhat: a subscription's protocol and
//     endpoint). The previous fingerprint is the latest
//     successful run's (store.LatestFindings); a failed run says nothing
//     about drift and is not summarized, so it can never "resolve" drift.
//   - Message content is built by pure functions (Subject, Text,
//     SlackPayload, EventDetail, SNSAttributes) from a Summary, and is
//     golden-file tested. Values are rendered through their JSON form, so
//     drift.Secret and secret-bearing drift.Unknown values appear only as
//     drift.Redacted.
//   - Senders are thin: each turns a Summary into one call through a small
//     interface shaped like the SDK method (*sns.Client, *eventbridge.Client,
//     *secretsmanager.Client satisfy them) or an HTTP client for Slack.
//   - The Slack webhook URL is a credential. It is read from Secrets
//     Manager, cached in the sender, and never appears in an error, a log
//     value or a formatted struct: errors from the HTTP client are scrubbed
//     of it.
//   - A Notifier tries every sender and joins their errors; one failing
//     channel does not silence the others.
//   - Reverts speak in Messages (revert.go): a title, lines and links (the
//     approval request, the outcome), sent by the same SNS and Slack
//     senders (SendMessage). A drift alert may link to the revert state
//     machine (Summary.RevertURL) and to the accept state machine
//     (Summary.AcceptURL: record the undeclared state as the baseline).
package notify
