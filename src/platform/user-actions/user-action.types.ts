/** What a user action records: who did what to which user, when, and from which address. */
export type UserActionKind =
  | 'login_succeeded'
  | 'login_failed'
  | 'login_refused_on_hold'
  | 'user_held'
  | 'user_released'
  | 'user_activated'
  | 'user_deactivated'
  | 'user_created'
  | 'password_changed'
  | 'password_change_failed'
  | 'session_ended'
  | 'sessions_ended'
  | 'logout'
  /** Staff asked to change a user's login: it changes only when the user confirms it (issue 43). */
  | 'login_change_requested'
  /** The old address took a changed login back with its restore code, and set a new password. */
  | 'login_restored'
  /** A wrong current password given to change one's login (a failed validation, as `password_change_failed`). */
  | 'contact_change_failed'
  /** A user proved, with a code, the login they already had (staff gave it, nobody had proved it). */
  | 'contact_verified'
  | 'user_registered'
  | 'password_recovered'
  | 'login_changed'
  /** Too many wrong one-time codes in a row for a login (`details.purpose`): its codes of that purpose stopped (issue 43). */
  | 'one_time_codes_locked'
  | 'bank_top_up_accepted'
  | 'bank_top_up_declined'
  | 'bank_withdrawal_accepted'
  | 'bank_withdrawal_declined'
  | 'bank_account_approved'
  | 'bank_account_rejected'
  | 'cash_desk_operation_confirmed'
  | 'cash_desk_operation_completed'
  | 'cash_desk_operation_declined'
  | 'cash_desk_operation_authorized'
  | 'cash_out_code_refused'
  | 'profile_changed'
  | 'identification_changed'
  | 'identification_reset_requested'
  | 'identification_reset_approved'
  | 'identification_reset_declined'
  | 'profile_document_approved'
  | 'profile_document_declined'
  | 'user_action_reversed'
  /** Staff created or changed a limit profile of a contract (src/operators/limit-profiles). */
  | 'limit_profile_created'
  | 'limit_profile_changed'
  /** Staff moved an organization to another contract (`details`: organizationId, contractId, previousContractId). */
  | 'contract_assigned'
  /** Staff created, changed or deleted a commission profile, rule or condition (`details.change` and the ids). */
  | 'commission_settings_changed'
  /** Gates (staff): a provider's settings changed (by name, never a value), a gate commission profile added, its fees set. */
  | 'gate_provider_settings_changed'
  | 'gate_commission_profile_created'
  | 'gate_commission_settings_set'
  /** An operation the ledger posted for a member of staff (recorded by the kernel itself, see LedgerService). */
  | 'money_moved';

export interface UserAction {
  /** The user the action is about (null for a failed login under an unknown login). */
  userId: string | null;
  /** Who did it, when not the user themself (null with `details.actor` naming a non-user actor, such as `cli`). */
  actorUserId?: string | null;
  action: UserActionKind;
  login?: string | null;
  address?: string | null;
  details?: Record<string, unknown>;
}
