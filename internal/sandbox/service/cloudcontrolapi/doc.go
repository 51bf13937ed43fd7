// Package cloudcontrolapi is the sandbox's Cloud Control API (JSON 1.0;
// SigV4 signing name cloudcontrolapi): GetResource and ListResources read
// the world's live models, UpdateResource and DeleteResource are resource
// requests (Requests) that complete after the call's operation delay,
// GetResourceRequestStatus and CancelResourceRequest follow them. A type's
// readability and facts are world.Schemas'; its handlers run with the
// caller's credentials, which the registration's Refusal asks IAM about
// (iamauth.HandlerRefused). internal/sandbox/doc.go states the rules
// (Cloud Control, One resource model).
package cloudcontrolapi
