// Expectations about the action log's rows, for the suites (jest's `expect`: not part of the built harness, unlike actors.ts).

/**
 * The details the action log's `login_changed` row holds when `owner` moved their own login to `to` with both codes
 * (the old address's and the new one's), ending `endedSessions` other sessions.
 */
export function loginChangedByOwner(owner: { id: string; login: string }, to: string, endedSessions: number) {
  return expect.objectContaining({
    from: owner.login,
    to,
    proof: 'owner_code',
    requestedBy: owner.id,
    confirmedBy: owner.id,
    endedSessions,
  });
}
