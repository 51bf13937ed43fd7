'use strict';
// Runs an ASL definition under aws-local-stepfunctions and reports, as one
// JSON document on stdout, the execution's status and output and the size of
// every state's output (so tests can hold each under Step Functions' limits).
//
// Usage (Node 20 needs the polyfill):
//
//   node --require ./polyfill.cjs run.js --definition FILE [--input JSON | --input-file FILE]
//        [--subst Name=Value]... [--lambda-arns REGION:ACCOUNT] [--execution-name NAME]
//        [--retry-ms N] [--task-tokens URL]
//
//   --subst           a DefinitionSubstitutions value; every ${Name} must get one
//   --lambda-arns     give each ${XFunctionArn} a Lambda ARN named after X (kebab-case)
//   --execution-name  $$.Execution.Name (default: local-<time>)
//   --retry-ms        wait N ms between retries instead of the definition's backoff
//   --task-tokens     run lambda:invoke.waitForTaskToken Tasks against this
//                     callback service (statemachinetest.TaskTokens), see below
//
// Lambda Tasks are invoked with the AWS SDK for JavaScript, which honours
// AWS_ENDPOINT_URL_LAMBDA, AWS_REGION and the usual credential variables.
//
// The interpreter has no callback tasks: with --task-tokens, each Task whose
// Resource is arn:aws:states:::lambda:invoke.waitForTaskToken runs locally
// as Step Functions runs it: $$.Task.Token is a fresh token per task, the
// Task registers it (POST URL/local/register {token}), invokes
// Parameters.FunctionName with Parameters.Payload, then waits
// (POST URL/local/await {token}, answered {pending} or the decision) until
// SendTaskSuccess (the output is the Task's result) or SendTaskFailure (the
// Task fails with its error and cause) reaches the callback service.
//
// Report: {status: "SUCCEEDED"|"FAILED", output, error: {Error, Cause},
//          states: [{name, type, bytes}], maxStateOutputBytes, retries, caught}
// Exit status: 0 when the report was written (whatever the execution's
// status), 2 on a usage, definition or interpreter error.

const fs = require('node:fs');
const { substitute, lambdaArns } = require('./substitute.cjs');

