// Package s3 is the sandbox's S3 (REST-XML, path-style; SigV4 signing
// name s3): bucket policies over the world's AWS::S3::Bucket and
// BucketPolicy models, and PutObject/GetObject over Objects, the objects
// the server holds (a sweep's stack lists, the ELBv2 trust store bundles
// it answers). Service says what it serves; the rules are
// internal/sandbox/doc.go's.
package s3
