import { randomBytes } from 'node:crypto';
import { GRANTS, permissionsBeyond, Role, STAFF_ROLES } from '../src/platform/access/permissions';
import { Actor, login } from './helpers/actors';
import { loginChangedByOwner } from './helpers/action-details';
import { codeLogFile, codeSent, messagesSent, noticeSent } from './helpers/code-log';
import { balanceOf, expectError, expectStatus, transfer } from './helpers/money';
import { moneyWorld } from './helpers/world';

/**
 * Issue 43, items 1 and 4: who may change a login. A login is the whole account — whoever receives its recovery
 * codes sets its password and moves its money — so it changes only when the new address proves itself with a code
 * AND the owner proves themself in their own session (their password, a code sent to their current login, or the
 * request of a member of staff who checked who they are); the old address is told and may undo it; a password
 * recovery goes only to a login that was proven.
 *
 * Every message is read where the default sender writes it (ONE_TIME_CODE_LOG); that nothing was sent is read from
 * the code's own row (`delivered`: a stand-in is stored, and sent to no one).
 */
describe('issue 43: a login changes only when its owner and the new address prove themselves', () => {
  const codes = codeLogFile();
  const world = moneyWorld({
    // Every request comes from the one test address: its own limits on codes are not what this suite tests.
    env: {
      ONE_TIME_CODE_LOG: codes,
      ONE_TIME_CODE_RESEND_SECONDS: '0',
      ONE_TIME_CODES_PER_HOUR: '1000',
      ONE_TIME_CODES_PER_ADDRESS_PER_HOUR: '1000000',
      ONE_TIME_CODE_FAILURES_PER_ADDRESS_PER_HOUR: '1000000',
    },
  });
  const req = (method: string, path: string, token?: string, body?: unknown) =>
    world.server.request(method, `/api/v1${path}`, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const address = (tag: string, domain = 'example.com') => `${tag}-${randomBytes(4).toString('hex')}@${domain}`;
  const userRow = async (id: string) =>
    (
      await world.raw.db.query<{ login: string; email: string | null; email_verified: boolean; status: string; failed_attempts: number }>(
        'SELECT login, email, email_verified, status, failed_attempts FROM users WHERE id = $1',
        [id],
      )
    ).rows[0];
  /** Whether the newest code of `purpose` for `target` went to anyone (undefined: none was even stored). */
  const delivered = async (purpose: string, target: string): Promise<boolean | undefined> =>
    (
      await world.raw.db.query<{ delivered: boolean }>(
        'SELECT delivered FROM one_time_codes WHERE purpose = $1 AND target = $2 ORDER BY created_at DESC LIMIT 1',
        [purpose, target],
      )
    ).rows[0]?.delivered;
  const actionsOf = async (userId: string, action: string) =>
    (
      await world.raw.db.query<{ actor_user_id: string | null; address: string | null; details: Record<string, unknown> }>(
        'SELECT actor_user_id, address, details FROM user_actions WHERE user_id = $1 AND action = $2 ORDER BY seq',
        [userId, action],
      )
    ).rows;
  const logIn = (loginName: string, password: string) => req('POST', '/authorization', undefined, { login: loginName, password });
  const stillIn = async (token: string) => (await req('GET', '/profiles/my', token)).status;

  describe('item 1: staff change a login', () => {
    it('the attack of the issue fails end to end: customer support cannot hand a customer’s account and money to an address it controls', async () => {
      const support = await world.user({ role: 'customer_support' });
      const victim = await world.user({ login: address('victim') });
      const coin = await world.coin(victim, '250.00');
      const accomplice = await world.user();
      const loot = await world.coin(accomplice);
      const evil = address('evil', 'attacker.example');

      // Support sets the victim's login to the attacker's address…
      expectStatus(await req('PATCH', `/profiles/${victim.id}/contact`, support.token, { login: evil }), 200);
      // …and the attacker, without a token, asks for a recovery code for it.
      expectStatus(await req('POST', '/password/recovery', undefined, { login: evil }), 200);
      const attackerPassword = `attacker-${randomBytes(4).toString('hex')}`;
      if (await delivered('password_recovery', evil)) {
        const otp = await codeSent(codes, evil, 'password_recovery');
        await req('POST', '/password/recovery/confirm', undefined, { login: evil, otp, newUserPassword: attackerPassword });
      } else {
        // The only code the attacker's address got proves the address, not the owner: it sets no password…
        const otp = await codeSent(codes, evil, 'contact_change');
        expectError(
          await req('POST', '/password/recovery/confirm', undefined, { login: evil, otp, newUserPassword: attackerPassword }),
          400,
          'exception.confirmation_code.not_found',
        );
        // …and support cannot confirm the change in their own session.
        expectError(
          await req('POST', '/profiles/my/contact/confirm', support.token, { login: evil, otp }),
          400,
          'exception.confirmation_code.not_found',
        );
      }
      const attacker = await logIn(evil, attackerPassword);
      if (attacker.status === 200) {
        const emptied = await transfer(world.server, attacker.body.authorizationToken.token, coin.serial, loot.serial, '250.00');
        expect(emptied.status).not.toBe(201);
      }
      expectError(attacker, 401, 'exception.authorization.invalid_credentials');

      // The owner keeps their login, their session and their money, and was told at their own address.
      expect((await userRow(victim.id)).login).toBe(victim.login);
      expect(await stillIn(victim.token)).toBe(200);
      expectStatus(await logIn(victim.login, victim.password), 200);
      expect(await balanceOf(world.server, victim.token, coin.serial)).toBe('250.00');
      const notice = await noticeSent(codes, victim.login, 'login_change_requested');
      expect(notice.details).toMatchObject({ newLogin: evil });
      expect(notice.code).toBeUndefined();
      expect(await actionsOf(victim.id, 'login_change_requested')).toEqual([
        expect.objectContaining({ actor_user_id: support.id, details: expect.objectContaining({ from: victim.login, to: evil }) }),
      ]);
      expect(await actionsOf(victim.id, 'login_changed')).toEqual([]);
    });

    it('every staff role against every kind of account: no login moves to an address the member of staff controls, unproven or untold', async () => {
      const staff = {} as Record<Role, Actor>;
      for (const role of STAFF_ROLES) staff[role] = await world.user({ role });
      const kinds: Role[] = ['individual', 'merchant', ...STAFF_ROLES];
      const outcomes: string[] = [];
      for (const role of STAFF_ROLES) {
        for (const kind of kinds) {
          const target = await world.user({ role: kind, login: address(kind) });
          const wanted = address('takeover', 'attacker.example');
          // Asking is what PROFILE_MANAGER allows, for accounts with no power beyond the member of staff's.
          const mayAsk = GRANTS[role].includes('PROFILE_MANAGER') && permissionsBeyond(new Set(GRANTS[role]), [kind]).length === 0;
          const answer = await req('PATCH', `/profiles/${target.id}/contact`, staff[role].token, { login: wanted });
          const where = `${role} → ${kind}`;
          outcomes.push(`${where}: ${answer.status}`);
          expect([where, answer.status]).toEqual([where, mayAsk ? 200 : 403]);

          // Whatever the answer: the login has not moved, the old one logs in, the owner's session stands…
          expect([where, (await userRow(target.id)).login]).toEqual([where, target.login]);
          expect([where, await stillIn(target.token)]).toEqual([where, 200]);
          // …and a recovery for the wanted address sends nothing.
          expectStatus(await req('POST', '/password/recovery', undefined, { login: wanted }), 200);
          expect([where, await delivered('password_recovery', wanted)]).toEqual([where, false]);
          if (!mayAsk) {
            expect([where, await delivered('contact_change', wanted)]).toEqual([where, undefined]);
            continue;
          }
          // The wanted address must prove itself; the member of staff holding its code cannot confirm it; the owner is told.
          const otp = await codeSent(codes, wanted, 'contact_change');
          expectError(
            await req('POST', '/profiles/my/contact/confirm', staff[role].token, { login: wanted, otp }),
            400,
            'exception.confirmation_code.not_found',
          );
          const notice = await noticeSent(codes, target.login, 'login_change_requested');
          expect([where, notice.details]).toEqual([where, expect.objectContaining({ newLogin: wanted })]);
          expect([where, (await userRow(target.id)).login]).toEqual([where, target.login]);
          expectStatus(await logIn(target.login, target.password), 200);
        }
      }
      // The cases are asked and stay asked: support on customers, merchants, support and antifraud staff.
      expect(outcomes).toEqual(
        expect.arrayContaining([
          'customer_support → individual: 200',
          'customer_support → merchant: 200',
          'customer_support → customer_support: 200',
          'customer_support → antifraud_specialist: 200',
          'administrator → administrator: 200',
        ]),
      );
    });

    it('a member of staff cannot ask for their own login (that is the self change, with its proofs): 403', async () => {
      for (const role of ['administrator', 'customer_support'] as const) {
        const self = await world.user({ role, login: address(role) });
        expectError(
          await req('PATCH', `/profiles/${self.id}/contact`, self.token, { login: address('self', 'attacker.example') }),
          403,
          'exception.profile.edit_forbidden',
        );
        expect((await userRow(self.id)).login).toBe(self.login);
      }
    });

    it('the login staff asked for becomes the user’s once the user confirms its code in their own session; other sessions end, the old address may undo it', async () => {
      const support = await world.user({ role: 'customer_support' });
      const user = await world.user({ login: address('lost-mailbox') });
      // The user had proven their login (so its address may take it back later).
      expectStatus(await req('POST', '/profiles/my/contact', user.token, { login: user.login }), 200);
      const proof = await codeSent(codes, user.login, 'contact_change');
      expectStatus(await req('POST', '/profiles/my/contact/confirm', user.token, { login: user.login, otp: proof }), 200);
      const otherSession = await login(world.server, user.login, user.password);
      const wanted = address('new-mailbox');
      expectStatus(await req('PATCH', `/profiles/${user.id}/contact`, support.token, { login: wanted }), 200);
      // The family's login form asks first, then confirms: asking for the login staff asked for sends no other code.
      const asked = await req('POST', '/profiles/my/contact', user.token, { login: wanted });
      expectStatus(asked, 200);
      expect(asked.body.action).toBe('OTP_SENT');
      const otp = await codeSent(codes, wanted, 'contact_change');
      const confirmed = await req('POST', '/profiles/my/contact/confirm', user.token, { login: wanted, otp });
      expectStatus(confirmed, 200);
      expect(confirmed.body.profile.contact).toMatchObject({ email: wanted, emailVerified: true });
      expect(messagesSent(codes).filter((m) => m.to === wanted && m.purpose === 'contact_change')).toHaveLength(1);
      expect(messagesSent(codes).filter((m) => m.to === user.login && m.purpose === 'contact_change_owner')).toEqual([]);
      expect((await userRow(user.id)).login).toBe(wanted);
      expect(await stillIn(user.token)).toBe(200);
      expect(await stillIn(otherSession)).toBe(401);
      expect(await actionsOf(user.id, 'login_changed')).toEqual([
        {
          actor_user_id: null,
          address: expect.any(String),
          details: expect.objectContaining({
            from: user.login,
            to: wanted,
            proof: 'staff',
            requestedBy: support.id,
            confirmedBy: user.id,
            endedSessions: 1,
          }),
        },
      ]);
      // The old address is told, with a code to take the login back.
      const told = await noticeSent(codes, user.login, 'login_changed');
      expect(told.details).toMatchObject({ newLogin: wanted });
      await codeSent(codes, user.login, 'contact_restore');
    });
  });

  describe('item 4: the user changes their own login', () => {
    it('a token alone does not become the account: the code sent to the new address is not enough', async () => {
      const owner = await world.user({ login: address('owner') });
      const coin = await world.coin(owner, '80.00');
      const stolen = owner.token;
      const thief = address('thief', 'attacker.example');
      expectStatus(await req('POST', '/profiles/my/contact', stolen, { login: thief }), 200);
      const otp = await codeSent(codes, thief, 'contact_change');
      const confirmed = await req('POST', '/profiles/my/contact/confirm', stolen, { login: thief, otp });
      expectError(confirmed, 400, 'exception.validation', 'otp');
      expect((await userRow(owner.id)).login).toBe(owner.login);
      // The owner's current login got the code the change also needs: the thief has not got it.
      await codeSent(codes, owner.login, 'contact_change_owner');
      // Nor does recovery reach the thief's address.
      expectStatus(await req('POST', '/password/recovery', undefined, { login: thief }), 200);
      expect(await delivered('password_recovery', thief)).toBe(false);
      expect(await balanceOf(world.server, owner.token, coin.serial)).toBe('80.00');
    });

    it('with the code sent to the current login and then the one sent to the new: the login moves, other sessions end, the old address is told and may undo it', async () => {
      const owner = await world.user({ login: address('mover') });
      const otherSession = await login(world.server, owner.login, owner.password);
      const next = address('moved');
      const asked = await req('POST', '/profiles/my/contact', owner.token, { login: next });
      expectStatus(asked, 200);
      const ownerCode = await codeSent(codes, owner.login, 'contact_change_owner');
      const newCode = await codeSent(codes, next, 'contact_change');
      // Either code alone, or the two the other way round, is refused.
      expectError(await req('POST', '/profiles/my/contact/confirm', owner.token, { login: next, otp: newCode + ownerCode }), 400);
      const confirmed = await req('POST', '/profiles/my/contact/confirm', owner.token, { login: next, otp: ownerCode + newCode });
      expectStatus(confirmed, 200);
      expect(confirmed.body.profile.contact).toMatchObject({ email: next, emailVerified: true });
      expect((await userRow(owner.id)).login).toBe(next);
      // This session stays; every other one ended.
      expect(await stillIn(owner.token)).toBe(200);
      expect(await stillIn(otherSession)).toBe(401);
      expect(await actionsOf(owner.id, 'login_changed')).toEqual([
        {
          actor_user_id: null,
          address: expect.any(String),
          details: loginChangedByOwner(owner, next, 1),
        },
      ]);

      // The old address is told, with a code that takes the login back and sets a new password.
      const told = await noticeSent(codes, owner.login, 'login_changed');
      expect(told.details).toMatchObject({ newLogin: next });
      const restore = await codeSent(codes, owner.login, 'contact_restore');
      const password = `back-${randomBytes(4).toString('hex')}`;
      expectError(
        await req('POST', '/profiles/my/contact/restore', undefined, { login: next, otp: restore, newUserPassword: password }),
        400,
      );
      const restored = await req('POST', '/profiles/my/contact/restore', undefined, {
        login: owner.login,
        otp: restore,
        newUserPassword: password,
      });
      expectStatus(restored, 200);
      expect(await userRow(owner.id)).toMatchObject({ login: owner.login, email: owner.login, email_verified: true });
      expect(await stillIn(owner.token)).toBe(401);
      expectError(await logIn(next, owner.password), 401);
      expectError(await logIn(owner.login, owner.password), 401);
      expectStatus(await logIn(owner.login, password), 200);
      expect(await actionsOf(owner.id, 'login_restored')).toEqual([
        expect.objectContaining({ actor_user_id: null, details: expect.objectContaining({ from: next, to: owner.login }) }),
      ]);
      // A restore code is used once.
      expectError(
        await req('POST', '/profiles/my/contact/restore', undefined, {
          login: owner.login,
          otp: restore,
          newUserPassword: `${password}-2`,
        }),
        400,
        'exception.confirmation_code.not_found',
      );
    });

    it('a restore whose old login another user took meanwhile is a 409, and its code stays usable', async () => {
      const owner = await world.user({ login: address('left') });
      const next = address('arrived');
      expectStatus(await req('POST', '/profiles/my/contact', owner.token, { login: next, password: owner.password }), 200);
      expectStatus(
        await req('POST', '/profiles/my/contact/confirm', owner.token, { login: next, otp: await codeSent(codes, next, 'contact_change') }),
        200,
      );
      // The old login was unproven and the password proved the owner: it is told, and gets no code to take the login back.
      await noticeSent(codes, owner.login, 'login_changed');
      expect(await delivered('contact_restore', owner.login)).toBeUndefined();

      const mover = await world.user({ login: address('proven') });
      const proof = (await req('POST', '/profiles/my/contact', mover.token, { login: mover.login })).status;
      expect(proof).toBe(200);
      expectStatus(
        await req('POST', '/profiles/my/contact/confirm', mover.token, {
          login: mover.login,
          otp: await codeSent(codes, mover.login, 'contact_change'),
        }),
        200,
      );
      const moved = address('moved-on');
      expectStatus(await req('POST', '/profiles/my/contact', mover.token, { login: moved, password: mover.password }), 200);
      expectStatus(
        await req('POST', '/profiles/my/contact/confirm', mover.token, {
          login: moved,
          otp: await codeSent(codes, moved, 'contact_change'),
        }),
        200,
      );
      const restore = await codeSent(codes, mover.login, 'contact_restore');
      // Someone else gets the old login meanwhile.
      await world.user({ login: mover.login });
      const body = { login: mover.login, otp: restore, newUserPassword: `back-${randomBytes(4).toString('hex')}` };
      expectError(await req('POST', '/profiles/my/contact/restore', undefined, body), 409, 'exception.user.login_taken');
      expectError(await req('POST', '/profiles/my/contact/restore', undefined, body), 409, 'exception.user.login_taken');
      expect((await userRow(mover.id)).login).toBe(moved);
    });

    it('with the current password instead: a wrong one is a 400 counted toward the hold; the right one needs only the new address’s code', async () => {
      // A login staff gave (no e-mail address nor phone number) can get no code: the password is the owner's proof.
      const owner = await world.user();
      const next = address('with-password');
      expectError(await req('POST', '/profiles/my/contact', owner.token, { login: next }), 400, 'exception.validation', 'password');
      for (const guess of ['wrong-guess-1', 'wrong-guess-2']) {
        expectError(
          await req('POST', '/profiles/my/contact', owner.token, { login: next, password: guess }),
          400,
          'exception.validation',
          'password',
        );
      }
      expect(await userRow(owner.id)).toMatchObject({ status: 'active', failed_attempts: 2 });
      expect(await actionsOf(owner.id, 'contact_change_failed')).toHaveLength(2);
      expect(await delivered('contact_change', next)).toBeUndefined();
      expectStatus(await req('POST', '/profiles/my/contact', owner.token, { login: next, password: owner.password }), 200);
      expect((await userRow(owner.id)).failed_attempts).toBe(0);
      const otp = await codeSent(codes, next, 'contact_change');
      expectStatus(await req('POST', '/profiles/my/contact/confirm', owner.token, { login: next, otp }), 200);
      expect((await userRow(owner.id)).login).toBe(next);
      expect(await actionsOf(owner.id, 'login_changed')).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ proof: 'password', confirmedBy: owner.id }) }),
      ]);

      // The third wrong password in a row holds the user, as at a password change.
      const guessed = await world.user({ login: address('guessed') });
      for (const guess of ['wrong-1', 'wrong-2', 'wrong-3']) {
        expectError(
          await req('POST', '/profiles/my/contact', guessed.token, { login: address('x'), password: guess }),
          400,
          'exception.validation',
          'password',
        );
      }
      expect(await userRow(guessed.id)).toMatchObject({ status: 'on_hold', failed_attempts: 3 });
      expect(await stillIn(guessed.token)).toBe(401);
    });
  });

  describe('recovery goes only to a proven login', () => {
    it('a login staff gave and nobody proved gets no recovery code; proven by its own code, it does', async () => {
      const user = await world.user({ login: address('unproven') });
      expectStatus(await req('POST', '/password/recovery', undefined, { login: user.login }), 200);
      expect(await delivered('password_recovery', user.login)).toBe(false);
      // The user proves their own login from their profile: a code to it, and only that.
      expectStatus(await req('POST', '/profiles/my/contact', user.token, { login: user.login }), 200);
      const otp = await codeSent(codes, user.login, 'contact_change');
      const proven = await req('POST', '/profiles/my/contact/confirm', user.token, { login: user.login, otp });
      expectStatus(proven, 200);
      expect(proven.body.profile.contact).toMatchObject({ email: user.login, emailVerified: true });
      expect(await stillIn(user.token)).toBe(200);
      expectStatus(await req('POST', '/password/recovery', undefined, { login: user.login }), 200);
      expect(await delivered('password_recovery', user.login)).toBe(true);
      await codeSent(codes, user.login, 'password_recovery');
    });
  });
});
