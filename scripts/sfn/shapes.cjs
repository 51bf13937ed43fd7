'use strict';
// Checks asl-validator does not make, of shapes Step Functions refuses at
// CreateStateMachine (statemachine/doc.go lists them with their tests):
//
//   - an ItemReader's Resource is one AWS documents for it
//     (arn:aws:states:::s3:getObject, arn:aws:states:::s3:listObjectsV2);
//     s3:getObject needs ReaderConfig.InputType, one of CSV, JSON, JSONL,
//     MANIFEST, PARQUET;
//   - a ResultWriter's Resource is arn:aws:states:::s3:putObject;
//   - ItemReader, ItemBatcher, ResultWriter, ToleratedFailure* and Label
//     belong to a Distributed Map only, whose ProcessorConfig names an
//     ExecutionType (STANDARD or EXPRESS);
//   - no Distributed Map runs in an Express execution: neither in an
//     EXPRESS state machine nor in a Distributed Map's EXPRESS children.

const READERS = ['arn:aws:states:::s3:getObject', 'arn:aws:states:::s3:listObjectsV2'];
const INPUT_TYPES = ['CSV', 'JSON', 'JSONL', 'MANIFEST', 'PARQUET'];
const WRITER = 'arn:aws:states:::s3:putObject';
const DISTRIBUTED_ONLY = ['ItemReader', 'ItemBatcher', 'ResultWriter', 'ToleratedFailurePercentage',
  'ToleratedFailurePercentagePath', 'ToleratedFailureCount', 'ToleratedFailureCountPath', 'Label'];

// check returns the shape errors of definition, run as a state machine of
// type ("STANDARD" or "EXPRESS").
function check(definition, type) {
  const errors = [];
  const visit = (machine, path, express) => {
    for (const [name, state] of Object.entries(machine.States || {})) {
      const at = path + name;
      if (state.Type === 'Map') {
        const pc = (state.ItemProcessor && state.ItemProcessor.ProcessorConfig) || {};
        const distributed = pc.Mode === 'DISTRIBUTED';
        if (!distributed) {
          for (const f of DISTRIBUTED_ONLY) {
            if (f in state) errors.push(`SHAPE_INLINE_MAP: ${at}: ${f} needs a Distributed Map (ProcessorConfig.Mode DISTRIBUTED)`);
          }
        } else {
          if (express) errors.push(`SHAPE_DISTRIBUTED_IN_EXPRESS: ${at}: a Distributed Map cannot run in an Express execution`);
          if (pc.ExecutionType !== 'STANDARD' && pc.ExecutionType !== 'EXPRESS') {
            errors.push(`SHAPE_EXECUTION_TYPE: ${at}: ProcessorConfig.ExecutionType ${pc.ExecutionType}, want STANDARD or EXPRESS`);
          }
        }
        const reader = state.ItemReader;
        if (reader) {
          if (!READERS.includes(reader.Resource)) {
            errors.push(`SHAPE_ITEM_READER: ${at}: ItemReader Resource ${reader.Resource}, want one of ${READERS.join(', ')}`);
          }
          const inputType = reader.ReaderConfig && reader.ReaderConfig.InputType;
          if (inputType !== undefined && !INPUT_TYPES.includes(inputType)) {
            errors.push(`SHAPE_INPUT_TYPE: ${at}: ReaderConfig.InputType ${inputType}, want one of ${INPUT_TYPES.join(', ')}`);
          }
          if (reader.Resource === READERS[0] && inputType === undefined) {
            errors.push(`SHAPE_INPUT_TYPE: ${at}: an s3:getObject ItemReader needs ReaderConfig.InputType`);
          }
        }
        if (state.ResultWriter && state.ResultWriter.Resource !== WRITER) {
          errors.push(`SHAPE_RESULT_WRITER: ${at}: ResultWriter Resource ${state.ResultWriter.Resource}, want ${WRITER}`);
        }
        const inner = state.ItemProcessor || state.Iterator;
        if (inner) visit(inner, at + '/', distributed ? pc.ExecutionType === 'EXPRESS' : express);
      }
      for (const branch of state.Branches || []) visit(branch, at + '/', express);
    }
  };
  visit(definition, '', type === 'EXPRESS');
  return errors;
}

module.exports = { check, READERS, INPUT_TYPES };
