// A small client for the operator API, shared by `npm run admin`, the demo seeding and the tests.
export class OperatorClient {
  constructor(baseUrl, rootToken) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.rootToken = rootToken;
  }

  async request(method, path, json) {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.rootToken}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const err = new Error(`${method} ${path}: ${res.status} ${body?.error ?? text}`);
      err.status = res.status;
      err.code = body?.code;
      throw err;
    }
    return body;
  }

  createOrg(name, plan) { return this.request('POST', '/v1/admin/orgs', { name, plan }); }
  getOrg(orgId) { return this.request('GET', `/v1/admin/orgs/${orgId}`); }
  setPlan(orgId, plan) { return this.request('PATCH', `/v1/admin/orgs/${orgId}`, { plan }); }
  renameOrg(orgId, name) { return this.request('PATCH', `/v1/admin/orgs/${orgId}`, { name }); }
  addDomain(orgId, domain) { return this.request('POST', `/v1/admin/orgs/${orgId}/domains`, { domain }); }
  removeDomain(orgId, domain) { return this.request('DELETE', `/v1/admin/orgs/${orgId}/domains/${encodeURIComponent(domain)}`); }
  createKey(orgId, kind, name, allowedOrigins) { return this.request('POST', `/v1/admin/orgs/${orgId}/keys`, { kind, name, allowedOrigins }); }
  setKeyOrigins(keyId, allowedOrigins) { return this.request('PATCH', `/v1/admin/keys/${keyId}`, { allowedOrigins }); }
  listKeys(orgId) { return this.request('GET', `/v1/admin/orgs/${orgId}/keys`); }
  revokeKey(keyId) { return this.request('DELETE', `/v1/admin/keys/${keyId}`); }
}
