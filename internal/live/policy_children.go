package live

import "context"

// outOfBandBucketPolicy reports a bucket's policy when the stack declares
// no AWS::S3::BucketPolicy for the bucket. Identity: the bucket name.
func outOfBandBucketPolicy(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	bucket := parent.PhysicalID
	if declaresPolicyOn(stack, bucket, map[string]string{"AWS::S3::BucketPolicy": "Bucket"}) {
		return nil, nil
	}
	doc, err := bucketPolicy(ctx, c, bucket)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []candidate{{typ: "AWS::S3::BucketPolicy", id: bucket, model: map[string]any{
		"Bucket":         bucket,
		"PolicyDocument": doc,
	}}}, nil
}

// outOfBandQueuePolicy reports a queue's access policy when the stack
// declares none for the queue. A fresh queue has no policy, so a present
// one was set. Identity: the queue URL (the queue's physical id).
func outOfBandQueuePolicy(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	queueURL := parent.PhysicalID
	if declaresPolicyOn(stack, queueURL, map[string]string{"AWS::SQS::QueuePolicy": "Queues", "AWS::SQS::QueueInlinePolicy": "Queue"}) {
		return nil, nil
	}
	doc, err := queuePolicy(ctx, c, queueURL)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []candidate{{typ: "AWS::SQS::QueuePolicy", id: queueURL, model: map[string]any{
		"Queues":         []any{queueURL},
		"PolicyDocument": doc,
	}}}, nil
}
