import { describe, expect, it } from 'vitest';
import {
  DomainError,
  appointmentLine,
  calcSettlementAggregate,
  calcSettlementWithCorrection,
  calcSettlementWithOther,
  collectionLine,
  formatMoney,
  isInForceAt,
  lookupCollectionRule,
  monthRenewal,
  persistencyLine,
  persistencyMilestone,
  reinstatementLine,
  renewalLine,
  revivalCancellations,
  type AppointmentRuleRow,
  type RevivalChargeback,
  type CollectionRuleRow,
  type OtherContract,
  type PersistencyRuleRow,
  type RateRuleRow,
  type RenewalEndorsement,
} from './index.js';

const contract = (over: Partial<OtherContract> = {}): OtherContract => ({
  contractId: 1,
  agentId: 10,
  companyCode: 'L001',
  insuranceType: 'LIFE',
  premium: '123456.78',
  payCycle: 'QUARTERLY',
  status: 'ACTIVE',
  contractDate: '2019-03-10',
  lapseDate: null,
  revivalDate: null,
  ...over,
});

const collectionRules: CollectionRuleRow[] = [
  { ruleId: 1, version: 1, companyCode: 'L001', insuranceType: 'LIFE', minCommissionYear: 6, ratePct: '2.0000', effectiveFrom: '2020-01-01', effectiveTo: null },
  { ruleId: 2, version: 2, companyCode: 'L001', insuranceType: 'LIFE', minCommissionYear: 6, ratePct: '2.5000', effectiveFrom: '2025-01-01', effectiveTo: null },
  { ruleId: 3, version: 1, companyCode: 'L001', insuranceType: 'HEALTH', minCommissionYear: 7, ratePct: '1.0000', effectiveFrom: '2020-01-01', effectiveTo: null },
  { ruleId: 4, version: 1, companyCode: 'L002', insuranceType: 'LIFE', minCommissionYear: 6, ratePct: '9.0000', effectiveFrom: '2020-01-01', effectiveTo: '2025-03-31' },
];

describe('collection commission', () => {
  it('pays pct(premium, rate) in a due month of commission year 6 and later, with the newest rule version', () => {
    // 2019-03-10 -> 2025-03-31: 72 whole months -> year 7; QUARTERLY 72 % 3 = 0 -> due.
    // rule 2 (v2, 2.5 %): 123456.78 x 2.5 / 100 = 3086.4195 -> 3086.42
    const line = collectionLine(contract(), { agentId: 10 }, '202503', collectionRules)!;
    expect(line).toMatchObject({
      commissionType: 'COLLECTION', contractId: 1, agentId: 10, commissionYear: 7, milestoneMonth: null,
      baseAmount: '123456.78', ratePct: '2.5', agentAmount: '3086.42', ruleId: 2, ruleVersion: 2, sourceId: null,
    });
    expect(line.basis).toEqual({
      type: 'COLLECTION', rateDate: '2025-03-31',
      rule: { ruleId: 2, version: 2, ratePct: '2.5', minCommissionYear: '6', effectiveFrom: '2025-01-01', effectiveTo: null },
      contractDate: '2019-03-10', payCycle: 'QUARTERLY', contractAgentId: 10, successionId: null,
    });
    // 202504: 73 months, 73 % 3 = 1 -> no premium due
    expect(collectionLine(contract(), { agentId: 10 }, '202504', collectionRules)).toBeUndefined();
    // 202412 (before v2): 69 months -> due; rule 1 2 %: 2469.1356 -> 2469.14
    expect(collectionLine(contract(), { agentId: 10 }, '202412', collectionRules)!.agentAmount).toBe('2469.14');
  });

  it('starts in commission year 6 (or the rule minimum) and pays the successor when one is given', () => {
    // 2020-01-15 -> 2025-01-31: 60 months -> year 6, MONTHLY: 50000.00 x 2.5 % = 1250.00
    const y6 = contract({ contractDate: '2020-01-15', payCycle: 'MONTHLY', premium: '50000.00' });
    expect(collectionLine(y6, { agentId: 77, successionId: 5 }, '202501', collectionRules)).toMatchObject({
      agentId: 77, commissionYear: 6, agentAmount: '1250.00', basis: { successionId: 5, contractAgentId: 10 },
    });
    // 2020-02-15 -> 2025-01-31: 59 months -> year 5: maintain territory
    expect(collectionLine({ ...y6, contractDate: '2020-02-15' }, { agentId: 10 }, '202501', collectionRules)).toBeUndefined();
    // HEALTH rule starts at year 7
    expect(collectionLine({ ...y6, insuranceType: 'HEALTH' }, { agentId: 10 }, '202501', collectionRules)).toBeUndefined();
    expect(collectionLine({ ...y6, insuranceType: 'HEALTH' }, { agentId: 10 }, '202601', collectionRules)!.agentAmount).toBe('500.00');
    // not in force, or no rule: nothing
    expect(collectionLine({ ...y6, status: 'LAPSE', lapseDate: '2024-05-01' }, { agentId: 10 }, '202501', collectionRules)).toBeUndefined();
    expect(collectionLine({ ...y6, companyCode: 'L009' }, { agentId: 10 }, '202501', collectionRules)).toBeUndefined();
  });

  it('looks rules up half-open: a rule ending on the month end does not apply on it', () => {
    expect(lookupCollectionRule(collectionRules, { companyCode: 'L002', insuranceType: 'LIFE', date: '2025-03-30' })?.ruleId).toBe(4);
    expect(lookupCollectionRule(collectionRules, { companyCode: 'L002', insuranceType: 'LIFE', date: '2025-03-31' })).toBeUndefined();
  });
});

