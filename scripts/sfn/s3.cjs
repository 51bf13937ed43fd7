'use strict';
// A minimal S3 client for the runner's ItemReader and ResultWriter:
// GetObject and PutObject, path-style, signed with Signature Version 4
// (written here from AWS's published signing process; no SDK needed).
//
// The endpoint is AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL; credentials
// and region come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN and AWS_REGION, as for any SDK client.

const crypto = require('node:crypto');

function sha256Hex(data) {
  return crypto.createHash('sha256').update(data).digest('hex');
}

function hmac(key, data) {
  return crypto.createHmac('sha256', key).update(data).digest();
}

// encodePath escapes each segment of an object key as S3's canonical URI
// wants it (RFC 3986 unreserved characters kept, '/' kept).
function encodePath(path) {
  return path.split('/').map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())).join('/');
}

class S3 {
  constructor(env = process.env) {
    this.endpoint = (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || '').replace(/\/+$/, '');
    this.region = env.AWS_REGION || 'us-east-1';
    this.accessKey = env.AWS_ACCESS_KEY_ID || '';
    this.secretKey = env.AWS_SECRET_ACCESS_KEY || '';
    this.token = env.AWS_SESSION_TOKEN || '';
    if (!this.endpoint) this.endpoint = `https://s3.${this.region}.amazonaws.com`;
  }

  async send(method, bucket, key, body) {
    const url = new URL(this.endpoint + '/' + encodePath(bucket) + '/' + encodePath(key));
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
    const now = new Date();
    const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const headers = {
      host: url.host,
      'x-amz-content-sha256': sha256Hex(payload),
      'x-amz-date': amzDate,
    };
    if (this.token) headers['x-amz-security-token'] = this.token;
    if (method === 'PUT') headers['content-type'] = 'application/json';
    const names = Object.keys(headers).sort();
    const canonical = [method, url.pathname, '', ...names.map((n) => `${n}:${headers[n]}`), '', names.join(';'), headers['x-amz-content-sha256']].join('\n');
    const scope = `${day}/${this.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
    let k = hmac('AWS4' + this.secretKey, day);
    for (const part of [this.region, 's3', 'aws4_request']) k = hmac(k, part);
    const signature = crypto.createHmac('sha256', k).update(toSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${this.accessKey}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
    delete headers.host;
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
