import type { Db } from '@csp/db';
import { addAgent, addChargeback, addContract, addLedger, addOrg, addProduct, addSettle } from './helpers.js';

/**
 * The hand-built book every figure of the KPI tests is computed from (by hand, in the tests).
 *
 *   HQ ── Branch B ─┬─ Team T1: a1 (FC), a2 (SFC)
 *        │          ├─ Team T2: a3 (FC), a6 (FC, LEAVE: new business, no settlement)
 *        │          └─ a4 (BR_MANAGER, directly in B)
 *        └─ Branch C: a5 (FC)
 *
 * Settlements 202405: a1 gross 400.00, a3 gross 100.00.
 * Settlements 202406: a1 1100.00 (1000 + 200 - 100 chargeback), a2 500.00, a3 350.00 (300 + 50 plus),
 *   a4 90.00 (override), a5 0.00.
 * New contracts dated June 2024: a1 three (100000.00 + 50000.00 + exposure contract e1 100.00), a3 one
 *   (30000.00), a6 one (20000.00).
 * Cohort 202212: a1 ten contracts, all in force. Cohort 202301: a1 ten (one lapsed in month 12, one in
 *   month 14), a3 two (one ACTIVE, one TERMINATE).
 * Exposure contracts (as of 2024-06-30), see exposure.test.ts.
 */
export interface Book {
  hq: number;
  b: number;
  t1: number;
  t2: number;
  c: number;
  a1: number;
  a2: number;
  a3: number;
  a4: number;
  a5: number;
  a6: number;
  life: number;
  savings: number;
  /** Cohort 202301 contracts of a1 lapsed in month 12 and month 14. */
  lapse12: number;
  lapse14: number;
  /** Exposure contracts. */
  e1: number;
  e2: number;
  e3: number;
  e4: number;
  e5: number;
  e6: number;
  e7: number;
}