const renewalRules: RateRuleRow[] = [
  { ruleId: 11, version: 1, companyCode: 'L001', insuranceType: 'LIFE', ratePct: '3.0000', effectiveFrom: '2020-01-01', effectiveTo: '2025-03-15' },
  { ruleId: 12, version: 2, companyCode: 'L001', insuranceType: 'LIFE', ratePct: '3.3333', effectiveFrom: '2025-03-15', effectiveTo: null },
];
const endorsement = (over: Partial<RenewalEndorsement>): RenewalEndorsement => ({
  endorsementId: 100, endorseType: 'RENEWAL', endorseDate: '2025-03-10', status: 'APPLIED', premiumChange: '2500.00', ...over,
});

describe('renewal commission', () => {
  it('pays pct(premium + premium change, rate) with the rule valid on the endorsement date', () => {
    // 50000.00 + 2500.00 = 52500.00; on 2025-03-10 rule 11 (3 %): 1575.00
    const c = contract({ premium: '50000.00', contractDate: '2024-03-10' });
    expect(renewalLine(c, [endorsement({})], { agentId: 10 }, '202503', renewalRules)).toMatchObject({
      commissionType: 'RENEWAL', commissionYear: 2, baseAmount: '52500.00', ratePct: '3', agentAmount: '1575.00',
      ruleId: 11, ruleVersion: 1, sourceId: 100,
      basis: { endorseDate: '2025-03-10', premium: '50000.00', premiumChange: '2500.00', renewedPremium: '52500.00' },
    });
    // on 2025-03-20 rule 12 (3.3333 %): 52500.00 x 3.3333 / 100 = 1749.98250 -> 1749.98; a decrease counts signed
    const later = endorsement({ endorsementId: 101, endorseDate: '2025-03-20', premiumChange: '-1000.00' });
    // 49000.00 x 3.3333 / 100 = 1633.317 -> 1633.32
    expect(renewalLine(c, [endorsement({}), later], { agentId: 10 }, '202503', renewalRules)).toMatchObject({
      sourceId: 101, baseAmount: '49000.00', agentAmount: '1633.32', ruleId: 12,
    });
    expect(renewalLine(c, [endorsement({ endorseDate: '2025-03-20' })], { agentId: 10 }, '202503', renewalRules)!.agentAmount).toBe('1749.98');
  });

  it('counts only APPLIED RENEWAL endorsements dated in the month, on a contract in force', () => {
    const list = [
      endorsement({ endorsementId: 1, status: 'REQUESTED' }),
      endorsement({ endorsementId: 2, endorseType: 'PREMIUM_CHANGE' }),
      endorsement({ endorsementId: 3, endorseDate: '2025-04-01' }),
    ];
    expect(monthRenewal(list, '202503')).toBeUndefined();
    expect(monthRenewal([...list, endorsement({ endorsementId: 4 })], '202503')?.endorsementId).toBe(4);
    // same date: the higher id is the later one
    expect(monthRenewal([endorsement({ endorsementId: 9 }), endorsement({ endorsementId: 8 })], '202503')?.endorsementId).toBe(9);
    expect(monthRenewal([endorsement({ endorsementId: 8 }), endorsement({ endorsementId: 9 })], '202503')?.endorsementId).toBe(9);
    const c = contract({ premium: '50000.00' });
    expect(renewalLine({ ...c, status: 'TERMINATE' }, [endorsement({})], { agentId: 10 }, '202503', renewalRules)).toBeUndefined();
    expect(() => renewalLine(c, [endorsement({ premiumChange: '-50000.01' })], { agentId: 10 }, '202503', renewalRules)).toThrow(DomainError);
  });
});

