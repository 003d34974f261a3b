import type { UserRow } from '../../platform/users/users.service';

/**
 * A change of login as its `contact_change` code carries it (issue 43). The new address proves itself with that code;
 * `proof` says how the owner proved themself: their `password` when asking, an `owner_code` sent to their current
 * login (confirmed with it), `staff` who asked for them (the user confirms in their own session), or `self`: the
 * login is the one they have, proven now.
 */
export interface ChangeRequest {
  userId: string;
  /** The login when the change was asked: once it moved otherwise, the code is void. */
  from: string;
  proof: 'password' | 'owner_code' | 'staff' | 'self';
  /** Who asked: the user, or the member of staff. */
  requestedBy: string;
}

/** The payload of a `contact_change` code asked for `user` (by `requestedBy`: the user or a member of staff). */
export function changeRequest(
  user: Pick<UserRow, 'id' | 'login'>,
  proof: ChangeRequest['proof'],
  requestedBy: string,
): Record<string, unknown> {
  const request: ChangeRequest = { userId: user.id, from: user.login, proof, requestedBy };
  return { ...request };
}

/** Whether a code's payload is a change asked for `user` while their login is the one it was asked from. */
export function isRequestOf(
  payload: Record<string, unknown>,
  user: Pick<UserRow, 'id' | 'login'>,
): payload is Record<string, unknown> & ChangeRequest {
  return payload.userId === user.id && payload.from === user.login;
}
