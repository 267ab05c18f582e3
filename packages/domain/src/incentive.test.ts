import { describe, expect, it } from 'vitest';
import { calcIncentive, incentiveReward, incentiveTierProblems, selectIncentiveTier, type IncentiveTierInput } from './incentive.js';

const FIXED: IncentiveTierInput[] = [
  { tierNo: 1, threshold: '1000000.00', rewardAmount: '50000.00' },
  { tierNo: 2, threshold: '3000000.00', rewardAmount: '200000.00' },
];
const PCT: IncentiveTierInput[] = [
  { tierNo: 1, threshold: '1000000.00', rewardPct: '1.5' },
  { tierNo: 2, threshold: '5000000.00', rewardPct: '2.25' },
];

const outcome = (kind: 'FIXED' | 'PCT', tiers: IncentiveTierInput[], measured: string) => {
  const r = calcIncentive(kind, tiers, measured);
  return r === undefined ? null : [r.tier.tierNo, r.amount.toFixed(2)];
};

describe('incentive tier selection and reward (golden vectors)', () => {
  it('FIXED: a figure exactly on a threshold reaches that tier, one cent below stays in the tier under it', () => {
    expect(outcome('FIXED', FIXED, '3000000.00')).toEqual([2, '200000.00']);
    expect(outcome('FIXED', FIXED, '2999999.99')).toEqual([1, '50000.00']);
    expect(outcome('FIXED', FIXED, '1000000.00')).toEqual([1, '50000.00']);
    expect(outcome('FIXED', FIXED, '999999.99')).toBeNull();
    expect(outcome('FIXED', FIXED, '0')).toBeNull();
    // above the top tier: still the top tier, the fixed amount does not grow
    expect(outcome('FIXED', FIXED, '98765432.10')).toEqual([2, '200000.00']);
  });

  it('PCT: pct(measured, tier pct) rounded HALF_UP to 2 places', () => {
    // 1234567.89 x 1.5 / 100 = 18518.51835 -> 18518.52
    expect(outcome('PCT', PCT, '1234567.89')).toEqual([1, '18518.52']);
    // 1000001.00 x 1.5 / 100 = 15000.015 -> 15000.02 (half away from zero)
    expect(outcome('PCT', PCT, '1000001.00')).toEqual([1, '15000.02']);
    // 4999999.99 x 1.5 / 100 = 74999.99985 -> 75000.00
    expect(outcome('PCT', PCT, '4999999.99')).toEqual([1, '75000.00']);
    // 5000000.00 x 2.25 / 100 = 112500.00 (exactly on tier 2)
    expect(outcome('PCT', PCT, '5000000.00')).toEqual([2, '112500.00']);
    expect(outcome('PCT', PCT, '999999.99')).toBeNull();
  });

  it('counts (RECRUIT_COUNT) compare like any figure: 5 contracts reach a threshold of 5', () => {
    const tiers = [
      { tierNo: 1, threshold: '3', rewardAmount: '100000' },
      { tierNo: 2, threshold: '5', rewardAmount: '300000' },
    ];
    expect(outcome('FIXED', tiers, '5')).toEqual([2, '300000.00']);
    expect(outcome('FIXED', tiers, '4')).toEqual([1, '100000.00']);
    expect(outcome('FIXED', tiers, '2')).toBeNull();
  });

  it('picks by threshold whatever the order of the list', () => {
    const shuffled = [FIXED[1]!, FIXED[0]!];
    expect(selectIncentiveTier(shuffled, '3500000')?.tierNo).toBe(2);
    expect(selectIncentiveTier(shuffled, '1500000')?.tierNo).toBe(1);
    expect(selectIncentiveTier([], '1500000')).toBeUndefined();
  });

  it('a FIXED reward is the amount at 2 places, whatever was measured', () => {
    expect(incentiveReward('FIXED', { tierNo: 1, threshold: '0', rewardAmount: '1234.5' }, '99').toFixed(2)).toBe('1234.50');
    expect(incentiveReward('PCT', { tierNo: 1, threshold: '0', rewardPct: '0' }, '99').toFixed(2)).toBe('0.00');
  });
});

describe('incentive tier problems', () => {
  it('none for valid FIXED and PCT lists', () => {
    expect(incentiveTierProblems('FIXED', FIXED)).toEqual([]);
    expect(incentiveTierProblems('PCT', PCT)).toEqual([]);
  });

  it('thresholds must increase strictly with the tier number, reported on the tier breaking the order', () => {
    expect(
      incentiveTierProblems('FIXED', [
        { tierNo: 1, threshold: '500', rewardAmount: '10' },
        { tierNo: 2, threshold: '300', rewardAmount: '20' },
      ]),
    ).toEqual([{ index: 1, field: 'threshold', message: 'must be greater than the threshold of tier 1 (500): thresholds increase with the tier number' }]);
    // equal thresholds are not increasing; the list order does not matter, the tier numbers do
    expect(
      incentiveTierProblems('FIXED', [
        { tierNo: 2, threshold: '500', rewardAmount: '20' },
        { tierNo: 1, threshold: '500', rewardAmount: '10' },
      ]),
    ).toEqual([{ index: 0, field: 'threshold', message: 'must be greater than the threshold of tier 1 (500): thresholds increase with the tier number' }]);
  });

  it('the reward the type needs is required and the other one refused; a tier number is used once', () => {
    expect(
      incentiveTierProblems('PCT', [
        { tierNo: 1, threshold: '0', rewardPct: '1' },
        { tierNo: 2, threshold: '10', rewardAmount: '5' },
        { tierNo: 2, threshold: '20', rewardPct: '2' },
      ]),
    ).toEqual([
      { index: 1, field: 'rewardPct', message: 'is required for a PCT program' },
      { index: 1, field: 'rewardAmount', message: 'is only taken by a FIXED program' },
      { index: 2, field: 'tierNo', message: 'tier number 2 is used twice' },
    ]);
    expect(incentiveTierProblems('FIXED', [{ tierNo: 1, threshold: '0', rewardPct: '1' }])).toEqual([
      { index: 0, field: 'rewardAmount', message: 'is required for a FIXED program' },
      { index: 0, field: 'rewardPct', message: 'is only taken by a PCT program' },
    ]);
  });
});
