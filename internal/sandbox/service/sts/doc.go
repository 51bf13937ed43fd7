// Package sts is the sandbox's STS (query/XML; SigV4 signing name sts,
// global: the region is ignored): GetCallerIdentity answers the call's
// principal, and AssumeRole issues session keys for a role of a world
// account (world.State.Keys) its trust policy lets the caller assume (the
// trusts function it is given: iamauth.Trusts; any caller when the world
// declares none), unless the server's fault rules deny assuming it. Service says what it serves; the rules are internal/sandbox/doc.go's.
package sts
