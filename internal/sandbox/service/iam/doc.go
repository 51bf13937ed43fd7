// Package iam is the sandbox's IAM (query/XML; SigV4 signing name iam,
// global: every region of an account sees it): inline and managed
// policies, their versions and attachments, and access key metadata,
// over the world's AWS::IAM::* models (a managed policy's versions beside
// its model: world.PolicyVersionsOf). Service says what it serves.
// Authorization (which IAM action, which policies) is package iamauth's,
// not this one's.
// The rules are internal/sandbox/doc.go's.
package iam
