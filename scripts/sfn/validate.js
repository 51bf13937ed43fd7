'use strict';
// Usage: node validate.js DEFINITION.asl.json[=STANDARD|EXPRESS]...
//
// Validates each definition with asl-validator after giving every
// ${...FunctionArn} placeholder a valid Lambda ARN (any other placeholder is
// an error), then with shapes.cjs: what Step Functions refuses of
// Distributed Map shapes and asl-validator lets through, for a state
// machine of the given type (default STANDARD). Prints one JSON object
// {file: {valid, errors}} and exits 1 when any definition is invalid, 2 on
// a usage or read error.

const fs = require('node:fs');
const aslValidator = require('asl-validator');
const { substitute, lambdaArns } = require('./substitute.cjs');
const shapes = require('./shapes.cjs');

function main(files) {
  if (files.length === 0) {
    process.stderr.write('usage: node validate.js DEFINITION.asl.json[=STANDARD|EXPRESS]...\n');
    return 2;
  }
  const report = {};
  let ok = true;
  for (const arg of files) {
    const m = /^(.*)=(STANDARD|EXPRESS)$/.exec(arg);
    const file = m ? m[1] : arg;
    const type = m ? m[2] : 'STANDARD';
    let definition;
    try {
      const text = fs.readFileSync(file, 'utf8');
      definition = JSON.parse(substitute(text, lambdaArns(text, 'us-east-1', '123456789012')));
    } catch (err) {
      process.stderr.write(`${file}: ${err.message}\n`);
      return 2;
    }
    const { isValid, errors } = aslValidator(definition, { checkPaths: true, checkArn: true });
    const all = (errors || []).map((e) => `${e['Error code']}: ${e.Message}`).concat(shapes.check(definition, type));
    report[file] = { valid: all.length === 0, errors: all };
    ok = ok && all.length === 0;
  }
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  return ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
