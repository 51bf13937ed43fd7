'use strict';
// A minimal S3 client for the runner's ItemReader and ResultWriter:
// GetObject and PutObject, path-style, signed with Signature Version 4
// (sigv4.cjs).
//
// The endpoint is AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL; credentials
// and region are sigv4.cjs's.

const { credentials, sign } = require('./sigv4.cjs');

// encodePath escapes each segment of an object key as S3's canonical URI
// wants it (RFC 3986 unreserved characters kept, '/' kept).
function encodePath(path) {
  return path.split('/').map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())).join('/');
}

class S3 {
  constructor(env = process.env) {
    this.creds = credentials(env);
    this.endpoint = (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || '').replace(/\/+$/, '');
    if (!this.endpoint) this.endpoint = `https://s3.${this.creds.region}.amazonaws.com`;
  }

  async send(method, bucket, key, body) {
    const url = new URL(this.endpoint + '/' + encodePath(bucket) + '/' + encodePath(key));
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
    const headers = sign(this.creds, 's3', method, url, method === 'PUT' ? { 'content-type': 'application/json' } : {}, payload);
    const res = await fetch(url, { method, headers, body: method === 'PUT' ? payload : undefined });
    const text = await res.text();
    if (!res.ok) {
      const code = /<Code>([^<]+)<\/Code>/.exec(text);
      const err = new Error(`S3 ${method === 'PUT' ? 'PutObject' : 'GetObject'} s3://${bucket}/${key}: ${res.status} ${code ? code[1] : text.slice(0, 200)}`);
      err.code = code ? code[1] : String(res.status);
      throw err;
    }
    return text;
  }

  getObject(bucket, key) { return this.send('GET', bucket, key); }

  putObject(bucket, key, body) { return this.send('PUT', bucket, key, body); }
}

module.exports = { S3 };
