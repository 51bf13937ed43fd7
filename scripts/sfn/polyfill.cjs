'use strict';
// aws-local-stepfunctions 3 calls Promise.withResolvers, which Node 20 lacks.
// Loaded with `node --require ./polyfill.cjs`.
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
