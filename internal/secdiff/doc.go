// Package secdiff computes the security view of a deploy: what two
// templates (the deployed one and the next deploy's) grant and open, and
// what changes between them. It is pure: Compute takes two parsed
// templates and does no I/O.
//
// Rules:
//
//   - raw, rendered: values are read from the templates as written and
//     rendered with their references as tokens (${Role.Arn}, ${Bucket}),
//     the way a reviewer reads them; two statements are one when their
//     rendered fields are equal. Nothing is resolved, so nothing secret is
//     read (a {{resolve:…}} reference renders as written).
//   - IAM statements: every statement of an identity policy
//     (AWS::IAM::Policy, AWS::IAM::ManagedPolicy, AWS::IAM::Role's inline
//     Policies), of a trust policy (AWS::IAM::Role's
//     AssumeRolePolicyDocument) and of a resource policy (the policyHolders
//     table), plus every AWS::Lambda::Permission as the statement it adds.
//     An identity policy's principal is the roles, users and groups it is
//     attached to. A statement with several actions, principals or
//     resources is one row.
//   - managed policies: each (role, user or group, ManagedPolicyArns entry)
//     pair is one attachment.
//   - security-group rules: the inline SecurityGroupIngress/Egress of
//     AWS::EC2::SecurityGroup and the standalone AWS::EC2::SecurityGroup
//     Ingress/Egress resources, one row per (group, direction, protocol and
//     ports, peer).
//   - a row only in the new template is Added, only in the old one
//     Removed. Broadening: an added Allow statement, managed-policy
//     attachment or security-group rule, or a removed Deny statement.
//   - a resource under a Condition is taken as present: the security view
//     shows what the template can grant.
package secdiff
