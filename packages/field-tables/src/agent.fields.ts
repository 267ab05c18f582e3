import { sql } from 'kysely';
import { f } from '@csp/service-kit';
import { AGENT_STATUSES, TAX_TYPES, VAT_TYPES } from '@csp/db';

/**
 * The field table of master-data's agent resource (AgentSaveReq of spec 2.2, POST /api/agents):
 * resident and account numbers are stored encrypted. The joined and computed fields read the joins
 * of master-data's baseQuery (a, o, g). Field order = export column order.
 */
export const agentFields = {
  agentId: f.id().label('Agent ID'),
  agentName: f.text({ max: 100 }).required().sort().search().label('Name').export({ width: 20 }),
  orgName: f.joined('o.org_name', 'text').nullable(false).sort().label('Organization').export({ width: 25 }),
  gradeName: f
    .joined('g.grade_name', 'text')
    .nullable(false)
    .sort('g.grade_level')
    .label('Grade')
    .export({ width: 20 }),
  statusName: f.codeName('AGENT_STATUS', 'status').label('Status'),
  phone: f.phone().save().search().masked('phone').label('Phone'),
  email: f.email().save().masked('email').detailOnly().label('E-mail').export({ width: 25 }),
  licenseNo: f.text({ max: 30 }).save().sort().search().filter().label('License no'),
  joinDate: f.date().save().sort().label('Join date'),
  leaveDate: f.date().detailOnly().label('Leave date'),
  contractCount: f
    .computed(sql`(SELECT count(*)::int FROM contract c WHERE c.agent_id = a.agent_id)`, 'int')
    .nullable(false)
    .sort()
    .label('Contracts'),
  totalAmt: f
    .computed(
      sql`(SELECT coalesce(sum(c.premium), 0) FROM contract c WHERE c.agent_id = a.agent_id)`,
      'money',
    )
    .nullable(false)
    .sort()
    .label('Total premium'),
  taxTypeName: f.codeName('TAX_TYPE', 'taxType').label('Tax type'),
  vatTypeName: f.codeName('VAT_TYPE', 'vatType').label('VAT type'),
  businessNo: f.text({ max: 20 }).save().detailOnly().label('Business no'),
  bankCode: f.text({ max: 10 }).save().detailOnly().label('Bank'),
  accountNo: f
    .text({ pattern: /^\d[\d-]{5,29}$/, patternMessage: 'must be an account number (digits and dashes)' })
    .save()
    .encrypted()
    .masked('accountNo')
    .detailOnly()
    .label('Account no'),
  residentNo: f
    .text({ pattern: /^\d{6}-?\d{7}$/, patternMessage: 'must be a resident number like 900101-1234567' })
    .save()
    .encrypted()
    .masked('residentNo')
    .detailOnly()
    .label('Resident no'),
  // orgId filters the organization and everything below it (master-data's filters.apply)
  orgId: f.ref().required().export(false),
  gradeId: f.ref().required().filter().export(false),
  status: f.enum(AGENT_STATUSES).nullable(false).sort().filter().export(false),
  taxType: f.enum(TAX_TYPES).save({ default: 'BUSINESS_INCOME' }).detailOnly().export(false),
  vatType: f.enum(VAT_TYPES).save({ default: 'NONE' }).detailOnly().export(false),
};
