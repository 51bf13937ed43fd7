'use strict';
// Signature Version 4 for the runner's own AWS calls (s3.cjs, states.cjs),
// written here from AWS's published signing process; no SDK needed.
// Credentials and region come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN and AWS_REGION, as for any SDK client.

const crypto = require('node:crypto');

function sha256Hex(data) {
  return crypto.createHash('sha256').update(data).digest('hex');
}

function hmac(key, data) {
  return crypto.createHmac('sha256', key).update(data).digest();
}

// credentials reads the signing credentials and region from env.
function credentials(env = process.env) {
  return {
    region: env.AWS_REGION || 'us-east-1',
    accessKey: env.AWS_ACCESS_KEY_ID || '',
    secretKey: env.AWS_SECRET_ACCESS_KEY || '',
    token: env.AWS_SESSION_TOKEN || '',
  };
}

// sign returns the headers of a request to url (a URL whose pathname is
// already the canonical URI, no query string) for service, with extra
// headers signed too: x-amz-date, x-amz-content-sha256, the session token
// when set, and authorization.
function sign(creds, service, method, url, extra, payload) {
  const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers = { host: url.host, 'x-amz-content-sha256': sha256Hex(payload), 'x-amz-date': amzDate };
  for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = v;
  if (creds.token) headers['x-amz-security-token'] = creds.token;
  const names = Object.keys(headers).sort();
  const canonical = [method, url.pathname, '', ...names.map((n) => `${n}:${headers[n]}`), '', names.join(';'), headers['x-amz-content-sha256']].join('\n');
  const scope = `${day}/${creds.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  let k = hmac('AWS4' + creds.secretKey, day);
  for (const part of [creds.region, service, 'aws4_request']) k = hmac(k, part);
  const signature = crypto.createHmac('sha256', k).update(toSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKey}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
  delete headers.host;
  return headers;
}

module.exports = { credentials, sign };
