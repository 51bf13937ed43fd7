'use strict';
// Runner: runs executions of an ASL definition under aws-local-stepfunctions
// with what the interpreter lacks and Step Functions does (each behaviour is
// listed, with its test, in statemachine/doc.go):
//
//   - AWS's limits: an Express execution ends TIMED_OUT after 5 minutes, any
//     execution after its definition's TimeoutSeconds (States.Timeout); a
//     state input or output, or an execution input or output, over 256 KiB
//     fails the execution with States.DataLimitExceeded.
//   - Distributed Map states (ProcessorConfig.Mode DISTRIBUTED) run by
//     distributed.cjs: items from the state input or the ItemReader (S3),
//     ItemSelector, ItemBatcher, child executions of the declared
//     ExecutionType (each under its own limits), MaxConcurrency(Path),
//     ToleratedFailurePercentage/Count, ResultWriter and a Map Run summary.
//   - Callback Tasks (lambda:invoke.waitForTaskToken) against a callback
//     service (statemachinetest.TaskTokens), with TimeoutSeconds and
//     HeartbeatSeconds: no answer in time fails the Task with
//     States.Timeout (States.HeartbeatTimeout without a heartbeat), and the
//     token is expired so a late answer is refused.
//
// Time: a time scale S (--time-scale) runs the runner's own clocks S times
// faster than real time: execution durations (Express's 5 minutes,
// TimeoutSeconds), a callback Task's TimeoutSeconds and HeartbeatSeconds,
// and a Wait state's Seconds. Lambda invocations take the real time they
// take.
//
// The definition executed is the one given, byte for byte; its states are
// handed to the interpreter as they are, except that a Distributed Map and
// a callback Task are dispatched to this runner through the interpreter's
// Task hook (taskResourceLocalHandlers) and the definition's TimeoutSeconds
// is enforced here (scaled) rather than by the interpreter.

const crypto = require('node:crypto');
const { runDistributedMap } = require('./distributed.cjs');

const LIMITS = Object.freeze({
  // Step Functions' quota on a state's or an execution's input or output.
  payloadBytes: 256 * 1024,
  // An Express execution's maximum duration.
  expressSeconds: 300,
  // A Standard execution's maximum duration (one year).
  standardSeconds: 365 * 24 * 3600,
});

const CALLBACK_RESOURCE = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
const DISTRIBUTED_STUB = 'arn:aws:states:::local:distributedMap';

function namedError(name, message) {
  const err = new Error(message);
  err.name = name;
  return err;
}