const reinstatementRules: RateRuleRow[] = [
  { ruleId: 21, version: 1, companyCode: 'L001', insuranceType: 'LIFE', ratePct: '4.2500', effectiveFrom: '2020-01-01', effectiveTo: null },
];
const revived = contract({ premium: '80000.00', status: 'REVIVE', contractDate: '2024-06-05', lapseDate: '2025-01-20', revivalDate: '2025-03-12' });
const cb = (cbId: number, settleMonth: string, status: string, lapseMonth = '202501', cancelledByRevival: string | null = null): RevivalChargeback => ({
  cbId, settleMonth, lapseMonth, status, cancelledByRevival,
});

describe('reinstatement commission', () => {
  it('pays pct(premium, rate) in the revival month only', () => {
    // 80000.00 x 4.25 % = 3400.00
    expect(reinstatementLine(revived, { agentId: 10 }, '202503', reinstatementRules, [7])).toMatchObject({
      commissionType: 'REINSTATEMENT', baseAmount: '80000.00', ratePct: '4.25', agentAmount: '3400.00', ruleId: 21,
      basis: { rateDate: '2025-03-12', lapseDate: '2025-01-20', revivalDate: '2025-03-12', cancelledChargebacks: [7] },
    });
    expect(reinstatementLine(revived, { agentId: 10 }, '202504', reinstatementRules)).toBeUndefined();
    expect(reinstatementLine({ ...revived, status: 'ACTIVE' }, { agentId: 10 }, '202503', reinstatementRules)).toBeUndefined();
  });

  it('cancels the still CALCULATED installments of the lapse due from the revival month on', () => {
    const rows = [
      cb(5, '202501', 'CONFIRMED'),
      cb(6, '202502', 'CONFIRMED'),
      cb(8, '202504', 'CALCULATED'),
      cb(7, '202503', 'CALCULATED'),
      cb(3, '202503', 'CALCULATED', '202306'), // another lapse
    ];
    expect(revivalCancellations(revived, '202503', rows)).toEqual({ cancel: [7, 8], cancelled: [7, 8] });
    // a re-run finds them cancelled for this revival: nothing to do, the same rows explained
    const rerun = rows.map((r) => (r.cbId >= 7 ? { ...r, status: 'CANCELLED', cancelledByRevival: '2025-03-12' } : r));
    expect(revivalCancellations(revived, '202503', rerun)).toEqual({ cancel: [], cancelled: [7, 8] });
    expect(revivalCancellations(revived, '202504', rows)).toEqual({ cancel: [], cancelled: [] });
  });
});

const persistencyRules: PersistencyRuleRow[] = [
  { ruleId: 31, version: 1, milestoneMonth: 13, insuranceType: 'LIFE', bonusPct: '10.0000', effectiveFrom: '2020-01-01', effectiveTo: null },
  { ruleId: 32, version: 1, milestoneMonth: 25, insuranceType: 'LIFE', bonusPct: '15.0000', effectiveFrom: '2020-01-01', effectiveTo: null },
];

