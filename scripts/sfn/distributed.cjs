'use strict';
// A Distributed Map state (ProcessorConfig.Mode DISTRIBUTED) as Step
// Functions runs it (statemachine/doc.go lists each behaviour and its test):
//
//   - items: the ItemReader's S3 object (Resource arn:aws:states:::s3:getObject,
//     ReaderConfig.InputType JSON: a top-level array; JSONL: one value a
//     line; ReaderConfig.MaxItems / MaxItemsPath: the first N), else the
//     state input at ItemsPath. A reader failure fails the state with
//     States.ItemReaderFailed.
//   - ItemSelector per item ($$.Map.Item.Index / Value), then ItemBatcher
//     (MaxItemsPerBatch(Path), MaxInputBytesPerBatch(Path), BatchInput):
//     a child's input is {Items: [...], BatchInput}.
//   - one child execution per item (or batch) of ItemProcessor, of
//     ProcessorConfig.ExecutionType (EXPRESS children under Express's
//     limits), at most MaxConcurrency(Path) at once (0: 10,000).
//   - ToleratedFailurePercentage / ToleratedFailureCount: failed, timed-out
//     and aborted children count; above the threshold no further child is
//     started and the state fails with States.ExceedToleratedFailureThreshold.
//   - ResultWriter (Resource arn:aws:states:::s3:putObject, Parameters
//     Bucket, Prefix): <Prefix>/<map run id>/SUCCEEDED_0.json and
//     FAILED_0.json (the children's execution records) and manifest.json;
//     the state's result is then {MapRunArn, ResultWriterDetails: {Bucket,
//     Key}} instead of the array of the children's outputs.
//   - each child started as Step Functions starts it, with the parent's
//     role: when the runner has a Step Functions endpoint (states.cjs,
//     AWS_ENDPOINT_URL_SFN), states:StartExecution on the state machine is
//     asked there first; a refusal starts no further child and fails the
//     Map Run (States.Runtime, the refusal as the cause).
//   - a Map Run summary (runner.report.mapRuns): its ARN, execution type,
//     status, concurrency, tolerance and item and execution counts.

const crypto = require('node:crypto');

const GET_OBJECT = 'arn:aws:states:::s3:getObject';
const PUT_OBJECT = 'arn:aws:states:::s3:putObject';
// Step Functions runs at most 10,000 children of one Map Run at once.
const MAX_CHILDREN_AT_ONCE = 10000;

function namedError(name, message) {
  const err = new Error(message);
  err.name = name;
  return err;
}

async function readItems(runner, state, input, ctx) {
  const reader = state.ItemReader;
  if (!reader) {
    const items = state.ItemsPath ? await runner.path(state.ItemsPath, input, ctx) : input;
    if (!Array.isArray(items)) throw namedError('States.Runtime', 'the items of a Map state must be an array');
    return items;
  }
  if (reader.Resource !== GET_OBJECT) {
    throw namedError('States.Runtime', `ItemReader ${reader.Resource}: the local runner reads only ${GET_OBJECT}`);
  }
  const params = reader.Parameters ? await runner.evaluate(reader.Parameters, input, ctx) : {};
  const config = reader.ReaderConfig || {};
  let text;
  try {
    text = await runner.opts.s3.getObject(params.Bucket, params.Key);
  } catch (err) {
    throw namedError('States.ItemReaderFailed', err.message);
  }
  let items;
  switch (config.InputType) {
    case 'JSON':
      try {
        items = JSON.parse(text);
      } catch (err) {
        throw namedError('States.ItemReaderFailed', `s3://${params.Bucket}/${params.Key}: not JSON: ${err.message}`);
      }
      if (!Array.isArray(items)) throw namedError('States.ItemReaderFailed', `s3://${params.Bucket}/${params.Key}: not a JSON array`);
      break;
    case 'JSONL':
      items = [];
      for (const [i, line] of text.split(/\r?\n/).entries()) {
        if (line.trim() === '') continue;
        try {
          items.push(JSON.parse(line));
        } catch (err) {
          throw namedError('States.ItemReaderFailed', `s3://${params.Bucket}/${params.Key} line ${i + 1}: not JSON: ${err.message}`);
        }
      }
      break;
    default:
      throw namedError('States.Runtime', `ItemReader InputType ${config.InputType}: the local runner reads JSON and JSONL`);
  }
  let max = config.MaxItems;
  if (config.MaxItemsPath) max = await runner.path(config.MaxItemsPath, input, ctx);
  if (max !== undefined && max > 0) items = items.slice(0, max);
  return items;
}

