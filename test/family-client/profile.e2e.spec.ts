import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login } from '../helpers/actors';
import { expectError, expectStatus } from '../helpers/money';
import { multipart } from '../helpers/upload';
import { moneyWorld } from '../helpers/world';

/**
 * The family web client's own profile (its `store` start-up, `profile-settings`, `user-dashboard` profile pages and the
 * customer side of `user-profile`): each call with the body its call site sends, and the answer fields its screens read.
 */
describe('family client: profile', () => {
  const world = moneyWorld();
  const req = (method: string, path: string, token: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

  // The information page's form after the client drops empty values and copies namePlain into nameIntl; its date
  // picker sends local midnight of the picked day as a date-time (here a browser two hours east of UTC).
  const personForm = {
    person: {
      namePlain: { first: 'Ada', last: 'Byron' },
      nameIntl: { first: 'Ada', last: 'Byron' },
      email: 'ada@example.com',
      phoneNumber: '+447700900123',
      dateOfBirth: '1990-03-31T22:00:00.000Z',
    },
  };
  const securityForm = {
    security: {
      twoFactorsAuthEnabled: false,
      transactionNotification: { email: true, phone: false },
      authorizationNotification: { phone: false, email: false },
    },
  };

  it('GET /profiles/my — the store’s start-up; reads profile.person (names, phoneNumber, email, dateOfBirth), address, business, security, memberShips', async () => {
    const alice = await world.user();
    const my = await req('GET', '/profiles/my', alice.token);
    expectStatus(my, 200);
    const { profile } = my.body;
    expect(profile).toMatchObject({ type: 'individual', status: 'none', address: {}, business: {} });
    expect(profile.person).toMatchObject({
      namePlain: { first: 'Test', last: 'individual' },
      nameIntl: { first: 'Test' },
      dateOfBirth: null,
    });
    expect(profile.security).toEqual({
      twoFactorsAuthEnabled: false,
      transactionNotification: { phone: false, email: false },
      authorizationNotification: { phone: false, email: false },
    });
    expect(my.body.memberShips[0]).toEqual({ organizationId: alice.organizationId, roleName: 'individual' });

    // A merchant's business page reads the company.
    const shop = await world.user({ role: 'merchant' });
    const merchant = await req('GET', '/profiles/my', shop.token);
    expect(merchant.body.profile).toMatchObject({ type: 'merchant', business: { companyName: expect.any(String) } });
  });

  it('PATCH /profiles/my/person — the information page’s body; answers the profile the store keeps', async () => {
    const alice = await world.user();
    const edited = await req('PATCH', '/profiles/my/person', alice.token, personForm);
    expectStatus(edited, 200);
    expect(edited.body.profile.person).toEqual({
      namePlain: { first: 'Ada', last: 'Byron' },
      nameIntl: { first: 'Ada', last: 'Byron' },
      email: 'ada@example.com',
      phoneNumber: '+447700900123',
      dateOfBirth: '1990-04-01',
    });
    const my = await req('GET', '/profiles/my', alice.token);
    expect(my.body.profile.person).toEqual(edited.body.profile.person);
    // The person's e-mail is not the login's contact: that changes only with a code.
    expect(my.body.profile.contact.email).toBeUndefined();
    // A plain date is taken as is; null clears.
    const plain = await req('PATCH', '/profiles/my/person', alice.token, { person: { dateOfBirth: '1985-12-24', email: null } });
    expect(plain.body.profile.person).toMatchObject({ namePlain: { first: 'Ada' }, dateOfBirth: '1985-12-24' });
    expect(plain.body.profile.person.email).toBeUndefined();
  });

  it('PATCH /profiles/my/person — bad names, e-mail, phone or date are a 400 that changes nothing', async () => {
    const alice = await world.user();
    const bad = async (person: Record<string, unknown>, parameter: string) =>
      expectError(await req('PATCH', '/profiles/my/person', alice.token, { person }), 400, 'exception.validation', parameter);
    await bad({ namePlain: { first: '', last: 'Byron' } }, 'person.namePlain.first');
    await bad({ email: 'not-an-email' }, 'person.email');
    await bad({ phoneNumber: 'call me' }, 'person.phoneNumber');
    await bad({ dateOfBirth: '2999-01-01' }, 'person.dateOfBirth');
    await bad({ dateOfBirth: '1850-01-01' }, 'person.dateOfBirth');
    await bad({ dateOfBirth: '31.03.1990' }, 'person.dateOfBirth');
    expectError(
      await req('PATCH', '/profiles/my/person', alice.token, { namePlain: { first: 'A', last: 'B' } }),
      400,
      'exception.validation',
    );
    const my = await req('GET', '/profiles/my', alice.token);
    expect(my.body.profile.person).toMatchObject({ namePlain: { first: 'Test' }, dateOfBirth: null });
  });

  it('PATCH /profiles/my/security-settings — the security page’s body; answers profile.security', async () => {
    const alice = await world.user();
    const saved = await req('PATCH', '/profiles/my/security-settings', alice.token, securityForm);
    expectStatus(saved, 200);
    expect(saved.body.profile.security).toEqual({
      twoFactorsAuthEnabled: false,
      transactionNotification: { phone: false, email: true },
      authorizationNotification: { phone: false, email: false },
    });
    expect((await req('GET', '/profiles/my', alice.token)).body.profile.security).toEqual(saved.body.profile.security);
    // Two-step login sends codes to the login (issue 46): a login no code reaches (neither an address nor a phone
    // number) is refused it rather than locked out. test/messages.e2e.spec.ts turns it on and off for a reachable one.
    expectError(
      await req('PATCH', '/profiles/my/security-settings', alice.token, {
        security: { ...securityForm.security, twoFactorsAuthEnabled: true },
      }),
      400,
      'exception.two_factor.unreachable',
      'security.twoFactorsAuthEnabled',
    );
    expectError(await req('PATCH', '/profiles/my/security-settings', alice.token, { security: {} }), 400, 'exception.validation');
  });

  it('PATCH /profiles/my/password — the password page’s body; the session goes on, the new password logs in', async () => {
    const alice = await world.user();
    const other = await login(world.server, alice.login, alice.password);
    const newPassword = 'Correct-Horse-Battery-7';
    const changed = await req('PATCH', '/profiles/my/password', alice.token, {
      currentUserPassword: alice.password,
      newUserPassword: newPassword,
    });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({ status: 'ok' });
    // The page's token still works; the user's other session ended.
    expectStatus(await req('GET', '/profiles/my', alice.token), 200);
    expectError(await req('GET', '/profiles/my', other), 401);
    expect(await login(world.server, alice.login, newPassword)).toEqual(expect.any(String));
    // A wrong current password, an unfit or reused new one: 400s naming the client's fields.
    expectError(
      await req('PATCH', '/profiles/my/password', alice.token, {
        currentUserPassword: 'wrong-password',
        newUserPassword: 'Another-Good-One-8',
      }),
      400,
      'exception.validation',
      'currentUserPassword',
    );
    expectError(
      await req('PATCH', '/profiles/my/password', alice.token, { currentUserPassword: newPassword, newUserPassword: 'short' }),
      400,
      'exception.validation',
      'newUserPassword',
    );
    expectError(
      await req('PATCH', '/profiles/my/password', alice.token, { currentUserPassword: newPassword, newUserPassword: alice.password }),
      400,
      'exception.password.reused',
      'newUserPassword',
    );
    expectError(
      await req('PATCH', '/profiles/my/password', alice.token, {
        currentUserPassword: newPassword,
        newUserPassword: 'Another-Good-One-8',
        confirmPassword: 'Another-Good-One-9',
      }),
      400,
      'exception.validation',
      'confirmPassword',
    );
  });

  it('GET /profiles/{id} — the user-profile pages; reads profile.type, status, role[0].code, person, contact, address, business, security', async () => {
    const alice = await world.user();
    const bob = await world.user();
    await req('PATCH', '/profiles/my/person', alice.token, personForm);
    const own = await req('GET', `/profiles/${alice.id}`, alice.token);
    expectStatus(own, 200);
    expect(own.body.profile).toMatchObject({
      type: 'individual',
      status: 'none',
      role: [{ code: 'individual' }],
      person: { namePlain: { first: 'Ada', last: 'Byron' }, email: 'ada@example.com', dateOfBirth: '1990-04-01' },
      contact: { emailVerified: false },
      address: {},
      business: {},
      security: { twoFactorsAuthEnabled: false },
    });
    // Only what the caller may see: another customer's profile is a 404.
    expectError(await req('GET', `/profiles/${alice.id}`, bob.token), 404, 'exception.profile.not_found');
  });

  /** A PNG as far as its content tells: the signature, then `size - 8` bytes. */
  const png = (size = 2048) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);
  // The documents page's upload component posts the picked file as the form field `file`.
  const uploadFile = (token: string, content: Buffer, filename = 'passport.png', type = 'image/png', field = 'file') => {
    const { body, contentType } = multipart(field, filename, content, type);
    return world.server.request('POST', '/api/v1/media-files', { token, rawBody: body, headers: { 'content-type': contentType } });
  };
  const bytesOf = async (path: string, token: string) => {
    const response = await fetch(`${world.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return Buffer.from(await response.arrayBuffer());
  };

  it('POST /media-files — the documents page’s upload; reads file.id', async () => {
    const alice = await world.user();
    const content = png(2 * 1024 * 1024); // over the 1 MB of other bodies: files have their own limit, 5 MB
    const uploaded = await uploadFile(alice.token, content, '../scans/my passport.png');
    expectStatus(uploaded, 201);
    expect(uploaded.body.file).toMatchObject({
      id: expect.any(String),
      ownerId: alice.id,
      mediaType: 'image/png',
      name: 'my passport.png',
      size: content.length,
      sha1: createHash('sha1').update(content).digest('hex'),
      used: false,
    });
    expect(uploaded.body.file.url).toBe(`/api/v1/media-files/${uploaded.body.file.id}/my%20passport.png`);
  });

  it('POST /media-files — a name keeps no Unicode format character (bidi overrides and isolates, zero-width ones) nor control (issue 43)', async () => {
    const alice = await world.user();
    // U+202E (right-to-left override) shows what follows it reversed: "scan\u202Egpj.exe" reads as "scanexe.jpg".
    const cases: [string, string][] = [
      ['scan\u202Egpj.exe.jpg', 'scangpj.exe.jpg'],
      ['\u2066in\u2067voice\u2068\u2069\u202A\u202B\u202C\u202D.png', 'invoice.png'],
      ['pass\u200Bport\u200E\u200F\u061C\uFEFF\u00AD.png', 'passport.png'],
      ['id\u0085card\u009B.png', 'idcard.png'],
      ['\u202E\u200B', 'file'],
      // At most 200 characters, never half of one: an emoji across the cut stays whole or goes whole.
      [`${'a'.repeat(199)}\u{1F600}\u{1F600}.png`, `${'a'.repeat(199)}\u{1F600}`],
    ];
    for (const [filename, name] of cases) {
      const uploaded = await uploadFile(alice.token, png(), filename);
      expectStatus(uploaded, 201);
      expect({ filename, name: uploaded.body.file.name }).toEqual({ filename, name });
      expect(uploaded.body.file.url).toBe(`/api/v1/media-files/${uploaded.body.file.id}/${encodeURIComponent(name)}`);
      const [{ stored }] = (await world.server.db.query(`SELECT name AS stored FROM media_files WHERE id = $1`, [uploaded.body.file.id]))
        .rows;
      expect(stored).toBe(name);
    }
    // Letters of any script stay.
    const kept = await uploadFile(alice.token, png(), 'паспорт 護照 جواز.png');
    expect(kept.body.file.name).toBe('паспорт 護照 جواز.png');
  });

  it('POST /media-files — too big (413), not an image or PDF whatever it claims (415), not multipart (415), empty or the wrong field (400)', async () => {
    const alice = await world.user();
    expectError(await uploadFile(alice.token, png(5 * 1024 * 1024 + 1)), 413, 'exception.media_file.too_large');
    expectError(
      await uploadFile(alice.token, Buffer.from('<script>alert(1)</script>'), 'x.png'),
      415,
      'exception.media_file.unsupported_type',
    );
    expectError(
      await uploadFile(alice.token, Buffer.from('MZ\x90\x00 an executable'), 'x.jpg', 'image/jpeg'),
      415,
      'exception.media_file.unsupported_type',
    );
    expectError(await req('POST', '/media-files', alice.token, { file: 'iVBORw0KGgo=' }), 415, 'exception.request.unsupported_media_type');
    expectError(await uploadFile(alice.token, Buffer.alloc(0)), 400, 'exception.validation', 'file');
    expectError(await uploadFile(alice.token, png(), 'x.png', 'image/png', 'photo'), 400, 'exception.validation', 'file');
    const [{ n }] = (await world.server.db.query(`SELECT count(*)::int AS n FROM media_files WHERE owner_id = $1`, [alice.id])).rows;
    expect(n).toBe(0);
  });

  it('GET /media-files/{id}/{name} — the owner and staff with PROFILE_VIEWER get the bytes; anyone else a 404', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const compliance = await world.user({ role: 'compliance_specialist' });
    const content = png();
    const { file } = (await uploadFile(alice.token, content)).body;
    const own = await world.server.request('GET', `/api/v1/media-files/${file.id}/passport.png`, { token: alice.token });
    expectStatus(own, 200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await bytesOf(`/api/v1/media-files/${file.id}/passport.png`, alice.token)).toEqual(content);
    expect(await bytesOf(`/api/v1/media-files/${file.id}/any-name`, compliance.token)).toEqual(content);
    expectError(await req('GET', `/media-files/${file.id}/passport.png`, bob.token), 404, 'exception.media_file.not_found');
    expectError(
      await req('GET', `/media-files/00000000-0000-4000-8000-00000000dead/x.png`, alice.token),
      404,
      'exception.media_file.not_found',
    );
    expectError(await world.server.request('GET', `/api/v1/media-files/${file.id}/passport.png`), 401);
  });

  it('GET /media-files/{id}/{token} — the documents page shows a scan by a link with the token in the path and no header', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const content = png();
    const { file } = (await uploadFile(alice.token, content)).body;
    // An <img src> sends no Authorization header: the link's last segment is the token.
    const shown = await fetch(`${world.server.url}/api/v1/media-files/${file.id}/${alice.token}`);
    expect(shown.status).toBe(200);
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(content);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    // Another user's token is that user: not their file, a 404; a token nobody holds is a 401.
    expect((await fetch(`${world.server.url}/api/v1/media-files/${file.id}/${bob.token}`)).status).toBe(404);
    expect((await fetch(`${world.server.url}/api/v1/media-files/${file.id}/${'x'.repeat(40)}`)).status).toBe(401);
    // Only this route takes a token from the path.
    expect((await fetch(`${world.server.url}/api/v1/profiles/my?token=${alice.token}`)).status).toBe(401);
    // The request log writes the link's last segment redacted, never the token.
    expect(await world.raw.waitForLog(`/api/v1/media-files/${file.id}/[redacted]`)).toBeDefined();
    expect(world.raw.logs.filter((line) => line.includes(alice.token))).toEqual([]);
  });

  it('POST /profile-documents — the documents page links the uploaded file; GET /profile-documents reads documents[].type, file.id, status', async () => {
    const alice = await world.user();
    const { file } = (await uploadFile(alice.token, png())).body;
    const linked = await req('POST', '/profile-documents', alice.token, { fileId: file.id, type: 'passport' });
    expectStatus(linked, 200);
    expect(linked.body.documents).toEqual([
      expect.objectContaining({
        type: 'passport',
        label: 'Passport',
        status: 'PENDING',
        file: { id: file.id, name: 'passport.png', ownerId: alice.id, size: file.size, url: file.url },
      }),
    ]);
    const listed = await req('GET', '/profile-documents', alice.token);
    expectStatus(listed, 200);
    expect(listed.body.documents).toEqual(linked.body.documents);
    // Another upload of the same type replaces it.
    const second = (await uploadFile(alice.token, png(), 'passport-2.png')).body.file;
    const replaced = await req('POST', '/profile-documents', alice.token, { fileId: second.id, type: 'passport' });
    expect(replaced.body.documents.map((d: { file: { id: string } }) => d.file.id)).toEqual([second.id]);
  });

  it('POST /profile-documents — someone else’s file is a 404, an unknown type a 400, and nothing is linked', async () => {
    const alice = await world.user();
    const bob = await world.user();
    const { file } = (await uploadFile(bob.token, png())).body;
    expectError(
      await req('POST', '/profile-documents', alice.token, { fileId: file.id, type: 'passport' }),
      404,
      'exception.media_file.not_found',
    );
    const mine = (await uploadFile(alice.token, png())).body.file;
    expectError(
      await req('POST', '/profile-documents', alice.token, { fileId: mine.id, type: 'diploma' }),
      400,
      'exception.validation',
      'type',
    );
    expectError(
      await req('POST', '/profile-documents', alice.token, { fileId: 'x', type: 'passport' }),
      400,
      'exception.validation',
      'fileId',
    );
    expect((await req('GET', '/profile-documents', alice.token)).body.documents).toEqual([]);
  });

  it('POST /profile-documents/identifier — the documents page’s tax id typed by hand; GET reads documentIdentifier of a tax_id without a file', async () => {
    const alice = await world.user();
    const saved = await req('POST', '/profile-documents/identifier', alice.token, { documentIdentifier: 'DE 123/456-78', type: 'tax_id' });
    expectStatus(saved, 200);
    expect(saved.body.documents).toEqual([
      expect.objectContaining({ type: 'tax_id', status: 'PENDING', documentIdentifier: 'DE 123/456-78' }),
    ]);
    expect(saved.body.documents[0].file).toBeUndefined();
    expect((await req('GET', '/profile-documents', alice.token)).body.documents).toEqual(saved.body.documents);
    expectError(
      await req('POST', '/profile-documents/identifier', alice.token, { documentIdentifier: 'AB123', type: 'passport' }),
      400,
      'exception.validation',
      'type',
    );
    expectError(
      await req('POST', '/profile-documents/identifier', alice.token, { documentIdentifier: '', type: 'tax_id' }),
      400,
      'exception.validation',
    );
  });

  describe('with MEDIA_FILES_DIR, MEDIA_FILE_MAX_BYTES and LOGIN_FAILURES_PER_MINUTE set', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'finapi-media-')), 'files');
    const dirWorld = moneyWorld({ env: { MEDIA_FILES_DIR: dir, MEDIA_FILE_MAX_BYTES: '4096', LOGIN_FAILURES_PER_MINUTE: '1' } });
    afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

    it('POST /media-files keeps the bytes in the directory, not in PostgreSQL, and serves them back; the configured limit holds', async () => {
      const alice = await dirWorld.user();
      const content = png(4096);
      const { body, contentType } = multipart('file', 'passport.png', content, 'image/png');
      const send = (raw: Buffer, type = contentType) =>
        dirWorld.server.request('POST', '/api/v1/media-files', { token: alice.token, rawBody: raw, headers: { 'content-type': type } });
      const uploaded = await send(body);
      expectStatus(uploaded, 201);
      const { id } = uploaded.body.file;
      expect(readFileSync(join(dir, id))).toEqual(content);
      const [row] = (await dirWorld.server.db.query(`SELECT content FROM media_files WHERE id = $1`, [id])).rows;
      expect(row.content).toBeNull();
      const response = await fetch(`${dirWorld.server.url}/api/v1/media-files/${id}/passport.png`, {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect(Buffer.from(await response.arrayBuffer())).toEqual(content);
      const big = multipart('file', 'passport.png', png(4097), 'image/png');
      expectError(await send(big.body, big.contentType), 413, 'exception.media_file.too_large');
    });

    it('PATCH /profiles/my/password — guessing the current password meets the per-address limit of failures (429)', async () => {
      const alice = await dirWorld.user();
      const guess = () =>
        dirWorld.server.request('PATCH', '/api/v1/profiles/my/password', {
          token: alice.token,
          body: { currentUserPassword: 'a-guess', newUserPassword: 'Another-Good-One-8' },
        });
      // One failure a minute from this address: the next guess is refused unread (a second one if a minute began between).
      let answer = await guess();
      expectError(answer, 400, 'exception.validation', 'currentUserPassword');
      answer = await guess();
      if (answer.status === 400) answer = await guess();
      expectError(answer, 429, 'exception.rate_limited');
    });
  });
});
