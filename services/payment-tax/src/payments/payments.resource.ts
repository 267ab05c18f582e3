import { defineResource, f } from '@csp/service-kit';

export const PAYMENT_STATUSES = ['PENDING', 'SENT', 'SUCCESS', 'FAIL'] as const;
export type PaymentStatusValue = (typeof PAYMENT_STATUSES)[number];

/** Payments (spec 2.6): read-only list, detail and export; every change is a workflow (payments.routes.ts). */
export const paymentResource = defineResource({
  name: 'Payment',
  path: '/api/payments',
  table: 'payment',
  alias: 'p',
  menu: 'PAYMENT',
  tags: ['Payments'],
  baseQuery: (db) =>
    db
      .selectFrom('payment as p')
      .leftJoin('agent as a', 'a.agent_id', 'p.agent_id')
      .leftJoin('settle_master as s', 's.settle_id', 'p.settle_id'),
  fields: {
    paymentId: f.id().label('Payment'),
    settleId: f.ref().filter().label('Settlement'),
    agentId: f.ref().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    bankCode: f.text().filter().label('Bank'),
    accountNo: f.text().encrypted().masked('accountNo').label('Account'),
    // The parts of gross of the paid settlement (DECISIONS "Settlement lifecycle"): they add up to amount.
    recruitTotal: f.joined('s.recruit_total', 'money').label('Recruit'),
    maintainTotal: f.joined('s.maintain_total', 'money').label('Maintain'),
    overrideTotal: f.joined('s.override_total', 'money').label('Override'),
    otherTotal: f.joined('s.other_total', 'money').label('Other commission'),
    correctionTotal: f.joined('s.correction_total', 'money').label('Corrections'),
    exceptionPlus: f.joined('s.exception_plus', 'money').label('Exception +'),
    exceptionMinus: f.joined('s.exception_minus', 'money').label('Exception -'),
    chargebackTotal: f.joined('s.chargeback_total', 'money').label('Chargeback'),
    amount: f.money().sort().label('Amount'),
    incomeTaxAmount: f.money().label('Income tax'),
    localTaxAmount: f.money().label('Local tax'),
    vatAmount: f.money().label('VAT'),
    deductionAmount: f.money().label('Deductions'),
    netAmount: f.money().sort().label('Net'),
    status: f.enum(PAYMENT_STATUSES).label('Status'),
    statusName: f.codeName('PAYMENT_STATUS', 'status').label('Status name'),
    transferDate: f.date().filter('range').sort().label('Transfer date'),
    payFileRef: f.ref().filter().label('Transfer file'),
    resultCode: f.text().label('Result code'),
    resultMsg: f.text().label('Result message'),
    taxCalculatedAt: f.timestamp().label('Taxes calculated at'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  statusField: 'status',
  dateFilter: 'createdAt',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
});
