'use strict';
// A minimal Step Functions client for a Distributed Map's child executions:
// Step Functions starts each child with the parent's execution role, so the
// role must allow states:StartExecution on the state machine (AWS's IAM
// policy for Distributed Map). StartExecution is sent, signed with
// Signature Version 4 (sigv4.cjs), to AWS_ENDPOINT_URL_SFN, where the local
// deployment's IAM decides it; the runner then runs the child itself.
// Without AWS_ENDPOINT_URL_SFN nothing is asked (a run with no IAM to ask).

const { credentials, sign } = require('./sigv4.cjs');

class States {
  // fromEnv returns a client for AWS_ENDPOINT_URL_SFN, or null when unset.
  static fromEnv(env = process.env) {
    const endpoint = (env.AWS_ENDPOINT_URL_SFN || '').replace(/\/+$/, '');
    return endpoint ? new States(endpoint, credentials(env)) : null;
  }

  constructor(endpoint, creds) {
    this.endpoint = endpoint;
    this.creds = creds;
  }

  // startExecution asks to start an execution of stateMachineArn; a
  // refusal throws an error whose code is the answer's error type
  // (AccessDeniedException) and whose message is its message.
  async startExecution(stateMachineArn, name, input) {
    const url = new URL(this.endpoint + '/');
    const payload = Buffer.from(JSON.stringify({ stateMachineArn, name, input: JSON.stringify(input) }));
    const headers = sign(this.creds, 'states', 'POST', url, {
      'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AWSStepFunctions.StartExecution',
    }, payload);
    const res = await fetch(url, { method: 'POST', headers, body: payload });
    const text = await res.text();
    if (!res.ok) {
      let body = {};
      try { body = JSON.parse(text); } catch { /* not JSON: the status says it */ }
      const code = String(body.__type || res.headers.get('x-amzn-errortype') || res.status).replace(/^.*#/, '').replace(/:.*$/, '');
      const err = new Error(`StartExecution ${stateMachineArn}: ${res.status} ${code}: ${body.message || body.Message || text.slice(0, 200)}`);
      err.code = code;
      throw err;
    }
    return JSON.parse(text);
  }
}

module.exports = { States };
