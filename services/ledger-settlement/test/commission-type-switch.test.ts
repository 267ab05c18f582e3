import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';
import { OTHER_TYPES_BOOK } from './other-types-book.js';
import { expectMonthPartsAddUp } from './parts-of-gross.js';

/**
 * Issue 23.1: every optional commission type can be switched off (PUT /api/commission-types/{id} isActive false),
 * alone or all together, and month 202504 of the every-type book (other-types-book.ts; figures worked out in
 * commission-types.test.ts) completes with exactly that type's rows absent and every other figure unchanged to
 * the cent. TAX_RATE 3.3: tax = pct(gross, 3.3) HALF_UP, net = gross - tax.
 *
 * The month with everything on (agent, recruit, chargeback, other, gross, tax, net):
 *   4001 other COLLECTION 3000.00 + PERSISTENCY 234.57 + 600.00 = 3834.57
 *   4002 recruit 600.00, other RENEWAL 1650.00 + INCENTIVE (approved) 1000.00 = 2650.00, gross 3250.00
 *   4003 other REINSTATEMENT 3200.00, chargeback 400.00, gross 2800.00
 *   4004 other APPOINTMENT 300000.00
 *   4005 other COLLECTION 833.33 (succession of 4102)
 * Each type off takes exactly its amounts out of other/gross:
 *   COLLECTION    4001 834.57 -> tax 27.54081 -> 27.54, net 807.03; 4005 0.00
 *   RENEWAL       4002 other 1000.00, gross 1600.00, tax 52.80, net 1547.20
 *   REINSTATEMENT 4003 other 0.00, gross -400.00, tax -13.20, net -386.80
 *   PERSISTENCY   4001 other 3000.00, tax 99.00, net 2901.00
 *   INCENTIVE     4002 other 1650.00, gross 2250.00, tax 74.25, net 2175.75
 *   APPOINTMENT   4004 0.00
 *   all six off   4001 0.00; 4002 gross 600.00, tax 19.80, net 580.20; 4003 -400.00/-13.20/-386.80; 4004, 4005 0.00
 */
const N = '202504';
let p: Platform;
let admin: string;
const { ok, runMonth } = gatewayClient(() => p, () => admin);

