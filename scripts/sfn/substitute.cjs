'use strict';
// Applies CloudFormation-style DefinitionSubstitutions (${Name}) to an ASL
// definition's text, the way Step Functions does at deploy time. A
// placeholder with no value is an error: nothing is guessed.

const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;

function placeholders(text) {
  const names = new Set();
  for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]);
  return [...names].sort();
}

function substitute(text, values) {
  const missing = placeholders(text).filter((n) => !(n in values));
  if (missing.length > 0) {
    throw new Error('no substitution for ' + missing.map((n) => '${' + n + '}').join(', '));
  }
  return text.replace(PLACEHOLDER, (_, name) => String(values[name]));
}

// lambdaArns gives every *FunctionArn placeholder a syntactically valid Lambda
// ARN named after it (DiscoverFunctionArn -> function:discover), so a
// definition can be validated or run without a deployment.
function lambdaArns(text, region, account) {
  const values = {};
  for (const name of placeholders(text)) {
    const m = /^(.+)FunctionArn$/.exec(name);
    if (!m) continue;
    const fn = m[1].replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    values[name] = `arn:aws:lambda:${region}:${account}:function:${fn}`;
  }
  return values;
}

module.exports = { placeholders, substitute, lambdaArns };
