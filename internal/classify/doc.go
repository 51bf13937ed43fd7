// Package classify decides what a user sees as drift: Resource compares one
// resource's declared properties with its live model and sorts every
// difference into a tier (seed 002 §6 "Noise model" and §9 "Tier
// semantics"). The CLI, the Lambdas and the corpus replay call the same
// function.
//
// Pipeline, per resource:
//
//  1. Normalize both sides (package normalize): one pass copies the model
//     and strips Cloud-Control-managed fields, aws:* and stack tags, null
//     items; canonicalizes JSON text and IAM policy documents; orders id /
//     ARN / method / AZ sets and identity-keyed object sets. Then readOnly
//     and writeOnly schema paths are stripped, sibling IAM policies are
//     filtered by name, list entries a sibling resource of the stack owns
//     are dropped from live (siblingEntries: security-group rules of
//     AWS::EC2::SecurityGroupIngress / Egress siblings, each only from
//     the list of its own direction; subscriptions of
//     AWS::SNS::Subscription siblings; managed-policy attachments made
//     from the other side — an AWS::IAM::ManagedPolicy sibling's Roles /
//     Users / Groups in an identity's ManagedPolicyArns, an identity's
//     ManagedPolicyArns in a sibling managed policy's lists — unless this
//     resource declares the member itself), schema-unordered arrays are
//     sorted.
//  2. Declared properties: an unresolved value is `unresolved`; a write-only
//     one the read cannot show is `readGap`; a declared non-empty collection
//     absent from live is `declared` (except the collections AWS never
//     returns); a declared scalar live does not echo is `readGap`, and so
//     is a declared string the read returns with its non-ASCII characters
//     masked as '?' (normalize.MaskedNonASCII); otherwise
//     the values are compared through the equality folds, and live-only
//     sub-keys inside a declared object are classified as undeclared values
//     (nested: true, dotted paths, A[id] for identity-keyed elements).
//  3. Undeclared values: a value a sibling resource owns (opts sibling
//     facts: cluster echoes, EIP associations, subnet CIDR blocks, target
//     registrars) is dropped; a value inherited from a sibling (a read
//     replica's source, an option group's engine defaults) is `atDefault`,
//     and so is a parameter a nested stack's stack resource echoes at its
//     nested template's own default (the parent passes none: the type's
//     nestedParameters fact names the property, opts nestedStackParameters
//     carries the nested template's declarations, nested.go; a declared
//     parameter whose live value is the "****" mask of a NoEcho one is a
//     `readGap`, neither side written);
//     a known value (the mined table, see below), a schema default, a
//     per-type AWS-documented default, constant or derived from the
//     resource's own values (an EBS volume's baseline IOPS for its type
//     and size, an on-demand stream's 4 shards) or an
//     own-account fill-in (own account id / region, AWS-owned keys, the
//     account's managed keys and aliases, or without them the managed
//     alias of the type's own service; the default service-linked role of
//     the type's own service) or an echo of the resource's own
//     identity (its composite "a|b" physical id joined "a_b" or "b_a", the
//     ARN its qualified physical id qualifies, an identifier the template
//     declares under another property) is `atDefault`; this resource's
//     own minted identity
//     (physical-id name segment, CloudFormation auto-name gated on the stack
//     name or logical id and a random suffix, a segment of a declared
//     write-only composite id, per-type minted shapes) is `generated`; a
//     physical-id echo, an all-aws:* tag set or a trivially empty value is
//     dropped (except the switch-off carve-outs: the predicate-gated ones,
//     and a false where the table knows only a non-empty default and the
//     corpus never showed that path legitimately off); anything else is
//     `undeclared`.
//
// Reporting paths (one convention; seed 002 §6 and the corpus are the
// spec). A path is dotted from the property (A.B.C); an array element is
// either its index (A.N, the declared element's index after the order
// steps) or, where its array is keyed, its key (A[key]):
//   - An undeclared value is reported whole at the path where the template
//     stops: a live-only top-level property, or a live-only key inside a
//     declared object (nested: true). An undeclared object is one finding,
//     except where the type's table says to descend it (descendUndeclared,
//     imported Descend) or where every key is a default (then each key
//     gets its own tier). A name/value bag (an ELB attribute bag, a
//     per-type identity set) is reported per key, A[key], even when
//     undeclared as a whole.
//   - Declared drift inside an array of objects is at the element's index
//     path A.N.B, and carries wholeArrayRevert {A, the declared array}:
//     revert writes the whole array, never one element. A declared
//     element missing from live (the element set changed) is one declared
//     finding at the array path A (desired: the declared array, actual:
//     the live array); so is any difference in an array compared as a
//     whole (an identity-less set, a scalar list).
//   - Keyed paths A[key] are for informational and undeclared findings
//     only: a live-only element of a keyed array (A[key], nested: true), a
//     default or minted value inside a matched element (A[key].B), a
//     scalar-set member (A[value]).
//   - An ELB attribute bag's declared key and an attachment list's
//     declared member are at the list path with attributeKey naming the
//     key or member; a missing member carries wholeArrayRevert {A, live
//     members + missing ones}, and a live-only member is undeclared at
//     A[member]. An attachment list is a per-type scalar set (a managed
//     policy's Groups / Roles / Users) or any list the schema or the
//     type's facts mark unordered whose declared members are all ARNs (a
//     role's, user's or group's ManagedPolicyArns); members match through
//     the folds of the list's path, and a declared member the resolver
//     could not know leaves the live-only members unreported. Reports,
//     ignore rules and revert --only name such a finding A[member]
//     (drift.Finding.KeyedPath).
//   - A key/value element ({Key, Value}: a tag, an attribute) is reported
//     by its value: actual is the Value. freeFormKey: true is set on an
//     undeclared key the user chose: a key of a schema free-form map
//     (freeFormMapPaths), a tag key (A[key] of a tag list, a key of a tag
//     map).
//
// Rules and invariants:
//   - Pure: no I/O, no clock; neither input is modified; package-level
//     tables are built once and only read.
//   - Fail closed: an unknowable value is never compared (drift.Unknown),
//     it is reported `unresolved`; a fold never guesses.
//   - Every fold is equality-gated: a value moved away from a default, a
//     minted name, or a known representation always surfaces as drift. No
//     fold accepts "any value of a shape" (any window, any subnet, any
//     key), except CloudFormation auto-names whose random suffix no fact
//     pins (and only when the physical id does not carry the name).
//   - Per-type facts are data with one registration point: typeTable
//     (types.go) for hand-kept facts from the seeds, and known_values.json
//     for (type, path, value template) triples mined from the corpus data by
//     scripts/mine-defaults. Beyond per-type rows the table holds
//     cross-type rows ("*": a top-level literal folded on two or more types
//     and never left unfolded) and service rows ("AWS::Svc::*": a literal
//     at a top-level or dotted path that a type of the service folds and no
//     type of it leaves unfolded); a service row holds only for a type with
//     no value of its own at the path. A per-type row may stand for a
//     declared sibling ("⟨decl:Protocol⟩": the live value folds only when
//     it equals the declared value of that top-level property, a non-empty
//     string or a number), mined where the corpus folds two or more
//     distinct values so and never shows the equality unfolded. No rule
//     names a case file or a logical id.
//   - imported.json is the third table, generated by
//     scripts/import-knowledge (go generate) from the per-type facts
//     cdk-real-drift observed on AWS (NOTICE): value rows in the
//     known-values form, applied after the mined table through the same
//     equality-gated lookup (a row may compare one field of an element,
//     hold only under a condition on a top-level property, or compare an
//     object default subset-tolerantly with only empty extras), and path
//     facts merged into typeTable (the hand-kept entry wins). Its paths
//     AWS picks per resource (watched: zones, windows, addresses, patch
//     versions) are atDefault while undeclared, whatever the value, as cdk-real-drift reports them: the
//     one fold that is not equality-gated (assigned). It is safe because
//     record stores every such value it saw (the baseline's watched
//     entries) and any later change is confirmed drift; the recall
//     harnesses measure these paths after a record (Assigned).
//     Its pattern rows (AWS's managed default names, default.<engine><version>
//     parameter groups and default:<engine>-<major>-<minor> option groups)
//     fold a string only when it has the whole shape of that family.
//     Every pattern row of the three tables (these, and the assigned
//     shapes of awsfacts.json and documented.json below) applies only from
//     one generated table, imported.json's watchedShapes, where the
//     generator lists it with its condition and source: with the watched
//     paths it is the one table of folds that do not pin a value, each
//     atDefault on a first check and watched by the baseline after a
//     record (TestWatchedShapesAreTheOneTable).
//     Every table of the facts file is imported or named, with the rule
//     that applies it, in the generator (appliedElsewhere).
//   - awsfacts.json, in the same form, is kept by hand: the conditional
//     defaults — defaults AWS documents as depending on the resource's
//     own declared or live values (an engine's port, license model and
//     character sets; a target group's health check path, port, protocol
//     and thresholds by Protocol / TargetType / ProtocolVersion;
//     ElastiCache settings by cluster mode and failover; a PRIVATE REST
//     API's endpoint IP address type; Elastic Beanstalk option defaults by
//     platform; a source's batch size; an instance family's credits) under
//     a condition (when / unless: one of values, a regular expression, or
//     present; a number or boolean as its JSON text, a list by any member,
//     a dotted or List[key].Field property) — and the shapes of values AWS
//     assigns (route-table ids, Cognito's sub, EKS access-entry usernames)
//     as pattern rows. Every row cites its source (the botocore API
//     documentation sentence, or the AWS guide's table), never a corpus
//     value; TestAWSFactsCiteSources holds it. One mechanism applies them
//     (importedAt, rowHolds): no per-type code. A false where a cited row
//     whose condition holds documents a non-empty default (a health check
//     AWS keeps on for the target type) is undeclared, not dropped
//     (offAgainstDocumented).
//   - The one security group AWS attaches to a VPC resource when the
//     template names none is atDefault: one of the account's default
//     groups when the read asked for them (Options.DefaultSecurityGroups),
//     else one well-formed group id on its shape; two groups never fold.
//     AssignedValue names these values for the recall harnesses.
//   - documented.json, in the same form, holds the defaults AWS documents
//     (scripts/mine-documented: registry-schema default keywords,
//     description sentences and one-value enums; botocore's documentation
//     of the write operations' inputs a property maps to by name, Create,
//     Put, Update, Modify and the name/value attribute operations per
//     attribute name; AWS's naming rules for default objects as pattern
//     rows), one agreed non-empty value per property, each row naming its
//     source; a documented row applies only where imported.json names
//     nothing at its path. scripts/mine-defaults -loo-documented measures
//     what it recovers on a type no other table covers.
//   - Secret-bearing values (drift.Secret, secret drift.Unknown) reach a
//     finding only as drift.Redacted, and so does the live value at a
//     secret's place (its plaintext), wherever else in the resource's
//     findings it appears; a live drift.Unknown (withheld from storage)
//     is written as the Redacted string too. A declared object holding a secret
//     is compared key by key: each unknowable part is `unresolved` at its
//     own path, every other key is compared as usual, so a changed sibling
//     is still drift (an object holding only non-secret Unknowns stays
//     `unresolved` as a whole). A live value that is a drift.Unknown (one
//     withheld from storage) is never compared: it is `unresolved`.
package classify
