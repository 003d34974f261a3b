export { CODE_PURPOSES, NOTICE_TEMPLATES } from '../messages/message.types';
export type { CodeDelivery, CodePurpose, CodeSender, Delivery, NoticeDelivery, NoticeTemplate } from '../messages/message.types';

/** The key of the codes' HMAC. */
export const CODE_KEY = Symbol('CODE_KEY');