function byteLength(value) {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function newToken() {
  return crypto.randomBytes(48).toString('base64url');
}

function isDistributed(state) {
  return state.Type === 'Map' && state.ItemProcessor && state.ItemProcessor.ProcessorConfig &&
    state.ItemProcessor.ProcessorConfig.Mode === 'DISTRIBUTED';
}

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw namedError('States.Runtime', `${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

class Runner {
  // opts: {StateMachine, region, account, name (the state machine's),
  // timeScale, retryMs, taskTokens, s3, states (null: no child start is
  // asked)}
  constructor(opts) {
    this.opts = { timeScale: 1, ...opts };
    this.report = { states: [], maxStateOutputBytes: 0, retries: 0, caught: [], mapRuns: [], executions: [] };
  }

  // ms converts seconds of the runner's clock to real milliseconds.
  ms(seconds) {
    return (seconds * 1000) / this.opts.timeScale;
  }

  stateMachineArn() {
    return `arn:aws:states:${this.opts.region}:${this.opts.account}:stateMachine:${this.opts.name}`;
  }

  // prepare returns the definition as handed to the interpreter and the
  // Task hook's handlers: Distributed Maps and callback Tasks, at this
  // execution's level (an inline Map's or a Parallel's states included; a
  // Distributed Map's processor is a child execution, prepared when it runs).
  prepare(definition, exec) {
    const handlers = {};
    const waits = {};
    const copy = JSON.parse(JSON.stringify(definition));
    delete copy.TimeoutSeconds;
    const visit = (machine) => {
      for (const [name, state] of Object.entries(machine.States || {})) {
        if (handlers[name]) throw namedError('States.Runtime', `state name ${name} is used twice`);
        if (isDistributed(state)) {
          if (exec.type === 'EXPRESS') {
            throw namedError('States.Runtime', `${name}: a Distributed Map cannot run in an Express execution`);
          }
          // The interpreter's Task timer: as long as a Node timer can wait.
          const stub = { Type: 'Task', Resource: DISTRIBUTED_STUB, TimeoutSeconds: 2147483 };
          for (const k of ['Comment', 'InputPath', 'ResultSelector', 'ResultPath', 'OutputPath', 'Retry', 'Catch', 'Next', 'End']) {
            if (k in state) stub[k] = state[k];
          }
          machine.States[name] = stub;
          handlers[name] = (input) => runDistributedMap(this, state, name, input, exec);
          continue;
        }
        if (state.Type === 'Task' && typeof state.Resource === 'string' && state.Resource.endsWith('.waitForTaskToken')) {
          handlers[name] = this.callbackHandler(name, state, exec);
          continue;
        }
        if (state.Type === 'Wait' && typeof state.Seconds === 'number') waits[name] = this.ms(state.Seconds);
        const inner = state.ItemProcessor || state.Iterator;
        if (inner) visit(inner);
        for (const branch of state.Branches || []) visit(branch);
      }
    };
    visit(copy);
    return { definition: copy, handlers, waits };
  }

  // callbackHandler runs one waitForTaskToken Task: $$.Task.Token is a
  // fresh token per task; the token is registered with the callback
  // service, the Lambda is invoked with the Parameters' Payload, and the
  // Task waits for SendTaskSuccess / SendTaskFailure, at most
  // TimeoutSeconds, and at most HeartbeatSeconds between heartbeats.
  callbackHandler(name, state, exec) {
    return async (input) => {
      if (state.Resource !== CALLBACK_RESOURCE) {
        throw namedError('States.Runtime', `${state.Resource}: only ${CALLBACK_RESOURCE} runs locally`);
      }
      const tokens = this.opts.taskTokens;
      if (!tokens) throw namedError('States.Runtime', `${name} waits for a task token: run with --task-tokens URL`);
      const token = exec.task.Token;
      exec.task.Token = newToken();
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
      const started = Date.now();
      // AWS's default TimeoutSeconds for a Task is 99999999.
      const timeout = this.ms(state.TimeoutSeconds || 99999999);
      const heartbeat = state.HeartbeatSeconds ? this.ms(state.HeartbeatSeconds) : Infinity;
      let lastBeat = started;
      let beats = 0;
      for (;;) {
        const now = Date.now();
        const left = Math.min(started + timeout - now, lastBeat + heartbeat - now);
        if (left <= 0) {
          await post(tokens + '/local/expire', { token });
          if (started + timeout - now <= 0) throw namedError('States.Timeout', `${name}: no answer within TimeoutSeconds ${state.TimeoutSeconds}`);
          throw namedError('States.HeartbeatTimeout', `${name}: no heartbeat within HeartbeatSeconds ${state.HeartbeatSeconds}`);
        }
        const d = await post(tokens + '/local/await', { token, waitMillis: Math.max(1, Math.min(left, 20000)) });
        if (d.heartbeats > beats) {
          beats = d.heartbeats;
          lastBeat = Date.now();
        }
        if (d.pending) continue;
        if (d.error !== undefined) throw namedError(d.error, d.cause || '');
        return JSON.parse(d.output);
      }
    };
  }

  recordState(event) {
    const bytes = byteLength(event.state.output);
    this.report.states.push({ name: event.state.name, type: event.state.type, bytes });
    this.report.maxStateOutputBytes = Math.max(this.report.maxStateOutputBytes, bytes);
    return bytes;
  }

  // execute runs one execution to its end and returns
  // {status, output, error, startDate, stopDate}; a failed, timed-out or
  // aborted execution is a status, not an exception.
  // spec: {definition, type: STANDARD|EXPRESS, name, arn, input}
  async execute(spec) {
    const startDate = new Date();
    const exec = { type: spec.type, arn: spec.arn, name: spec.name, task: { Token: newToken() } };
    const done = (status, extra) => {
      const r = { name: spec.name, arn: spec.arn, type: spec.type, status, startDate, stopDate: new Date(), ...extra };
      this.report.executions.push({ name: r.name, type: r.type, status: r.status, error: r.error && r.error.Error, seconds: (r.stopDate - r.startDate) / 1000 });
      return r;
    };
    let prepared;
    try {
      prepared = this.prepare(spec.definition, exec);
    } catch (err) {
      return done('FAILED', { error: { Error: err.name || 'States.Runtime', Cause: err.message } });
    }
    const inBytes = byteLength(spec.input);
    if (inBytes > LIMITS.payloadBytes) {
      return done('FAILED', { error: { Error: 'States.DataLimitExceeded', Cause: `execution input is ${inBytes} bytes, over the ${LIMITS.payloadBytes}-byte limit` } });
    }
    const { StateMachine } = this.opts;
    const machine = new StateMachine(prepared.definition, { validationOptions: { noValidate: true } });
    const runOptions = {
      context: {
        Execution: { Id: spec.arn, Name: spec.name, Input: spec.input, StartTime: startDate.toISOString() },
        StateMachine: { Id: this.stateMachineArn(), Name: this.opts.name },
        Task: exec.task,
      },
      overrides: { taskResourceLocalHandlers: prepared.handlers, waitTimeOverrides: prepared.waits },
    };
    if (this.opts.retryMs !== undefined) {
      const overrides = {};
      for (const name of retryingStates(prepared.definition)) overrides[name] = this.opts.retryMs;
      runOptions.overrides.retryIntervalOverrides = overrides;
    }
    const execution = machine.run(spec.input, runOptions);
    let terminal = null;
    const stop = (status, Error, Cause) => {
      if (terminal) return;
      terminal = { status, error: { Error, Cause } };
      execution.abort();
    };
    const limit = Math.min(spec.definition.TimeoutSeconds || Infinity, spec.type === 'EXPRESS' ? LIMITS.expressSeconds : LIMITS.standardSeconds);
    // Node's timers hold at most 2^31-1 ms (24.8 days): a longer limit (a
    // Standard execution's year, unscaled) cannot be reached by a test.
    const limitMs = this.ms(limit);
    const timer = limitMs <= 2147483647
      ? setTimeout(() => stop('TIMED_OUT', 'States.Timeout', `the execution ran longer than ${limit} seconds (${spec.type})`), limitMs)
      : undefined;
    let output = null;
    let failed = null;
    try {
      for await (const event of execution.eventLogs) {
        switch (event.type) {
          case 'StateEntered': {
            const bytes = byteLength(event.state.input);
            if (bytes > LIMITS.payloadBytes) stop('FAILED', 'States.DataLimitExceeded', `state ${event.state.name}'s input is ${bytes} bytes, over the ${LIMITS.payloadBytes}-byte limit`);
            break;
          }
          case 'StateExited': {
            const bytes = this.recordState(event);
            if (bytes > LIMITS.payloadBytes) stop('FAILED', 'States.DataLimitExceeded', `state ${event.state.name}'s output is ${bytes} bytes, over the ${LIMITS.payloadBytes}-byte limit`);
            break;
          }
          case 'StateRetried': this.report.retries++; break;
          case 'StateCaught': this.report.caught.push(event.state.name); break;
          case 'ExecutionSucceeded': output = event.output; break;
          case 'ExecutionFailed':
            // AWS gives Cause as a string: a task's error object (a
            // Lambda function's {errorMessage, errorType}) as its JSON.
            failed = { Error: event.Error, Cause: event.Cause === undefined ? '' : typeof event.Cause === 'string' ? event.Cause : JSON.stringify(event.Cause) };
            break;
          default:
        }
      }
      await execution.result;
    } catch (err) {
      if (!failed && !terminal) failed = { Error: err.name || 'Error', Cause: err.message };
    } finally {
      clearTimeout(timer);
    }
    if (terminal) return done(terminal.status, { error: terminal.error });
    if (failed) return done('FAILED', { error: failed });
    const outBytes = byteLength(output);
    if (outBytes > LIMITS.payloadBytes) {
      return done('FAILED', { error: { Error: 'States.DataLimitExceeded', Cause: `execution output is ${outBytes} bytes, over the ${LIMITS.payloadBytes}-byte limit` } });
    }
    return done('SUCCEEDED', { output });
  }

  // evaluate applies a payload template (Parameters, ItemSelector, ...) to
  // input with the given context object, through the interpreter's own
  // template processing (a one-state Pass machine), so paths, $$ and
  // intrinsic functions mean what they mean in the definition.
  async evaluate(template, input, context) {
    const { StateMachine } = this.opts;
    const m = new StateMachine({ StartAt: 'T', States: { T: { Type: 'Pass', Parameters: template, End: true } } }, { validationOptions: { noValidate: true } });
    return m.run(input, { context }).result;
  }

  // path evaluates one JSONPath (on input, or on the context with $$).
  async path(path, input, context) {
    const out = await this.evaluate({ 'v.$': path }, input, context);
    return out.v;
  }
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

module.exports = { Runner, LIMITS, namedError, byteLength, isDistributed, CALLBACK_RESOURCE };