async function batch(runner, state, input, ctx, selected) {
  const b = state.ItemBatcher;
  if (!b) return selected.map((item) => ({ input: item, items: 1 }));
  const maxItems = b.MaxItemsPerBatchPath ? await runner.path(b.MaxItemsPerBatchPath, input, ctx) : b.MaxItemsPerBatch;
  const maxBytes = b.MaxInputBytesPerBatchPath ? await runner.path(b.MaxInputBytesPerBatchPath, input, ctx) : b.MaxInputBytesPerBatch;
  const batchInput = b.BatchInput ? await runner.evaluate(b.BatchInput, input, ctx) : undefined;
  const size = (items) => Buffer.byteLength(JSON.stringify(batchInput === undefined ? { Items: items } : { Items: items, BatchInput: batchInput }));
  const out = [];
  let cur = [];
  for (const item of selected) {
    const next = [...cur, item];
    if (cur.length > 0 && ((maxItems && next.length > maxItems) || (maxBytes && size(next) > maxBytes))) {
      out.push(cur);
      cur = [item];
    } else {
      cur = next;
    }
  }
  if (cur.length > 0) out.push(cur);
  return out.map((items) => ({ input: batchInput === undefined ? { Items: items } : { Items: items, BatchInput: batchInput }, items: items.length }));
}

// record is a child's entry in a ResultWriter file, as Step Functions
// writes it (Input and Output as JSON strings).
function record(child, stateMachineArn) {
  const r = {
    ExecutionArn: child.arn,
    Input: JSON.stringify(child.input),
    InputDetails: { Included: true },
    Name: child.name,
    RedriveCount: 0,
    RedriveStatus: 'NOT_REDRIVABLE',
    StartDate: child.startDate.toISOString(),
    StateMachineArn: stateMachineArn,
    Status: child.status,
    StopDate: child.stopDate.toISOString(),
  };
  if (child.status === 'SUCCEEDED') {
    r.Output = JSON.stringify(child.output);
    r.OutputDetails = { Included: true };
  } else if (child.error) {
    r.Error = child.error.Error;
    r.Cause = child.error.Cause;
  }
  return r;
}

async function writeResults(runner, state, input, ctx, mapRunId, mapRunArn, children) {
  const w = state.ResultWriter;
  if (w.Resource !== PUT_OBJECT) {
    throw namedError('States.Runtime', `ResultWriter ${w.Resource}: want ${PUT_OBJECT}`);
  }
  const params = w.Parameters ? await runner.evaluate(w.Parameters, input, ctx) : {};
  const base = (params.Prefix ? params.Prefix.replace(/\/+$/, '') + '/' : '') + mapRunId + '/';
  const sm = runner.stateMachineArn();
  const files = { SUCCEEDED: [], FAILED: [], PENDING: [] };
  const groups = {
    SUCCEEDED: children.filter((c) => c.status === 'SUCCEEDED'),
    FAILED: children.filter((c) => c.status !== 'SUCCEEDED'),
  };
  try {
    for (const [kind, list] of Object.entries(groups)) {
      if (list.length === 0) continue;
      const key = `${base}${kind}_0.json`;
      const body = JSON.stringify(list.map((c) => record(c, sm)));
      await runner.opts.s3.putObject(params.Bucket, key, body);
      files[kind].push({ Key: key, Size: Buffer.byteLength(body) });
    }
    const manifest = { DestinationBucket: params.Bucket, MapRunArn: mapRunArn, ResultFiles: files };
    await runner.opts.s3.putObject(params.Bucket, base + 'manifest.json', JSON.stringify(manifest));
  } catch (err) {
    throw namedError('States.ResultWriterFailed', err.message);
  }
  return { MapRunArn: mapRunArn, ResultWriterDetails: { Bucket: params.Bucket, Key: base + 'manifest.json' } };
}