type Settle = [number, string, string, string, string, string, string];
// agent, recruit, chargeback, other, gross, tax, net
const ALL_ON: Settle[] = [
  [4001, '0.00', '0.00', '3834.57', '3834.57', '126.54', '3708.03'],
  [4002, '600.00', '0.00', '2650.00', '3250.00', '107.25', '3142.75'],
  [4003, '0.00', '400.00', '3200.00', '2800.00', '92.40', '2707.60'],
  [4004, '0.00', '0.00', '300000.00', '300000.00', '9900.00', '290100.00'],
  [4005, '0.00', '0.00', '833.33', '833.33', '27.50', '805.83'],
];
const ZERO = (agent: number): Settle => [agent, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'];

/** The settle rows with one type off: ALL_ON with the given agents' rows replaced. */
function changed(rows: Settle[]): Settle[] {
  return ALL_ON.map((r) => rows.find((c) => c[0] === r[0]) ?? r);
}

const OFF: Record<string, Settle[]> = {
  COLLECTION: changed([[4001, '0.00', '0.00', '834.57', '834.57', '27.54', '807.03'], ZERO(4005)]),
  RENEWAL: changed([[4002, '600.00', '0.00', '1000.00', '1600.00', '52.80', '1547.20']]),
  REINSTATEMENT: changed([[4003, '0.00', '400.00', '0.00', '-400.00', '-13.20', '-386.80']]),
  PERSISTENCY: changed([[4001, '0.00', '0.00', '3000.00', '3000.00', '99.00', '2901.00']]),
  INCENTIVE: changed([[4002, '600.00', '0.00', '1650.00', '2250.00', '74.25', '2175.75']]),
  APPOINTMENT: changed([ZERO(4004)]),
};
const ALL_OFF: Settle[] = [
  ZERO(4001),
  [4002, '600.00', '0.00', '0.00', '600.00', '19.80', '580.20'],
  [4003, '0.00', '400.00', '0.00', '-400.00', '-13.20', '-386.80'],
  ZERO(4004),
  ZERO(4005),
];
const TYPES = Object.keys(OFF);
const checked = { settleRows: 0, summaryRows: 0, explainRows: 0 };

/** The parts-add-up invariant over the month's settle rows, summary and explains (parts-of-gross.ts). */
async function partsAddUp(): Promise<void> {
  const c = await expectMonthPartsAddUp((path) => ok('GET', path), N);
  checked.settleRows += c.settleRows;
  checked.summaryRows += c.summaryRows;
  checked.explainRows += c.explainRows;
}

async function settles(): Promise<Settle[]> {
  const page = await ok('GET', `/api/settle?settleMonth=${N}&pageSize=100&sortField=agentId&sortOrder=ASC`);
  return page.list.map((s: any) => [s.agentId, s.recruitTotal, s.chargebackTotal, s.otherTotal, s.grossAmount, s.taxAmount, s.netAmount]);
}

/** The month's other-commission ledger rows (type, contract, agent, amount). */
async function otherRows(): Promise<unknown[][]> {
  const { rows } = await p.pool.query(
    `SELECT commission_type, contract_id, agent_id, agent_amount FROM other_commission_ledger
     WHERE settle_month = $1 ORDER BY commission_type, contract_id NULLS FIRST, agent_id`,
    [N],
  );
  return rows.map((r) => [r.commission_type, r.contract_id === null ? null : Number(r.contract_id), Number(r.agent_id), r.agent_amount]);
}

/** The month's commission-master rows (agent, type, computed amount). */
async function masterRows(): Promise<unknown[][]> {
  const page = await ok('GET', `/api/commission-master?settleMonth=${N}&pageSize=100`);
  return page.list
    .map((r: any) => [r.agentId, r.commissionType, r.computedAmount])
    .sort((a: any[], b: any[]) => a[0] - b[0] || String(a[1]).localeCompare(String(b[1])));
}

const OTHER_ALL_ON = [
  ['APPOINTMENT', null, 4004, '300000.00'],
  ['COLLECTION', 4101, 4001, '3000.00'],
  ['COLLECTION', 4102, 4005, '833.33'],
  ['PERSISTENCY', 4105, 4001, '234.57'],
  ['PERSISTENCY', 4107, 4001, '600.00'],
  ['REINSTATEMENT', 4104, 4003, '3200.00'],
  ['RENEWAL', 4103, 4002, '1650.00'],
];
const MASTER_ALL_ON = [
  [4001, 'COLLECTION', '3000.00'],
  [4001, 'PERSISTENCY', '834.57'],
  [4002, 'INCENTIVE', '1000.00'],
  [4002, 'RECRUIT', '600.00'],
  [4002, 'RENEWAL', '1650.00'],
  [4003, 'REINSTATEMENT', '3200.00'],
  [4004, 'APPOINTMENT', '300000.00'],
  [4005, 'COLLECTION', '833.33'],
];

async function setActive(types: readonly string[], isActive: boolean): Promise<void> {
  const list = (await ok('GET', '/api/commission-types?pageSize=50')).list;
  for (const code of types) {
    const type = list.find((t: any) => t.typeCode === code);
    await ok('PUT', `/api/commission-types/${type.typeId}`, { isActive });
  }
}

beforeAll(async () => {
  p = await startPlatform();
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  await p.pool.query(OTHER_TYPES_BOOK);
}, 120_000);

afterAll(async () => {
  await p?.close();
}, 60_000);

describe('switching optional commission types off', () => {
  it('computes the hand-worked month with every type on', async () => {
    await runMonth(N);
    expect(await settles()).toEqual(ALL_ON);
    expect(await otherRows()).toEqual(OTHER_ALL_ON);
    expect(await masterRows()).toEqual(MASTER_ALL_ON);
    await partsAddUp();
  });

  for (const type of TYPES) {
    it(`completes the month with ${type} off: exactly its rows absent, everything else unchanged to the cent`, async () => {
      await setActive([type], false);
      try {
        const status = await runMonth(N);
        expect(status.steps.every((s: any) => s.status === 'COMPLETED' && s.errorCount === 0)).toBe(true);
        expect(await settles()).toEqual(OFF[type]);
        expect(await otherRows()).toEqual(OTHER_ALL_ON.filter((r) => r[0] !== type));
        expect(await masterRows()).toEqual(MASTER_ALL_ON.filter((r) => r[1] !== type));
        await partsAddUp();
      } finally {
        await setActive([type], true);
      }
    }, 120_000);
  }

  it('completes the month with all six types off, leaving recruit, chargeback and tax as they were', async () => {
    await setActive(TYPES, false);
    try {
      await runMonth(N);
      expect(await settles()).toEqual(ALL_OFF);
      expect(await otherRows()).toEqual([]);
      expect(await masterRows()).toEqual([[4002, 'RECRUIT', '600.00']]);
      await partsAddUp();
    } finally {
      await setActive(TYPES, true);
    }
  }, 120_000);

  it('gives the month with every type on again once they are switched back on', async () => {
    await runMonth(N);
    expect(await settles()).toEqual(ALL_ON);
    expect(await otherRows()).toEqual(OTHER_ALL_ON);
    expect(await masterRows()).toEqual(MASTER_ALL_ON);
    await partsAddUp();
    // 9 runs x 5 settle rows; summary = grand total + 4 statuses
    expect(checked).toEqual({ settleRows: 45, summaryRows: 45, explainRows: 45 });
  }, 120_000);
});
