// Package lambdarouter serves the AWS Lambda Invoke API for Go handlers
// registered by function name, so code that invokes Lambda through an SDK
// (the local Step Functions interpreter, the trigger, tests) runs the real
// handlers in-process instead of calling AWS.
//
// Rules and invariants:
//
//   - Only POST /2015-03-31/functions/{FunctionName}/invocations is served.
//     FunctionName may be a bare name, a partial ARN (account:function:name)
//     or a full function ARN, with or without a version or alias qualifier;
//     all of them resolve to the registered name.
//   - Handlers take the signatures lambda.Start takes; the payload is
//     decoded and the result encoded as the Go runtime on Lambda does. Each
//     invocation encodes into a buffer of its own (aws-lambda-go's
//     lambda.NewHandler hands back a pooled buffer it has already released,
//     a data race under concurrent invocations), so the router is safe for
//     any number of concurrent calls.
//   - A handler error is answered the way Lambda answers it: status 200,
//     header X-Amz-Function-Error: Unhandled and a body
//     {"errorType", "errorMessage"}. The errorType is computed like the Go
//     runtime computes it (a messages.InvokeResponse_Error keeps its Type;
//     otherwise the name of the error's dynamic type, pointer stripped, with
//     no unwrapping), so Retry and Catch clauses that match it behave the
//     same locally and on AWS. A handler panic is reported the same way; it
//     never reaches the HTTP server.
//   - An unknown function is a 404 ResourceNotFoundException; a request or
//     response payload above Lambda's 6 MB synchronous limit is refused the
//     way Lambda refuses it.
//   - The optimized Step Functions integration (Resource
//     arn:aws:states:::lambda:invoke, which a local interpreter passes on as
//     a function name) is unpacked: the body's FunctionName and Payload are
//     dispatched and the result wrapped as {"ExecutedVersion", "Payload",
//     "StatusCode"}. Definitions should prefer direct function ARNs.
//   - Event (asynchronous) invocations run the handler before answering 202,
//     so tests observe their effects deterministically; DryRun answers 204.
//   - FunctionURL serves one registered function as a Lambda function URL
//     (payload format 2.0). With Callers it is AuthType AWS_IAM: the
//     request's SigV4 signature (service lambda, dated within 15 minutes)
//     is verified by signing the request again with the secret Callers
//     holds for its access key, and the function sees the signer in
//     requestContext.authorizer.iam; an unsigned or wrongly signed request
//     is 403 {"Message":"Forbidden"} and never reaches the function.
//     With Authorize, a verified signer is then put to IAM as Lambda puts
//     it — lambda:InvokeFunctionUrl on the function's ARN with
//     lambda:FunctionUrlAuthType AWS_IAM — and a refusal is the same 403
//     (the e2e answers with the sandbox's evaluation of the signer's
//     identity policies, sandbox.Server.Allows); without it the Callers
//     decide alone (a key they do not know is refused).
//
// The router holds no global state; every Router is independent.
package lambdarouter
