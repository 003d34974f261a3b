// The ledger kernel is the only writer of money: coins' balances and held amounts, ledger entries,
// holds and operations. This rule reads the SQL text of every string and template literal (and of
// `+` concatenations of them) in src/ outside the ledger folder, and reports any statement that
// writes those tables or columns. It is a lint rule so the mistake fails `npm test` before it lands;
// test/kernel-rules.spec.ts proves it fires on a deliberately wrong repository.

/** Tables only the kernel writes, in any way. */
const LEDGER_TABLES = ['ledger_entries', 'holds', 'operations'];
/** Columns of `coins` only the kernel writes (a coin is created, renamed and closed by its module). */
const COIN_MONEY_COLUMNS = ['balance', 'held'];

const table = (names) => `(?:ONLY\\s+)?(?:"?public"?\\.)?"?(${names.join('|')})"?\\b`;
/** UPDATE as a statement, not a row lock (`FOR UPDATE OF operations`, `FOR NO KEY UPDATE`). */
const UPDATE = '(?<!\\bFOR\\s+)(?<!\\bKEY\\s+)\\bUPDATE';
const FORBIDDEN = [
  {
    pattern: new RegExp(
      `(?:\\bINSERT\\s+INTO|${UPDATE}|\\bDELETE\\s+FROM|\\bMERGE\\s+INTO|\\bTRUNCATE(?:\\s+TABLE)?)\\s+${table(LEDGER_TABLES)}`,
      'i',
    ),
  },
  { pattern: new RegExp(`\\b(?:DELETE\\s+FROM|MERGE\\s+INTO|TRUNCATE(?:\\s+TABLE)?)\\s+${table(['coins'])}`, 'i') },
  // UPDATE coins … SET … balance = / held = (before WHERE, FROM or RETURNING).
  {
    pattern: new RegExp(
      `${UPDATE}\\s+${table(['coins'])}(?:\\s+(?:AS\\s+)?\\w+)?\\s+SET\\b((?:(?!\\bWHERE\\b|\\bFROM\\b|\\bRETURNING\\b)[\\s\\S])*)`,
      'i',
    ),
    columns: true,
  },
  // INSERT INTO coins (…, balance, …)
  { pattern: new RegExp(`\\bINSERT\\s+INTO\\s+${table(['coins'])}\\s*\\(([^)]*)\\)`, 'i'), columns: true },
];

/** The first money write in `sql`, as the table (and column) it touches, or undefined. */
export function moneyWrite(sql) {
  const text = sql.replace(/--[^\n]*/g, ' ');
  for (const { pattern, columns } of FORBIDDEN) {
    const match = pattern.exec(text);
    if (!match) continue;
    if (!columns) return match[1].toLowerCase();
    const column = COIN_MONEY_COLUMNS.find((c) => new RegExp(`(?:^|[\\s,(."])${c}"?\\s*(?:=|,|\\)|$)`, 'i').test(match[2]));
    if (column) return `coins.${column}`;
  }
  return undefined;
}

/** The static text of a literal, a template (its expressions as `$1`) or a `+` chain of them. */
function staticText(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('$1');
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    const left = staticText(node.left);
    const right = staticText(node.right);
    return left === undefined && right === undefined ? undefined : `${left ?? '$1'}${right ?? '$1'}`;
  }
  return undefined;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Money tables (coins.balance/held, ledger_entries, holds, operations) are written only by the ledger kernel' },
    messages: {
      moneyWrite: 'Only the ledger kernel writes {{what}}: move money with LedgerService.execute (src/**/ledger/), never SQL of your own.',
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      // A `+` chain is checked once, as a whole, from its outermost node.
      if (node.parent?.type === 'BinaryExpression' && node.parent.operator === '+') return;
      const text = staticText(node);
      const what = text && moneyWrite(text);
      if (what) context.report({ node, messageId: 'moneyWrite', data: { what } });
    };
    return { Literal: check, TemplateLiteral: check, BinaryExpression: check };
  },
};

export default { meta: { name: 'finapi' }, rules: { 'money-tables': rule } };
