// Package storetest is the conformance suite every store.Store
// implementation must pass: Run covers each item kind, version conflicts,
// concurrent read-modify-write writers on one baseline, expiry and the exact
// round trip of values larger than one DynamoDB item.
//
// The suite uses only the Store interface and checks behaviour, never the
// storage form; implementation tests add checks of their own storage (the
// TTL attribute, that secrets are never written in plaintext).
package storetest
