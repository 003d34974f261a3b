import { FAMILY_INVOICE_STATUS, FAMILY_INVOICE_STATUSES, INVOICE_FILTER_STATUSES, INVOICE_STATUSES, statusesOf } from './invoice-statuses';

describe('invoice statuses in two vocabularies (issue 45)', () => {
  it('names each of the service’s statuses once in the family’s words, awaiting payment being pending', () => {
    expect(new Set(FAMILY_INVOICE_STATUSES).size).toBe(INVOICE_STATUSES.length);
    expect(FAMILY_INVOICE_STATUS.initiated).toBe('pending');
    expect(FAMILY_INVOICE_STATUS.pending).toBe('approved');
  });

  it('filters by a family name or the service’s older initiated, each meaning the status it answers', () => {
    expect([...INVOICE_FILTER_STATUSES].sort()).toEqual(['approved', 'declined', 'expired', 'initiated', 'paid', 'pending']);
    for (const status of INVOICE_STATUSES) expect(statusesOf([FAMILY_INVOICE_STATUS[status]])).toEqual([status]);
    expect(statusesOf(['initiated'])).toEqual(['initiated']);
    // The individual's invoices tab: pending is the payable invoice, once however it is named.
    expect(statusesOf(['declined', 'pending', 'expired', 'paid', 'initiated']).sort()).toEqual([
      'declined',
      'expired',
      'initiated',
      'paid',
    ]);
  });
});