describe('persistency bonus', () => {
  const c = contract({ contractDate: '2024-02-10', agentId: 10 });
  it('pays the recruiting agent pct(recruit agent_amount, bonus) at month 13 and 25 (contract month = 1)', () => {
    expect(persistencyMilestone('2024-02-10', '202402')).toBeUndefined();
    expect(persistencyMilestone('2024-02-10', '202502')).toBe(13);
    expect(persistencyMilestone('2024-02-10', '202602')).toBe(25);
    // 1234.56 x 10 % = 123.456 -> 123.46
    expect(persistencyLine(c, '202502', persistencyRules, { amount: '1234.56', rows: 1 })).toMatchObject({
      commissionType: 'PERSISTENCY', agentId: 10, milestoneMonth: 13, commissionYear: 2, baseAmount: '1234.56',
      ratePct: '10', agentAmount: '123.46', ruleId: 31,
      basis: { rateDate: '2025-02-28', recruitRows: 1, recruitAmount: '1234.56', contractStatus: 'ACTIVE' },
    });
    // 1234.56 x 15 % = 185.184 -> 185.18
    expect(persistencyLine(c, '202602', persistencyRules, { amount: '1234.56', rows: 1 })!.agentAmount).toBe('185.18');
    expect(persistencyLine(c, '202601', persistencyRules, { amount: '1234.56', rows: 1 })).toBeUndefined();
    expect(persistencyLine(c, '202502', persistencyRules, { amount: '0', rows: 0 })).toBeUndefined();
  });

  it('pays nothing when the contract was not in force at the end of the milestone month', () => {
    // lapsed in its month 20 (2025-09): in force at month 13, not at month 25
    const lapsed = { ...c, status: 'LAPSE', lapseDate: '2025-09-14' };
    expect(isInForceAt(lapsed, '2025-02-28')).toBe(true);
    expect(isInForceAt(lapsed, '2026-02-28')).toBe(false);
    expect(persistencyLine(lapsed, '202602', persistencyRules, { amount: '1234.56', rows: 1 })).toBeUndefined();
    expect(isInForceAt({ ...c, status: 'TERMINATE' }, '2025-02-28')).toBe(false);
    expect(isInForceAt({ ...c, status: 'REVIVE', lapseDate: '2025-01-05', revivalDate: '2025-03-01' }, '2025-02-28')).toBe(false);
    expect(isInForceAt({ ...c, status: 'REVIVE', lapseDate: '2025-01-05', revivalDate: '2025-02-01' }, '2025-02-28')).toBe(true);
  });
});

describe('appointment allowance', () => {
  const rules: AppointmentRuleRow[] = [
    { ruleId: 41, version: 1, gradeId: 1, months: 3, monthlyAmount: '500000.00', effectiveFrom: '2020-01-01', effectiveTo: null },
  ];
  const agent = { agentId: 10, gradeId: 1, status: 'ACTIVE', joinDate: '2025-01-20' };
  it('pays the fixed amount in months 1..N after join (join month = 1)', () => {
    expect(appointmentLine(agent, '202501', rules)).toMatchObject({
      commissionType: 'APPOINTMENT', contractId: null, agentId: 10, milestoneMonth: 1, baseAmount: '500000.00',
      ratePct: '0', agentAmount: '500000.00', ruleId: 41, basis: { joinDate: '2025-01-20', monthNo: 1, gradeId: 1 },
    });
    expect(appointmentLine(agent, '202503', rules)!.milestoneMonth).toBe(3);
    expect(appointmentLine(agent, '202504', rules)).toBeUndefined();
    expect(appointmentLine(agent, '202412', rules)).toBeUndefined();
    expect(appointmentLine({ ...agent, status: 'LEAVE' }, '202501', rules)).toBeUndefined();
    expect(appointmentLine({ ...agent, gradeId: 2 }, '202501', rules)).toBeUndefined();
  });
});

describe('settlement aggregate with other commission types', () => {
  const sums = { recruit: '1000.00', maintain: '0', override: '0', exceptionPlus: '0', exceptionMinus: '0', chargeback: '0' };
  it('adds other_total to gross: gross 1555.55, tax 3.3 % = 51.33315 -> 51.33, net 1504.22', () => {
    const a = calcSettlementWithOther({ ...sums, other: '555.55' });
    expect([a.other, a.gross, a.tax, a.net].map(formatMoney)).toEqual(['555.55', '1555.55', '51.33', '1504.22']);
    // with a correction of -55.55 as well: gross 1500.00, tax 49.50, net 1450.50
    const b = calcSettlementWithOther({ ...sums, correction: '-55.55', other: '555.55' });
    expect([b.gross, b.tax, b.net].map(formatMoney)).toEqual(['1500.00', '49.50', '1450.50']);
  });

  it('equals rule 4 (and the correction variant) when other_total is 0', () => {
    const plain = calcSettlementAggregate(sums);
    const a = calcSettlementWithOther({ ...sums, other: '0' });
    expect([a.gross, a.tax, a.net].map(formatMoney)).toEqual([plain.gross, plain.tax, plain.net].map(formatMoney));
    const c = calcSettlementWithCorrection({ ...sums, correction: '12.34' });
    const d = calcSettlementWithOther({ ...sums, correction: '12.34', other: '0.00' });
    expect([d.gross, d.tax, d.net].map(formatMoney)).toEqual([c.gross, c.tax, c.net].map(formatMoney));
  });
});
