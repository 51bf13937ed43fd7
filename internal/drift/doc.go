// Package drift is realdrift's vocabulary: the tiers a finding can be in, the
// finding itself, and references to resources and stacks.
//
// Every other package speaks these types. The package has no AWS imports and
// no I/O; it depends only on the standard library.
//
// Invariants:
//   - Tier is a closed set; ParseTier rejects anything else.
//   - A Verdict (Clean, PotentialDrift, Incomplete, Drifted, Failed) is
//     made only by Judge, from the findings and the number of resources
//     the check covered: it cannot say Clean without that count, and a
//     stack with anything not read is Incomplete (or Drifted beside the
//     count), never Clean.
//   - Not read and nothing to read are different things. A resource whose
//     read failed (AccessDenied, timeout, a type no reader serves) is
//     Skipped: a coverage gap, counted by Judge as unread. A resource that
//     has no live resource realdrift can read — a custom resource
//     (Custom::*, AWS::CloudFormation::CustomResource), whose handler's
//     work is not a resource of its own — is NothingToRead: an
//     informational tier, listed in every output, never drift and never
//     counted as unread, so a CDK stack with one can still be Clean.
//   - A Finding's Actual and Desired are JSON-shaped values (nil, bool,
//     float64 or json.Number, string, []any, map[string]any). A nil Actual
//     means "absent", never JSON null: an absent key and a null are different.
//   - Secret-bearing values never reach a Finding in plaintext; callers
//     replace them with Redacted before building one.
//   - A live model holds a secret's plaintext where the template holds
//     the secret's reference. Anything that stores or logs live values
//     first withholds them (Withhold: the values at the declared secret's
//     places) and scrubs the plaintexts found that way wherever else they
//     appear (Scrub); read back, a withheld value is a secret Unknown
//     (WithheldAsUnknown), never compared.
package drift
