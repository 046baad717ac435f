#!/usr/bin/env node
// `npm run admin -- <command>`: the operator API from the command line.
// Base URL from --url or DOCS_EDGE_URL (default http://127.0.0.1:8787); ROOT_TOKEN from the environment
// or .dev.vars.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/env.mjs';
import { parseDevVars } from './lib/dev-vars.mjs';
import { OperatorClient } from './lib/operator.mjs';

const USAGE = `usage: npm run admin -- <command> [--url URL]
  create-org <name> <free|pro|enterprise>
  get-org <orgId>
  set-plan <orgId> <free|pro|enterprise>
  add-domain <orgId> <domain>
  remove-domain <orgId> <domain>
  create-key <orgId> <assistant|admin> [name] [--origins https://docs.example.com,https://*.example.com]
  set-origins <keyId> [origin ...]      (the sites an assistant key may be used from; none: any)
  list-keys <orgId>
  revoke-key <keyId>`;

function option(args, name) {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
}

async function main(argv) {
  const args = [...argv];
  const origins = option(args, '--origins')?.split(',').map((o) => o.trim()).filter(Boolean);
  const baseUrl = option(args, '--url') ?? process.env.DOCS_EDGE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const devVarsPath = join(root, '.dev.vars');
  const token = process.env.ROOT_TOKEN ?? (existsSync(devVarsPath) ? parseDevVars(readFileSync(devVarsPath, 'utf8')).ROOT_TOKEN : undefined);
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return 0;
  }
  if (!token) {
    console.error('ROOT_TOKEN is not set and .dev.vars has none (run npm start once, or export ROOT_TOKEN)');
    return 2;
  }
  const client = new OperatorClient(baseUrl, token);
  const commands = {
    'create-org': ([name, plan]) => client.createOrg(name, plan),
    'get-org': ([orgId]) => client.getOrg(orgId),
    'set-plan': ([orgId, plan]) => client.setPlan(orgId, plan),
    'add-domain': ([orgId, domain]) => client.addDomain(orgId, domain),
    'remove-domain': ([orgId, domain]) => client.removeDomain(orgId, domain),
    'create-key': ([orgId, kind, name]) => client.createKey(orgId, kind, name, origins),
    'set-origins': ([keyId, ...list]) => client.setKeyOrigins(keyId, list),
    'list-keys': ([orgId]) => client.listKeys(orgId),
    'revoke-key': ([keyId]) => client.revokeKey(keyId),
  };
  const run = commands[command];
  if (!run) {
    console.error(`unknown command ${command}\n${USAGE}`);
    return 2;
  }
  const result = await run(rest);
  console.log(result === null ? 'done' : JSON.stringify(result, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
