import { TAX_INVOICE_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const MENU_TAX_INVOICE = 'TAX_INVOICE';

/** Tax invoices of TAXABLE agents (TAX_INVOICE): list/detail/export; issuing and cancelling are workflow routes. */
export const taxInvoiceResource = defineResource({
  name: 'TaxInvoice',
  path: '/api/tax-invoices',
  table: 'tax_invoice',
  alias: 'ti',
  menu: MENU_TAX_INVOICE,
  tags: ['Tax invoices'],
  create: false,
  update: false,
  delete: false,
  baseQuery: (db) => db.selectFrom('tax_invoice as ti').leftJoin('agent as a', 'a.agent_id', 'ti.agent_id'),
  fields: {
    invoiceId: f.id().label('Invoice ID'),
    invoiceNo: f.text().nullable(false).search().sort().label('Invoice no'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    businessNo: f.joined('a.business_no', 'text').label('Business no'),
    settleMonth: f.month().nullable(false).filter('range').sort().label('Settle month'),
    paymentId: f.ref().label('Payment ID'),
    supplyAmount: f.money().nullable(false).label('Supply amount'),
    vatAmount: f.money().nullable(false).label('VAT'),
    totalAmount: f.money().nullable(false).label('Total'),
    issueDate: f.date().nullable(false).sort().label('Issue date'),
    status: f.enum(TAX_INVOICE_STATUSES).nullable(false).filter().label('Status'),
    cancelReason: f.text().label('Cancel reason').export({ width: 30 }),
    cancelledBy: f.ref().label('Cancelled by'),
    cancelledAt: f.timestamp().label('Cancelled at').export({ width: 24 }),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
  },
  statusField: 'status',
  dateFilter: 'issueDate',
  defaultSort: '-invoiceId',
  agentScope: 'agentId',
});