function parseArgs(argv) {
  const opts = { subst: {}, input: '{}' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    switch (flag) {
      case '--definition': opts.definition = value; break;
      case '--input': opts.input = value; break;
      case '--input-file': opts.input = fs.readFileSync(value, 'utf8'); break;
      case '--lambda-arns': opts.lambdaArns = value; break;
      case '--execution-name': opts.executionName = value; break;
      case '--retry-ms': opts.retryMs = Number(value); break;
      case '--task-tokens': opts.taskTokens = value.replace(/\/+$/, ''); break;
      case '--subst': {
        const eq = value.indexOf('=');
        if (eq <= 0) throw new Error(`--subst ${value}: want Name=Value`);
        opts.subst[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      default: throw new Error(`unknown flag ${flag}`);
    }
  }
  if (!opts.definition) throw new Error('--definition is required');
  if (opts.retryMs !== undefined && !(opts.retryMs >= 0)) throw new Error('--retry-ms must be a number >= 0');
  return opts;
}

// retryingStates lists every state, at any depth, that has a Retry field.
function retryingStates(definition, names = []) {
  for (const [name, state] of Object.entries(definition.States || {})) {
    if (Array.isArray(state.Retry) && state.Retry.length > 0) names.push(name);
    const inner = state.ItemProcessor || state.Iterator;
    if (inner) retryingStates(inner, names);
    for (const branch of state.Branches || []) retryingStates(branch, names);
  }
  return names;
}

const CALLBACK_RESOURCE = 'arn:aws:states:::lambda:invoke.waitForTaskToken';

// callbackStates lists every state, at any depth, that waits for a task token.
function callbackStates(definition, names = []) {
  for (const [name, state] of Object.entries(definition.States || {})) {
    if (state.Type === 'Task' && typeof state.Resource === 'string' && state.Resource.endsWith('.waitForTaskToken')) {
      names.push({ name, resource: state.Resource });
    }
    const inner = state.ItemProcessor || state.Iterator;
    if (inner) callbackStates(inner, names);
    for (const branch of state.Branches || []) callbackStates(branch, names);
  }
  return names;
}

function newToken() {
  return require('node:crypto').randomBytes(48).toString('base64url');
}

function namedError(name, message) {
  const err = new Error(message);
  err.name = name;
  return err;
}

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw namedError('States.Runtime', `${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

// callbackHandler runs one waitForTaskToken Task; task is the context's
// Task object, whose Token the next callback Task must not reuse.
function callbackHandler(resource, tokens, task) {
  return async (input) => {
    if (resource !== CALLBACK_RESOURCE) {
      throw namedError('States.Runtime', `${resource}: only ${CALLBACK_RESOURCE} runs locally`);
    }
    const token = task.Token;
    task.Token = newToken();
    await post(tokens + '/local/register', { token });
    const { LambdaClient, InvokeCommand } = require('@aws-sdk/client-lambda');
    const out = await new LambdaClient({}).send(new InvokeCommand({
      FunctionName: input.FunctionName,
      Payload: new TextEncoder().encode(JSON.stringify(input.Payload === undefined ? {} : input.Payload)),
    }));
    if (out.FunctionError) {
      const body = JSON.parse(new TextDecoder().decode(out.Payload));
      throw namedError(body.errorType, `${body.errorType}: ${body.errorMessage}`);
    }
    for (;;) {
      const d = await post(tokens + '/local/await', { token });
      if (d.pending) continue;
      if (d.error !== undefined) throw namedError(d.error, d.cause || '');
      return JSON.parse(d.output);
    }
  };
}

function byteLength(value) {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = fs.readFileSync(opts.definition, 'utf8');
  let values = { ...opts.subst };
  if (opts.lambdaArns) {
    const [region, account] = opts.lambdaArns.split(':');
    values = { ...lambdaArns(text, region, account), ...values };
  }
  const definition = JSON.parse(substitute(text, values));
  const input = JSON.parse(opts.input);

  const { StateMachine } = await import('aws-local-stepfunctions');
  // Region and credentials come from the environment, like any SDK client.
  const machine = new StateMachine(definition);
  const runOptions = {
    context: {
      Execution: {
        Id: 'arn:aws:states:local:000000000000:execution:local:' + (opts.executionName || 'local'),
        Name: opts.executionName || 'local-' + Date.now(),
        Input: input,
        StartTime: new Date().toISOString(),
      },
      StateMachine: { Id: 'arn:aws:states:local:000000000000:stateMachine:local', Name: 'local' },
    },
  };
  const callbacks = callbackStates(definition);
  if (callbacks.length > 0) {
    if (!opts.taskTokens) throw new Error(`${callbacks[0].name} waits for a task token: run with --task-tokens URL`);
    const task = { Token: newToken() };
    runOptions.context.Task = task;
    const handlers = {};
    for (const c of callbacks) handlers[c.name] = callbackHandler(c.resource, opts.taskTokens, task);
    runOptions.overrides = { taskResourceLocalHandlers: handlers };
  }
  if (opts.retryMs !== undefined) {
    const overrides = {};
    for (const name of retryingStates(definition)) overrides[name] = opts.retryMs;
    runOptions.overrides = { ...runOptions.overrides, retryIntervalOverrides: overrides };
  }

  const execution = machine.run(input, runOptions);
  const report = { status: 'SUCCEEDED', output: null, states: [], maxStateOutputBytes: 0, retries: 0, caught: [] };
  for await (const event of execution.eventLogs) {
    switch (event.type) {
      case 'StateExited': {
        const bytes = byteLength(event.state.output);
        report.states.push({ name: event.state.name, type: event.state.type, bytes });
        report.maxStateOutputBytes = Math.max(report.maxStateOutputBytes, bytes);
        break;
      }
      case 'StateRetried': report.retries++; break;
      case 'StateCaught': report.caught.push(event.state.name); break;
      case 'ExecutionSucceeded': report.output = event.output; break;
      case 'ExecutionFailed':
        report.status = 'FAILED';
        report.error = { Error: event.Error, Cause: event.Cause === undefined ? '' : String(event.Cause) };
        break;
      case 'ExecutionAborted':
      case 'ExecutionTimeout':
        report.status = event.type === 'ExecutionTimeout' ? 'TIMED_OUT' : 'ABORTED';
        break;
      default:
    }
  }
  try {
    await execution.result;
  } catch (err) {
    if (report.status === 'SUCCEEDED') {
      report.status = 'FAILED';
      report.error = { Error: err.name || 'Error', Cause: err.message };
    }
  }
  process.stdout.write(JSON.stringify(report) + '\n');
}

main().catch((err) => {
  process.stderr.write(`run.js: ${err && err.stack ? err.stack : err}\n`);
  process.exitCode = 2;
});
