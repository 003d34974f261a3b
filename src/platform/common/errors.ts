/**
 * The one catalogue of error codes: each `code` a client can receive, its HTTP status and its
 * English message. Every ApiError takes its status from here; the i18n export
 * (`GET /api/v1/i18n/export/{locale}.json`) and the error table of docs/errors.md are made from it. A
 * specific answer may carry a more precise message (naming the coin, the field); the catalogue's
 * message is what a client shows when it translates by code.
 */
export const ERRORS = {
  // The request itself
  'exception.validation': { status: 400, message: 'The request is invalid' },
  'exception.validation.value': { status: 400, message: 'A value is out of range or malformed' },
  'exception.request': { status: 400, message: 'The request is invalid' },
  'exception.request.malformed_json': { status: 400, message: 'The request body is not valid JSON' },
  'exception.request.too_large': { status: 413, message: 'The request body is too large (at most 1 MB)' },
  'exception.request.unsupported_media_type': { status: 415, message: 'The request body must be application/json' },
  'exception.not_found': { status: 404, message: 'Not found' },
  'exception.method_not_allowed': { status: 405, message: 'Method not allowed' },
  'exception.not_acceptable': { status: 406, message: 'Not acceptable' },
  'exception.rate_limited': { status: 429, message: 'Too many requests; retry later' },
  'exception.unprocessable': { status: 422, message: 'The request cannot be processed' },
  'exception.conflict': { status: 409, message: 'The resource is in a state that forbids this' },
  'exception.conflict.duplicate': { status: 409, message: 'A resource with the same unique value already exists' },
  'exception.conflict.reference': { status: 409, message: 'The resource is referenced by or refers to another resource' },
  'exception.conflict.concurrent_update': { status: 409, message: 'The resource was changed concurrently; retry the request' },
  'exception.unavailable': { status: 503, message: 'The service is temporarily unavailable; retry shortly' },
  'exception.internal': { status: 500, message: 'An internal error occurred' },

  // Authentication and access
  'exception.authorization.unauthorized': { status: 401, message: 'Authentication required' },
  'exception.authorization.token_missing': { status: 401, message: 'Send Authorization: Bearer <token>' },
  'exception.authorization.token_malformed': { status: 401, message: 'Authorization must be "Bearer <token>" or "TOKEN <token>"' },
  'exception.authorization.token_invalid': { status: 401, message: 'The token is unknown, expired or revoked' },
  'exception.authorization.invalid_credentials': { status: 401, message: 'Wrong login or password' },
  'exception.authorization.temporary_password_expired': {
    status: 401,
    message: 'The temporary password has expired or was already used; ask an administrator to release you again',
  },
  'exception.authorization.user_on_hold': { status: 403, message: 'The user is On Hold; an administrator must release them' },
  'exception.authorization.user_deactivated': { status: 403, message: 'The user is deactivated; an administrator must activate them' },
  'exception.authorization.no_membership': { status: 403, message: 'The user belongs to no organization' },
  'exception.authorization.password_change_required': {
    status: 403,
    message: 'Change the temporary password first (POST /api/v1/authorization/password)',
  },
  'exception.authorization.password_changed_concurrently': { status: 409, message: 'The password was changed meanwhile; log in again' },
  'exception.confirmation_code.not_found': {
    status: 400,
    message: 'The code is wrong, used or expired; ask for a new one',
  },
  'exception.two_factor.code_required': {
    status: 400,
    message: 'Turning two-step login off takes the code just sent to your login (otp)',
  },
  'exception.two_factor.unreachable': {
    status: 400,
    message: 'Two-step login needs a login a code can reach: an e-mail address or a phone number',
  },
  'exception.registration.disabled': { status: 403, message: 'Signing up yourself is not open for this role; ask the operator' },
  'exception.password.reused': { status: 400, message: 'The new password is one of your last 5 passwords; choose another' },
  'exception.access.forbidden': { status: 403, message: 'You are not permitted to do this' },
  'exception.access.permission_missing': { status: 403, message: 'Your role lacks a permission this requires' },
  'exception.access.undeclared': { status: 403, message: 'This route declares no access rule' },

  // Users and organizations
  'exception.user.not_found': { status: 404, message: 'No such user' },
  'exception.user.login_taken': { status: 409, message: 'A user with this login already exists' },
  'exception.user.not_on_hold': { status: 409, message: 'The user is not On Hold and has no spent temporary password to replace' },
  'exception.user.release_forbidden': { status: 403, message: 'You may not release a user holding permissions you lack' },
  'exception.user.sessions_forbidden': { status: 403, message: 'You may not end the sessions of a user holding permissions you lack' },
  'exception.user.status_forbidden': { status: 403, message: 'You may not activate or deactivate a user holding permissions you lack' },
  'exception.user.self_deactivation': { status: 409, message: 'You may not activate or deactivate yourself' },
  'exception.session.not_found': { status: 404, message: 'No such session' },
  'exception.organization.not_found': { status: 404, message: 'No such organization' },

  // Currencies and issuers
  'exception.currency.not_found': { status: 404, message: 'No such currency' },
  'exception.currency.code_taken': { status: 409, message: 'A currency with this code already exists' },
  'exception.currency.digital_code_taken': { status: 409, message: 'This digital code is already used' },
  'exception.currency.fraction_locked': { status: 409, message: 'The fraction cannot change once coins hold this currency' },
  'exception.issuer.not_found': { status: 404, message: 'No such issuer' },
  'exception.issuer.inactive': { status: 409, message: 'The issuer or its currency is inactive' },
  'exception.issuer.sn_taken': { status: 409, message: 'Another issuer has this serial number' },

  // Coins and payment tools
  'exception.coin.not_found': { status: 404, message: 'No such coin' },
  'exception.data_export.not_found': { status: 404, message: 'No such export' },
  'exception.coin.closed': { status: 409, message: 'The coin is closed' },
  'exception.coin.inactive': { status: 409, message: 'The coin is closed or inactive' },
  'exception.coin.insufficient_funds': { status: 409, message: 'The coin has insufficient available funds' },
  'exception.coin.balance_limit': { status: 409, message: 'The balance would exceed the largest amount a coin holds' },
  'exception.coin.not_empty': { status: 409, message: 'The coin is not empty: give transferToCoinSerial to receive its balance' },
  'exception.coin.pending_requests': { status: 409, message: 'The coin has amounts held by pending requests' },
  'exception.payment_tool.not_found': { status: 404, message: 'No coin stands behind this payment tool' },

  // Operations
  'exception.transaction.not_found': { status: 404, message: 'No such transaction' },
  'exception.transaction.not_processed': { status: 409, message: 'Only a processed operation can be reversed' },
  'exception.transaction.already_reversed': { status: 409, message: 'The operation is already reversed' },
  'exception.transaction.not_reversible': {
    status: 409,
    message: 'The operation closed an object that cannot be opened again (a voucher redeemed, blocked or expired): it cannot be reversed',
  },
  'exception.transaction.is_reversal': { status: 409, message: 'A reversal cannot be reversed' },

  // Transaction categories and transfer templates
  'exception.transaction_category.not_found': { status: 404, message: 'No such transaction category' },
  'exception.transaction_category.name_taken': { status: 409, message: 'You already have a transaction category with this name' },
  'exception.transaction_category.not_tagged': { status: 404, message: 'The operation is not tagged with this category' },
  'exception.transfer_template.not_found': { status: 404, message: 'No such transfer template' },
  'exception.transfer_template.name_taken': { status: 409, message: 'You already have a transfer template with this name' },
  'exception.subscription.not_found': { status: 404, message: 'No such subscription' },
  'exception.subscription.finished': { status: 409, message: 'The subscription has ended (processed or cancelled); create a new one' },

  // Contracts and commissions
  'exception.contract.not_found': { status: 404, message: 'No such contract' },
  'exception.contract.inactive': { status: 409, message: 'The contract is inactive: it cannot be assigned' },
  'exception.contract.in_use': { status: 409, message: 'The contract is not global and already belongs to another organization' },
  'exception.contract.default_locked': { status: 409, message: 'A default contract stays active' },
  'exception.commission.profile_not_found': { status: 404, message: 'No such commission profile' },
  'exception.commission.profile_exists': {
    status: 409,
    message: 'The contract already has a commission profile for this flow and issuer',
  },
  'exception.commission.rule_not_found': { status: 404, message: 'No such commission rule' },
  'exception.commission.condition_not_found': { status: 404, message: 'No such commission condition' },
  'exception.commission.rule_overlap': { status: 409, message: 'Another active rule of the profile covers part of these dates' },
  'exception.commission.condition_overlap': { status: 409, message: 'Another condition of the rule covers part of this amount range' },
  'exception.commission.exceeds_amount': { status: 409, message: 'The commission is larger than the amount it is paid from' },
  'exception.limit.exceeded': { status: 409, message: 'A limit of the contract refuses the operation' },
  'exception.limit_profile.not_found': { status: 404, message: 'No such limit profile' },
  'exception.limit_profile.exists': {
    status: 409,
    message: 'The profile already has a limit with this qualifier and time unit (and transaction type)',
  },

  // Exchange rates and exchanges
  'exception.exchange_rate.duplicate': { status: 409, message: 'A rate of this currency pair already takes effect at this validFrom' },
  'exception.exchange.rate_missing': { status: 409, message: 'No exchange rate of this ordered currency pair is in force' },
  'exception.exchange.reserve_insufficient': {
    status: 409,
    message: 'The exchange reserve of the bought currency cannot cover this exchange',
  },

  // Prepaid vouchers
  'exception.voucher.not_found': { status: 404, message: 'No such voucher' },
  'exception.voucher.redeemed': { status: 409, message: 'The voucher was already redeemed' },
  'exception.voucher.blocked': { status: 409, message: 'The voucher is blocked' },
  'exception.voucher.expired': { status: 409, message: 'The voucher has expired' },

  // Smart cards
  'exception.smart_card.not_found': { status: 404, message: 'No such smart card' },
  'exception.smart_card.blocked': { status: 409, message: 'The smart card is blocked' },
  // Bank top-ups, bank withdrawals, bank accounts and the bank catalog
  'exception.bank_top_up.not_found': { status: 404, message: 'No such bank top-up request' },
  'exception.bank_top_up.decided': { status: 409, message: 'The bank top-up request is already decided' },
  'exception.bank_withdrawal.not_found': { status: 404, message: 'No such bank withdrawal' },
  'exception.bank_withdrawal.decided': { status: 409, message: 'The bank withdrawal is already decided' },
  'exception.bank_account.not_found': { status: 404, message: 'No such bank account' },
  'exception.bank_account.iban_taken': { status: 409, message: 'The organization already has a bank account with this IBAN' },
  'exception.bank_account.not_approved': { status: 409, message: 'Withdrawals go only to an approved bank account' },
  'exception.bank_account.decided': { status: 409, message: 'The bank account already has this status' },
  'exception.bank_catalog.not_found': { status: 404, message: 'No such bank in the catalog' },
  'exception.bank_catalog.bic_taken': { status: 409, message: 'The catalog already has a bank with this BIC' },
  'exception.bank_catalog.invalid_file': {
    status: 400,
    message: 'The file is not a bank catalog CSV: nothing was imported (errors[] name the line and the column)',
  },
  'exception.bank_catalog.file_too_large': {
    status: 413,
    message: 'The bank catalog file is too large (at most BANK_CATALOG_IMPORT_MAX_BYTES, 1 MB by default): nothing was imported',
  },

  // Cash desks
  'exception.cash_desk.not_found': { status: 404, message: 'No such cash desk' },
  'exception.cash_desk.not_member': { status: 403, message: 'Only a cashier of the cash desk may do this' },
  'exception.cash_desk.no_cash_coin': { status: 409, message: 'The cash desk has no cash coin of this issuer' },
  'exception.cash_desk.coin_exists': { status: 409, message: 'The cash desk already has a cash coin of this issuer' },
  'exception.cash_desk_operation.not_found': { status: 404, message: 'No such cash desk operation' },
  'exception.cash_desk_operation.decided': { status: 409, message: 'The cash desk operation is already completed or declined' },
  'exception.cash_desk_operation.consent_required': {
    status: 403,
    message:
      "A cash-out settles only with the customer's consent: the customer confirms it, or its desk completes it after presenting the customer's cash-out code",
  },
  'exception.cash_desk_operation.not_cash_out': { status: 409, message: 'Only a cash-out takes a cash-out code' },
  'exception.cash_desk_operation.authorized': { status: 409, message: 'The cash-out already has its cash-out code' },
  'exception.cash_out_code.invalid': {
    status: 403,
    message: 'The cash-out code is wrong, expired, used or burnt, or was made for another coin or amount',
  },

  // Idempotency
  'exception.idempotency.in_flight': { status: 409, message: 'A request with this Idempotency-Key is still running' },
  'exception.idempotency.key_reused': { status: 422, message: 'This Idempotency-Key was used with a different request' },

  // Webhooks and statements (issue 17)
  'exception.webhook.not_found': { status: 404, message: 'No such webhook' },
  'exception.webhook.delivery_not_found': { status: 404, message: 'No such webhook delivery' },
  'exception.webhook.url_refused': {
    status: 422,
    message:
      'The webhook URL is refused: it must be https and resolve only to public addresses (no private, loopback, link-local or other special-purpose one)',
  },
  'exception.webhook.event_forbidden': { status: 403, message: "Only the operator's staff may subscribe to this event" },
  'exception.webhook.limit_reached': {
    status: 409,
    message: 'The organization has as many webhooks as it may (WEBHOOKS_PER_ORGANIZATION); remove one first',
  },
  // People (issue 16)
  'exception.profile.not_found': { status: 404, message: 'No such profile' },
  // Media files and profile documents
  'exception.media_file.not_found': { status: 404, message: 'No such media file, or not one the caller may see' },
  'exception.media_file.too_large': { status: 413, message: 'The file is too large (at most MEDIA_FILE_MAX_BYTES, 5 MB by default)' },
  'exception.media_file.unsupported_type': { status: 415, message: 'The file is not a JPEG, PNG or PDF' },
  'exception.profile_document.not_found': { status: 404, message: 'No such profile document' },
  'exception.profile_document.decided': { status: 409, message: 'The profile document is already decided' },
  'exception.profile.edit_forbidden': { status: 403, message: 'You may not edit the profile of a user holding permissions you lack' },
  'exception.identification.unchanged': { status: 409, message: 'The identification already has this status' },
  'exception.reset_identification_request.not_found': { status: 404, message: 'No such identification reset request' },
  'exception.reset_identification_request.not_approved': {
    status: 409,
    message: 'Only an approved identification can be reset',
  },
  'exception.reset_identification_request.pending': { status: 409, message: 'The user already has a pending identification reset request' },
  'exception.reset_identification_request.decided': { status: 409, message: 'The identification reset request is already decided' },
  'exception.contact.not_found': { status: 404, message: 'No such contact' },
  'exception.contact.duplicate': { status: 409, message: 'A contact with this phone number or e-mail is already in your contact book' },
  'exception.contact.no_coin': { status: 404, message: 'The contact is no registered user with an open main coin of this currency' },
  'exception.user_action.not_found': { status: 404, message: 'No such user action' },
  'exception.user_action.not_reversible': { status: 409, message: 'This action moved no money that can be reversed' },
  // Payment gates (issue 14)
  'exception.gate_provider.not_found': { status: 404, message: 'No such gate provider' },
  'exception.gate_provider.name_taken': { status: 409, message: 'A gate provider with this name exists' },
  'exception.gate_product.not_found': { status: 404, message: 'No such gate product on sale' },
  'exception.gate_product.name_taken': { status: 409, message: 'The provider already has a product with this name' },
  'exception.gate_transaction.not_found': { status: 404, message: 'No such gate transaction' },
  'exception.gate_transaction.finished': { status: 409, message: 'The gate transaction is already finished' },
  'exception.gate_transaction.submitted': {
    status: 409,
    message: 'The gate transaction does not wait for its payer’s fields: it was submitted already, or is not a TOPUP or a REDEEM',
  },
  'exception.gate.signature_invalid': { status: 401, message: 'The callback is not signed with the provider’s secret' },
  'exception.gate_commission_profile.not_found': { status: 404, message: 'No such gate commission profile' },
  // Commerce (issue 15)
  'exception.invoice.not_found': { status: 404, message: 'No such invoice' },
  'exception.invoice.expired': { status: 409, message: 'The invoice expired and cannot be paid' },
  'exception.invoice.not_payable': { status: 409, message: 'The invoice is paid or withdrawn' },
  'exception.invoice_template.not_found': { status: 404, message: 'No such invoice template' },
  'exception.invoice_template.name_taken': { status: 409, message: 'You already have an invoice template with this name' },
  'exception.merchant_product.not_found': { status: 404, message: 'No such merchant product' },
  'exception.merchant_product_price.not_found': { status: 404, message: 'No such price' },
  'exception.merchant_product_price.exists': { status: 409, message: 'The product already has a price in this currency' },
  'exception.merchant.not_found': { status: 404, message: 'No such merchant, or it takes no payments in this currency' },
  'exception.merchant_payment.not_found': { status: 404, message: 'No such merchant payment' },
  'exception.point_of_sale.not_found': { status: 404, message: 'No such point of sale' },
  'exception.gate_commission_profile.exists': {
    status: 409,
    message: 'The contract already has a gate commission profile for this provider and currency',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERRORS, code);
}
