import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminToken } from './helpers/actors';
import { expectError, expectStatus } from './helpers/money';
import { startExpectingFailure, startServer } from './helpers/server';
import { multipart, upload } from './helpers/upload';
import { moneyWorld } from './helpers/world';

const EXAMPLE = readFileSync(join(__dirname, '..', 'docs', 'bank-catalog-example.csv'), 'utf8');
const IMPORT = '/api/v1/bank-catalog/import';

describe('the bank catalog (issue 12): a paged view, one bank at a time, and a CSV import whole or not at all', () => {
  const world = moneyWorld();
  const count = async () => (await world.raw.db.query('SELECT count(*)::int AS n FROM bank_catalog')).rows[0].n as number;

  it('imports the example file of docs/money-in-out.md: four banks with the columns of release 4.10.0 and the documented extras', async () => {
    const imported = await upload(world.server, world.admin, IMPORT, EXAMPLE);
    expectStatus(imported, 200);
    expect(imported.body).toEqual({ status: 'ok', message: 'Imported 4 banks', lines: 4, created: 4, updated: 0 });
    const page = await world.server.request('GET', '/api/v1/bank-catalog?pageSize=2', { token: world.admin });
    expectStatus(page, 200);
    expect(page.body).toMatchObject({ pageNumber: 0, pageSize: 2, totalRecords: 4, totalPages: 2 });
    expect(page.body.records.map((b: { bankName: string }) => b.bankName)).toEqual(['Banque Exemple', 'Example Bank AG']);
    const lt = await world.server.request('GET', '/api/v1/bank-catalog?country=lt', { token: world.admin });
    expect(lt.body.records).toEqual([
      {
        id: expect.any(String),
        bankName: 'Lietuvos Pavyzdys, AB',
        bic: 'PAVYLT2X',
        swiftCode: 'PAVYLT2XXXX',
        address: 'Gedimino pr. 1',
        city: 'Vilnius',
        zipCode: '01103',
        country: 'LT',
        phoneNumber: null,
        website: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const search = await world.server.request('GET', '/api/v1/bank-catalog?search=exem', { token: world.admin });
    expect(search.body.records.map((b: { bic: string }) => b.bic)).toEqual(['EXEMFRPP']);
  });

  it('updates banks by BIC on a re-import, adding the new ones; any member reads the catalog', async () => {
    const csv = 'Bank name,BIC,Country,City\r\nExample Bank AG (renamed),EXAMDEFF,DE,Frankfurt\r\nNew Bank,NEWBLT21XXX,LT,Kaunas\r\n';
    const imported = await upload(world.server, world.admin, IMPORT, csv);
    expectStatus(imported, 200);
    expect(imported.body).toMatchObject({ lines: 2, created: 1, updated: 1 });
    const alice = await world.user();
    const page = await world.server.request('GET', '/api/v1/bank-catalog?search=EXAMDEFF', { token: alice.token });
    expectStatus(page, 200);
    expect(page.body.records).toEqual([
      expect.objectContaining({ bankName: 'Example Bank AG (renamed)', city: 'Frankfurt', swiftCode: null }),
    ]);
    expect(await count()).toBe(5);
  });

  it('keeps the texts customers see without Unicode format characters (bidi overrides, zero-width ones), imported or added (issue 43)', async () => {
    const csv =
      'Bank name,BIC,Country,City,Address\r\nBidi\u202Eknab\u202C Bank,BIDILT21,LT,Kau\u200Bnas,"\u2067Laisv\u0117s al. 1\u2069"\r\n';
    expectStatus(await upload(world.server, world.admin, IMPORT, csv), 200);
    const added = await world.server.request('POST', '/api/v1/bank-catalog', {
      token: world.admin,
      body: { bankName: '\uFEFFZero\u200DWidth Bank\u200E', bic: 'ZEROLT21', country: 'LT', zipCode: '\u202D01103' },
    });
    expectStatus(added, 201);
    expect(added.body.bank).toMatchObject({ bankName: 'ZeroWidth Bank', zipCode: '01103' });
    const { rows } = await world.raw.db.query(
      `SELECT bic, name, city, address, zip_code FROM bank_catalog WHERE bic IN ('BIDILT21', 'ZEROLT21') ORDER BY bic`,
    );
    expect(rows).toEqual([
      { bic: 'BIDILT21', name: 'Bidiknab Bank', city: 'Kaunas', address: 'Laisvės al. 1', zip_code: null },
      { bic: 'ZEROLT21', name: 'ZeroWidth Bank', city: null, address: null, zip_code: '01103' },
    ]);
    // Nothing but format characters is no name.
    expectError(
      await world.server.request('POST', '/api/v1/bank-catalog', {
        token: world.admin,
        body: { bankName: '\u202E\u200B', bic: 'NONELT21', country: 'LT' },
      }),
      400,
      'exception.validation',
      'bankName',
    );
  });

  it('refuses a file with a bad line as a whole: a 400 naming the line and the column, nothing imported', async () => {
    const before = await count();
    const csv = 'bankName,bic,country\nGood Bank,GOODDEFF,DE\nBad Country Bank,BADCDEFF,XX\nBad Bic Bank,NOT-A-BIC,DE\n';
    const refused = await upload(world.server, world.admin, IMPORT, csv);
    expectError(refused, 400, 'exception.bank_catalog.invalid_file', 'file');
    expect(refused.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'line 3, column country: must be an ISO 3166-1 alpha-2 country code',
      'line 4, column bic: must be a BIC of 8 or 11 letters and digits',
    ]);
    expect(refused.body.message).toContain('line 3, column country');
    expect(await count()).toBe(before);

    const cases: [string, string][] = [
      ['bankName,bic\nX,AAAADEFF\n', 'line 1, column country: the column is required'],
      ['bankName,bic,country,iban\n', 'line 1, column iban: unknown column'],
      ['bankName,bic,country\n', 'line 1: the file has no bank after its header'],
      ['', 'line 1: the file is empty: a header line is expected'],
      ['bankName,bic,country\nA,AAAADEFF,DE,extra\n', 'line 2: has 4 fields, the header 3'],
      ['bankName,bic,country\nA,AAAADEFF,DE\nB,aaaadeff,DE\n', 'line 3, column bic: AAAADEFF is already on line 2'],
      ['bankName,bic,country\n"A,AAAADEFF,DE\n', 'line 2: a quoted field is not closed'],
      [
        `bankName,bic,country\n${'x'.repeat(201)},AAAADEFF,DE\n`,
        'line 2, column bankName: bankName must be shorter than or equal to 200 characters',
      ],
    ];
    for (const [file, message] of cases) {
      const response = await upload(world.server, world.admin, IMPORT, file);
      expectError(response, 400, 'exception.bank_catalog.invalid_file');
      expect(response.body.errors[0].message).toContain(message);
    }
    const latin1 = await upload(world.server, world.admin, IMPORT, Buffer.from([0x62, 0x61, 0x6e, 0x6b, 0xe9, 0x0a]));
    expectError(latin1, 400, 'exception.bank_catalog.invalid_file', 'file');
    expect(await count()).toBe(before);
  });

  it('answers a file over 1 MB with 413, a JSON body with 415, no file with 400; other routes refuse multipart with 415', async () => {
    const big = `bankName,bic,country\n${'Big Bank,BIGBDEFF,DE\n'.repeat(60_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    expectError(await upload(world.server, world.admin, IMPORT, big), 413, 'exception.bank_catalog.file_too_large');
    const json = await world.server.request('POST', IMPORT, { token: world.admin, body: { file: 'bankName,bic,country' } });
    expectError(json, 415, 'exception.request.unsupported_media_type');
    expectError(await upload(world.server, world.admin, IMPORT, EXAMPLE, 'document'), 400, 'exception.validation', 'file');
    const { body, contentType } = multipart('file', 'x.csv', 'x');
    const elsewhere = await world.server.request('POST', '/api/v1/bank-catalog', {
      token: world.admin,
      rawBody: body,
      headers: { 'content-type': contentType },
    });
    expectError(elsewhere, 415, 'exception.request.unsupported_media_type');
    const broken = await world.server.request('POST', IMPORT, {
      token: world.admin,
      rawBody: '--x\r\nContent-Disposition: form-data; name="file"\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expectError(broken, 400, 'exception.validation', 'file');
    const alice = await world.user();
    expectError(await upload(world.server, alice.token, IMPORT, EXAMPLE), 403, 'exception.access.permission_missing');
  });

  it('adds one bank: BIC and country checked, a BIC the catalog has is a 409', async () => {
    const body = { bankName: 'Single Bank', bic: 'sngldeff', country: 'de', address: 'Platz 2' };
    const created = await world.server.request('POST', '/api/v1/bank-catalog', { token: world.admin, body });
    expectStatus(created, 201);
    expect(created.body.bank).toMatchObject({
      bankName: 'Single Bank',
      bic: 'SNGLDEFF',
      country: 'DE',
      address: 'Platz 2',
      swiftCode: null,
    });
    expectError(
      await world.server.request('POST', '/api/v1/bank-catalog', { token: world.admin, body }),
      409,
      'exception.bank_catalog.bic_taken',
    );
    for (const [field, value] of [
      ['bic', 'SNGL'],
      ['country', 'ZZ'],
      ['website', 'ftp://x'],
      ['phoneNumber', 'call me'],
    ] as const) {
      const refused = await world.server.request('POST', '/api/v1/bank-catalog', {
        token: world.admin,
        body: { ...body, bic: 'OTHRDEFF', [field]: value },
      });
      expectError(refused, 400, 'exception.validation', field);
    }
    expectError(
      await world.server.request('GET', '/api/v1/bank-catalog?country=XX', { token: world.admin }),
      400,
      'exception.validation',
      'country',
    );
    expectError(
      await world.server.request('GET', '/api/v1/bank-catalog?pageSize=5000', { token: world.admin }),
      400,
      'exception.validation',
      'pageSize',
    );
  });

  it('reads files up to BANK_CATALOG_IMPORT_MAX_BYTES when the operator sets it, and refuses to start on a bad value', async () => {
    const small = await startServer({ BANK_CATALOG_IMPORT_MAX_BYTES: '2048' });
    try {
      const admin = await adminToken(small);
      const letter = (n: number) => String.fromCharCode(65 + Math.floor(n));
      const lines = (n: number) =>
        `bankName,bic,country\n${Array.from({ length: n }, (_, i) => `Small Bank ${i},SM${letter(i / 26)}${letter(i % 26)}DEFF,DE\n`).join('')}`;
      expect(Buffer.byteLength(lines(100))).toBeGreaterThan(2048);
      const refused = await upload(small, admin, IMPORT, lines(100));
      expectError(refused, 413, 'exception.bank_catalog.file_too_large');
      expect(refused.body.message).toContain('larger than 2048 bytes');
      expect(Buffer.byteLength(lines(60))).toBeLessThan(2048);
      const imported = await upload(small, admin, IMPORT, lines(60));
      expectStatus(imported, 200);
      expect(imported.body).toMatchObject({ lines: 60, created: 60, updated: 0 });
    } finally {
      await small.stop();
    }
    for (const value of ['1000', '1MB', String(32 * 1024 * 1024)]) {
      const failed = await startExpectingFailure({ BANK_CATALOG_IMPORT_MAX_BYTES: value, DATABASE_URL: 'postgres://x@127.0.0.1:1/x' });
      expect(failed.code).not.toBe(0);
      expect(failed.output).toContain('Invalid configuration: BANK_CATALOG_IMPORT_MAX_BYTES must be');
    }
  });
});
