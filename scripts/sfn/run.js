'use strict';
// Runs an ASL definition locally (execution.cjs: aws-local-stepfunctions plus
// what it lacks) and reports, as one JSON document on stdout, the execution's
// status and output, the size of every state's output, the Map Runs and the
// executions (children included), and the SHA-256 of the definition text it
// ran (so tests can hold it equal to what infra synthesizes).
//
// Usage (Node 20 needs the polyfill):
//
//   node --require ./polyfill.cjs run.js --definition FILE [--input JSON | --input-file FILE]
//        [--type STANDARD|EXPRESS] [--name NAME] [--subst Name=Value]...
//        [--lambda-arns REGION:ACCOUNT] [--execution-name NAME]
//        [--retry-ms N] [--task-tokens URL] [--time-scale S]
//
//   --type            the state machine's type (default STANDARD): an EXPRESS
//                     execution ends TIMED_OUT after 5 minutes
//   --name            the state machine's name in ARNs (default: the file's name)
//   --subst           a DefinitionSubstitutions value; every ${Name} must get one
//   --lambda-arns     give each ${XFunctionArn} a Lambda ARN named after X (kebab-case)
//   --execution-name  $$.Execution.Name (default: local-<time>)
//   --retry-ms        wait N ms between retries instead of the definition's backoff
//   --task-tokens     run lambda:invoke.waitForTaskToken Tasks against this
//                     callback service (statemachinetest.TaskTokens), see below
//   --time-scale      run the runner's clocks S times faster than real time
//                     (execution limits, a callback Task's TimeoutSeconds and
//                     HeartbeatSeconds, a Wait state's Seconds); default 1
//
// Lambda Tasks are invoked with the AWS SDK for JavaScript, which honours
// AWS_ENDPOINT_URL_LAMBDA, AWS_REGION and the usual credential variables;
// the ItemReader and ResultWriter call S3 at AWS_ENDPOINT_URL_S3 with the
// same credentials, and a Distributed Map asks StartExecution for each child
// at AWS_ENDPOINT_URL_SFN when it is set (states.cjs).
//
// Callback Tasks (arn:aws:states:::lambda:invoke.waitForTaskToken):
// $$.Task.Token is a fresh token per task; the Task registers it
// (POST URL/local/register {token}), invokes Parameters.FunctionName with
// Parameters.Payload, then waits (POST URL/local/await {token, waitMillis},
// answered {pending, heartbeats} or the decision) until SendTaskSuccess (the
// output is the Task's result) or SendTaskFailure (the Task fails with its
// error and cause) reaches the callback service, or its TimeoutSeconds or
// HeartbeatSeconds pass (POST URL/local/expire {token}; the Task fails with
// States.Timeout or States.HeartbeatTimeout).
//
// Report: {status: "SUCCEEDED"|"FAILED"|"TIMED_OUT"|"ABORTED", output,
//          error: {Error, Cause}, states: [{name, type, bytes}],
//          maxStateOutputBytes, retries, caught, mapRuns: [...],
//          executions: [{name, type, status, error, seconds}], definitionSha256, type}
// Exit status: 0 when the report was written (whatever the execution's
// status), 2 on a usage, definition or interpreter error.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Runner } = require('./execution.cjs');
const { S3 } = require('./s3.cjs');
const { States } = require('./states.cjs');
const { substitute, lambdaArns } = require('./substitute.cjs');

function parseArgs(argv) {
  const opts = { subst: {}, input: '{}', type: 'STANDARD', timeScale: 1 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    switch (flag) {
      case '--definition': opts.definition = value; break;
      case '--input': opts.input = value; break;
      case '--input-file': opts.input = fs.readFileSync(value, 'utf8'); break;
      case '--type': opts.type = value; break;
      case '--name': opts.name = value; break;
      case '--lambda-arns': opts.lambdaArns = value; break;
      case '--execution-name': opts.executionName = value; break;
      case '--retry-ms': opts.retryMs = Number(value); break;
      case '--time-scale': opts.timeScale = Number(value); break;
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
  if (!(opts.timeScale > 0)) throw new Error('--time-scale must be a number > 0');
  if (opts.type !== 'STANDARD' && opts.type !== 'EXPRESS') throw new Error(`--type ${opts.type}: want STANDARD or EXPRESS`);
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = fs.readFileSync(opts.definition, 'utf8');
  let values = { ...opts.subst };
  let region = process.env.AWS_REGION || 'us-east-1';
  let account = '123456789012';
  if (opts.lambdaArns) {
    [region, account] = opts.lambdaArns.split(':');
    values = { ...lambdaArns(text, region, account), ...values };
  }
  const definition = JSON.parse(substitute(text, values));
  const input = JSON.parse(opts.input);
  const name = opts.name || path.basename(opts.definition).replace(/\.asl\.json$|\.json$/, '');

  const { StateMachine } = await import('aws-local-stepfunctions');
  // The interpreter's own validation of the definition as written.
  new StateMachine(definition);
  const runner = new Runner({
    StateMachine, region, account, name, timeScale: opts.timeScale, retryMs: opts.retryMs,
    taskTokens: opts.taskTokens, s3: new S3(), states: States.fromEnv(),
  });
  const executionName = opts.executionName || 'local-' + Date.now();
  const r = await runner.execute({
    definition, type: opts.type, name: executionName, input,
    arn: `arn:aws:states:${region}:${account}:${opts.type === 'EXPRESS' ? 'express' : 'execution'}:${name}:${executionName}`,
  });
  const report = {
    status: r.status, output: r.status === 'SUCCEEDED' ? r.output : null, ...runner.report,
    definitionSha256: crypto.createHash('sha256').update(text).digest('hex'), type: opts.type,
  };
  if (r.error) report.error = r.error;
  process.stdout.write(JSON.stringify(report) + '\n');
}

main().catch((err) => {
  process.stderr.write(`run.js: ${err && err.stack ? err.stack : err}\n`);
  process.exitCode = 2;
});