export async function buildBook(db: Db): Promise<Book> {
  const hq = await addOrg(db, 'Head Office', 'HQ', null, 1);
  const b = await addOrg(db, 'Branch B', 'BR', hq, 2);
  const t1 = await addOrg(db, 'Team T1', 'TM', b, 3);
  const t2 = await addOrg(db, 'Team T2', 'TM', b, 3);
  const c = await addOrg(db, 'Branch C', 'BR', hq, 2);
  const a1 = await addAgent(db, 'Agent One', t1, 1);
  const a2 = await addAgent(db, 'Agent Two', t1, 2);
  const a3 = await addAgent(db, 'Agent Three', t2, 1);
  const a4 = await addAgent(db, 'Agent Four', b, 4);
  const a5 = await addAgent(db, 'Agent Five', c, 1);
  const a6 = await addAgent(db, 'Agent Six', t2, 1, 'LEAVE');
  const life = await addProduct(db, 'LIFE-1', 'LIFE');
  const savings = await addProduct(db, 'SAV-1', 'SAVINGS');

  // ---- settlements
  await addSettle(db, a1, '202405', { recruit: '400.00', gross: '400.00', tax: '13.20', net: '386.80' });
  await addSettle(db, a3, '202405', { maintain: '100.00', gross: '100.00', tax: '3.30', net: '96.70' });
  await addSettle(db, a1, '202406', { recruit: '1000.00', maintain: '200.00', chargeback: '100.00', gross: '1100.00', tax: '36.30', net: '1063.70' });
  await addSettle(db, a2, '202406', { recruit: '500.00', gross: '500.00', tax: '16.50', net: '483.50', status: 'CONFIRMED' });
  await addSettle(db, a3, '202406', { maintain: '300.00', plus: '50.00', gross: '350.00', tax: '11.55', net: '338.45' });
  await addSettle(db, a4, '202406', { override: '90.00', gross: '90.00', tax: '2.97', net: '87.03' });
  await addSettle(db, a5, '202406', { gross: '0.00', tax: '0.00', net: '0.00' });

  // ---- new business of June 2024
  await addContract(db, { agentId: a1, productId: savings, contractDate: '2024-06-03', premium: '100000.00' });
  await addContract(db, { agentId: a1, productId: savings, contractDate: '2024-06-30', premium: '50000.00' });
  await addContract(db, { agentId: a3, productId: savings, contractDate: '2024-06-01', premium: '30000.00' });
  await addContract(db, { agentId: a6, productId: savings, contractDate: '2024-06-15', premium: '20000.00' });
  await addContract(db, { agentId: a1, productId: savings, contractDate: '2024-07-01', premium: '99999.00' }); // July: not June

  // ---- retention cohorts
  for (let i = 0; i < 10; i++) await addContract(db, { agentId: a1, productId: savings, contractDate: '2022-12-10' });
  const lapse12 = await addContract(db, { agentId: a1, productId: savings, contractDate: '2023-01-10', status: 'LAPSE', lapseDate: '2024-01-20' });
  const lapse14 = await addContract(db, { agentId: a1, productId: savings, contractDate: '2023-01-10', status: 'LAPSE', lapseDate: '2024-03-15' });
  for (let i = 0; i < 8; i++) await addContract(db, { agentId: a1, productId: savings, contractDate: '2023-01-10' });
  await addContract(db, { agentId: a3, productId: savings, contractDate: '2023-01-20' });
  await addContract(db, { agentId: a3, productId: savings, contractDate: '2023-01-25', status: 'TERMINATE' });

  // ---- chargeback exposure (as of 2024-06-30); a LIFE band 13-24 months at 60 % beats the general 50 %
  await db
    .insertInto('chargeback_grade')
    .values({ product_category: 'LIFE', months_from: 13, months_to: 24, percent: '60', effective_from: '2020-01-01' })
    .execute();
  const e1 = await addContract(db, { agentId: a1, productId: savings, contractDate: '2024-06-05', premium: '100.00' });
  await addLedger(db, 'recruit', e1, a1, '202406', '1000.00'); // 0 months: no band
  const e2 = await addContract(db, { agentId: a1, productId: life, contractDate: '2024-01-15', premium: '100.00' });
  await addLedger(db, 'recruit', e2, a1, '202401', '333.33'); // 5 months: 100 %
  await addLedger(db, 'maintain', e2, a1, '202407', '999.00'); // after the month: not paid yet
  const e3 = await addContract(db, { agentId: a1, productId: life, contractDate: '2023-02-10', premium: '100.00' });
  await addLedger(db, 'recruit', e3, a1, '202302', '500.01'); // 16 months, LIFE: 60 %
  await addLedger(db, 'maintain', e3, a1, '202402', '101.00');
  const e4 = await addContract(db, { agentId: a1, productId: savings, contractDate: '2022-05-31', status: 'LAPSE', lapseDate: '2024-03-01', premium: '100.00' });
  await addLedger(db, 'recruit', e4, a1, '202206', '999.00'); // lapsed: not in force
  const e5 = await addContract(db, { agentId: a3, productId: savings, contractDate: '2021-06-30', premium: '100.00' });
  await addLedger(db, 'recruit', e5, a3, '202106', '250.50'); // 36 months: 25 %
  const e6 = await addContract(db, { agentId: a3, productId: savings, contractDate: '2019-06-30', premium: '100.00' });
  await addLedger(db, 'recruit', e6, a3, '201906', '800.00'); // 60 months: 10 %
  await addLedger(db, 'maintain', e6, a4, '202106', '200.00'); // the successor a4 was paid maintain
  const e7 = await addContract(db, { agentId: a5, productId: savings, contractDate: '2024-01-31', premium: '100.00' });
  await addLedger(db, 'recruit', e7, a5, '202402', '10.50'); // 5 months (01-31 + 5 = 06-30): 100 %

  // installments of e4's lapse: 2 of 4 fall due after June; a cancelled and a later lapse do not count
  for (const [seq, month, amount] of [[1, '202405', '100.00'], [2, '202406', '100.00'], [3, '202407', '100.00'], [4, '202408', '100.01']] as const) {
    await addChargeback(db, { contractId: e4, agentId: a1, settleMonth: month, lapseMonth: '202403', amount, seq, total: 4 });
  }
  await addChargeback(db, { contractId: lapse12, agentId: a1, settleMonth: '202407', lapseMonth: '202401', amount: '70.00', seq: 1, total: 1, status: 'CANCELLED' });
  await addChargeback(db, { contractId: e5, agentId: a3, settleMonth: '202408', lapseMonth: '202407', amount: '50.00', seq: 1, total: 1 });

  return { hq, b, t1, t2, c, a1, a2, a3, a4, a5, a6, life, savings, lapse12, lapse14, e1, e2, e3, e4, e5, e6, e7 };
}
