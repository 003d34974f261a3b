// Rewrites the documentation's tables that are made from code: the error table of docs/errors.md
// (src/platform/common/errors.ts) and the role table of docs/roles-and-permissions.md
// (src/platform/access/permissions.ts). Run `npm run docs` after changing either; unit tests fail while
// the documentation and the code disagree.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { ERRORS } = require(join(root, 'dist/src/platform/common/errors.js'));
const { PERMISSIONS, GRANTS, ROLES } = require(join(root, 'dist/src/platform/access/permissions.js'));

const cell = (text) => String(text).replace(/\|/g, '\\|');
const errors = ['| code | status | message |', '|---|---|---|', ...Object.entries(ERRORS).map(([c, e]) => `| \`${c}\` | ${e.status} | ${cell(e.message)} |`)];
const roleOrder = ['administrator', 'cfo', 'accountant', 'cashier', 'compliance_manager', 'compliance_specialist', 'customer_support', 'antifraud_specialist', 'individual', 'merchant'].filter((r) => ROLES.includes(r));
const roles = [
  `| permission | what it allows | ${roleOrder.join(' | ')} |`,
  `|---|---|${roleOrder.map(() => '---|').join('')}`,
  ...Object.entries(PERMISSIONS).map(([p, what]) => `| \`${p}\` | ${cell(what)} | ${roleOrder.map((r) => (GRANTS[r].includes(p) ? '✓' : ' ')).join(' | ')} |`),
];

function replaceTable(file, header, rows) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  if (start < 0) throw new Error(`${file} has no table starting with "${header}"`);
  let end = start;
  while (end < lines.length && lines[end].startsWith('|')) end++;
  lines.splice(start, end - start, ...rows);
  writeFileSync(path, lines.join('\n'));
}

replaceTable('docs/errors.md', '| code | status | message |', errors);
replaceTable('docs/roles-and-permissions.md', '| permission | what it allows |', roles);
console.log('docs/errors.md and docs/roles-and-permissions.md: error and role tables rewritten from the code');
