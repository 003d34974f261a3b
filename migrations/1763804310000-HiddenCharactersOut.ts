import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A PostgreSQL bracket expression of every code point `pattern` matches (`[\u00ad\u0600-\u0605…]`), read from Node's
 * own Unicode tables, so the rows keep what the service keeps from now on (src/platform/common/text.ts). NUL and
 * the surrogates, which no PostgreSQL text holds, are left out.
 */
function bracketOf(pattern: RegExp): string {
  const ranges: [number, number][] = [];
  for (let cp = 1; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (!pattern.test(String.fromCodePoint(cp))) continue;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  const escape = (cp: number) => (cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`);
  return `[${ranges.map(([from, to]) => (from === to ? escape(from) : `${escape(from)}-${escape(to)}`)).join('')}]`;
}

/**
 * Issue 43, item 11: an uploaded file's name kept U+202E (a right-to-left override), which flips how a reviewer reads
 * it (`scan\u202Egpj.exe.jpg`), and the bank catalog's texts kept any format character. New ones are cleaned as they
 * arrive; this cleans those already kept: file names lose their controls, format characters and quotes (an empty name
 * becomes `file`, as an upload's would), the bank catalog's name, address, city and zip code their format characters.
 * Nothing to undo: the characters removed are not kept anywhere.
 */
export class HiddenCharactersOut1763804310000 implements MigrationInterface {
  name = 'HiddenCharactersOut1763804310000';

  async up(q: QueryRunner): Promise<void> {
    const hidden = bracketOf(/[\p{Cc}\p{Cf}"]/u);
    const format = bracketOf(/\p{Cf}/u);
    await q.query(`UPDATE media_files SET name = coalesce(nullif(btrim(regexp_replace(name, $1, '', 'g')), ''), 'file') WHERE name ~ $1`, [
      hidden,
    ]);
    for (const column of ['name', 'address', 'city', 'zip_code']) {
      // A text of format characters only stays as it was (a name may not be empty).
      await q.query(
        `UPDATE bank_catalog SET ${column} = coalesce(nullif(regexp_replace(${column}, $1, '', 'g'), ''), ${column}) WHERE ${column} ~ $1`,
        [format],
      );
    }
  }

  async down(): Promise<void> {
    // The characters removed are not kept: nothing to put back.
  }
}