// runDistributedMap runs the Map state `state` (named name) on input in
// the execution exec ({type, arn, name}); it resolves to the state's
// result (before ResultSelector / ResultPath / OutputPath, which the
// interpreter applies) or throws the state's error.
async function runDistributedMap(runner, state, name, input, exec) {
  const config = state.ItemProcessor.ProcessorConfig || {};
  const type = config.ExecutionType;
  if (type !== 'STANDARD' && type !== 'EXPRESS') {
    throw namedError('States.Runtime', `${name}: a Distributed Map needs ProcessorConfig.ExecutionType STANDARD or EXPRESS, got ${type}`);
  }
  const baseCtx = {
    Execution: { Id: exec.arn, Name: exec.name },
    StateMachine: { Id: runner.stateMachineArn(), Name: runner.opts.name },
  };
  const items = await readItems(runner, state, input, baseCtx);
  const selected = [];
  for (const [i, item] of items.entries()) {
    selected.push(state.ItemSelector ? await runner.evaluate(state.ItemSelector, input, { ...baseCtx, Map: { Item: { Index: i, Value: item } } }) : item);
  }
  const units = await batch(runner, state, input, baseCtx, selected);

  let concurrency = state.MaxConcurrency;
  if (state.MaxConcurrencyPath) concurrency = await runner.path(state.MaxConcurrencyPath, input, baseCtx);
  if (!concurrency) concurrency = MAX_CHILDREN_AT_ONCE;
  const label = state.Label || name;
  const mapRunId = crypto.randomUUID();
  const smName = runner.opts.name;
  const mapRunArn = `arn:aws:states:${runner.opts.region}:${runner.opts.account}:mapRun:${smName}/${label}:${mapRunId}`;
  const processor = { ...state.ItemProcessor };
  delete processor.ProcessorConfig;

  const tolCount = state.ToleratedFailureCount;
  const tolPct = state.ToleratedFailurePercentage;
  const totalItems = selected.length;
  let failedItems = 0;
  let exceeded = false;
  const over = () => (tolCount !== undefined && failedItems > tolCount) ||
    (tolPct !== undefined && totalItems > 0 && (100 * failedItems) / totalItems > tolPct) ||
    (tolCount === undefined && tolPct === undefined && failedItems > 0);

  const children = new Array(units.length);
  let next = 0;
  // refused is the first child start the state machine's role was refused
  // (states.cjs): the Map Run starts no further child and fails.
  let refused = null;
  const worker = async () => {
    while (next < units.length && !exceeded && !refused) {
      const i = next++;
      const childName = crypto.randomUUID();
      const arn = type === 'EXPRESS'
        ? `arn:aws:states:${runner.opts.region}:${runner.opts.account}:express:${smName}/${label}:${mapRunId}:${childName}`
        : `arn:aws:states:${runner.opts.region}:${runner.opts.account}:execution:${smName}/${label}:${childName}`;
      if (runner.opts.states) {
        try {
          await runner.opts.states.startExecution(runner.stateMachineArn(), childName, units[i].input);
        } catch (err) {
          refused = refused || err;
          return;
        }
      }
      const r = await runner.execute({ definition: processor, type, name: childName, arn, input: units[i].input });
      children[i] = { ...r, input: units[i].input, items: units[i].items };
      if (r.status !== 'SUCCEEDED') {
        failedItems += units[i].items;
        if (over()) exceeded = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, units.length) }, worker));
  const ran = children.filter(Boolean);

  const counts = (list, weight) => {
    const c = { total: 0, succeeded: 0, failed: 0, timedOut: 0, aborted: 0, pending: 0 };
    for (const ch of list) {
      const n = weight(ch);
      c.total += n;
      if (ch.status === 'SUCCEEDED') c.succeeded += n;
      else if (ch.status === 'TIMED_OUT') c.timedOut += n;
      else if (ch.status === 'ABORTED') c.aborted += n;
      else c.failed += n;
    }
    return c;
  };
  const itemCounts = counts(ran, (ch) => ch.items);
  itemCounts.pending = totalItems - itemCounts.total;
  itemCounts.total = totalItems;
  const executionCounts = counts(ran, () => 1);
  executionCounts.pending = units.length - executionCounts.total;
  executionCounts.total = units.length;
  const summary = {
    state: name, mapRunArn, executionType: type, status: exceeded || refused ? 'FAILED' : 'SUCCEEDED',
    maxConcurrency: concurrency, toleratedFailurePercentage: tolPct ?? 0, toleratedFailureCount: tolCount ?? 0,
    itemCounts, executionCounts, resultWriter: null,
  };
  runner.report.mapRuns.push(summary);

  let result;
  if (state.ResultWriter) {
    result = await writeResults(runner, state, input, baseCtx, mapRunId, mapRunArn, ran);
    summary.resultWriter = result.ResultWriterDetails;
    itemCounts.resultsWritten = itemCounts.total - itemCounts.pending;
  } else {
    result = ran.map((ch) => (ch.status === 'SUCCEEDED' ? ch.output : null));
  }
  if (refused) {
    throw namedError('States.Runtime', `${name}: the Map Run could not start a child execution: ${refused.message}`);
  }
  if (exceeded) {
    throw namedError('States.ExceedToleratedFailureThreshold',
      `${name}: ${failedItems} of ${totalItems} items failed, over the tolerated ${tolCount !== undefined ? tolCount + ' items' : (tolPct ?? 0) + '%'}`);
  }
  return result;
}

module.exports = { runDistributedMap, GET_OBJECT, PUT_OBJECT };
