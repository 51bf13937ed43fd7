// Package storetest is the conformance suite every store.Store
// implementation must pass: Run covers each item kind, version conflicts,
// concurrent read-modify-write writers on one baseline, expiry and the exact
// round trip of values larger than one DynamoDB item.
//
// The suite uses only the Store interface and checks behaviour, never the
// storage form; implementation tests add checks of their own storage (the
// TTL attribute, that secrets are never written in plaintext).
//
// DynamoLocal finds or starts DynamoDB Local for a test binary (the store's
// own tests and the service's end-to-end tests share it): the endpoint
// variable, else scripts/dynamodb-local.sh on a free port; with CI=true a
// missing emulator fails the test instead of skipping it.
package storetest
