import { describe, expect, it } from 'vitest';
import { cycleMonths, isPremiumDue, maintainEligibility } from './maintain-eligibility.js';

describe('maintain eligibility', () => {
  const monthly = { status: 'ACTIVE', contractDate: '2023-03-15', payCycle: 'MONTHLY' };

  it('pays MONTHLY contracts every month of years 2 to 5', () => {
    expect(maintainEligibility(monthly, '202403')).toEqual({ eligible: true, commissionYear: 2 });
    expect(maintainEligibility(monthly, '202404')).toEqual({ eligible: true, commissionYear: 2 });
    expect(maintainEligibility(monthly, '202802')).toEqual({ eligible: true, commissionYear: 5 });
  });

  it('refuses year 1 and year 6', () => {
    expect(maintainEligibility(monthly, '202402')).toEqual({ eligible: false, commissionYear: 1, reason: 'COMMISSION_YEAR' });
    expect(maintainEligibility(monthly, '202803')).toEqual({ eligible: false, commissionYear: 6, reason: 'COMMISSION_YEAR' });
  });

  it('pays REVIVE contracts and refuses LAPSE ones', () => {
    expect(maintainEligibility({ ...monthly, status: 'REVIVE' }, '202406').eligible).toBe(true);
    expect(maintainEligibility({ ...monthly, status: 'LAPSE' }, '202406')).toEqual({ eligible: false, commissionYear: 2, reason: 'STATUS' });
  });

  it('pays other cycles only in months a premium falls due', () => {
    const quarterly = { ...monthly, payCycle: 'QUARTERLY' };
    expect(maintainEligibility(quarterly, '202403').eligible).toBe(true);
    expect(maintainEligibility(quarterly, '202404')).toEqual({ eligible: false, commissionYear: 2, reason: 'NO_PREMIUM_DUE' });
    expect(maintainEligibility(quarterly, '202406').eligible).toBe(true);
    expect(maintainEligibility({ ...monthly, payCycle: 'SEMI_ANNUAL' }, '202409').eligible).toBe(true);
    expect(maintainEligibility({ ...monthly, payCycle: 'SEMI_ANNUAL' }, '202406').eligible).toBe(false);
    expect(maintainEligibility({ ...monthly, payCycle: 'ANNUAL' }, '202503').eligible).toBe(true);
    expect(maintainEligibility({ ...monthly, payCycle: 'ANNUAL' }, '202502').eligible).toBe(false);
    expect(maintainEligibility({ ...monthly, payCycle: 'SINGLE' }, '202403')).toEqual({
      eligible: false,
      commissionYear: 2,
      reason: 'NO_PREMIUM_DUE',
    });
  });

  it('knows when a premium falls due', () => {
    expect(isPremiumDue('2024-01-31', 'QUARTERLY', '202404')).toBe(true);
    expect(isPremiumDue('2024-01-31', 'SINGLE', '202401')).toBe(true);
    expect(isPremiumDue('2024-01-31', 'MONTHLY', '202312')).toBe(false);
  });

  it('rejects an unknown pay cycle', () => {
    expect(cycleMonths('ANNUAL')).toBe(12);
    expect(cycleMonths('SINGLE')).toBeNull();
    expect(() => cycleMonths('WEEKLY')).toThrow(expect.objectContaining({ code: 'INVALID_PAY_CYCLE', field: 'payCycle' }));
    expect(() => cycleMonths('toString')).toThrow(expect.objectContaining({ code: 'INVALID_PAY_CYCLE' }));
  });
});
