import { commissionYearInMonth } from '@csp/domain';
import type { LedgerTable, MappedRecord, ParseError } from './record-mapper.js';

/** The contract a policy number matched, with its product (read by the step). */
export interface ContractMatch {
  contractId: number;
  agentId: number;
  policyNo: string;
  companyCode: string;
  productCode: string;
  insuranceType: string;
  premium: string;
  payCycle: string;
  contractDate: string | null;
}

/** What transformData writes onto the ledger row (contract_id, settle_month, commission_year). */
export interface LedgerWrite {
  table: LedgerTable;
  contractId: number;
  agentId: number;
  commissionYear: number;
  policyNo: string;
  companyCode: string;
  productCode: string;
  insuranceType: string;
  premium: string;
  payMethod: string;
  reportedPremium: string | null;
  reportedCompanyAmount: string | null;
}

export type ResolveOutcome = { ok: true; row: LedgerWrite } | { ok: false; error: ParseError };

const MAINTAIN_YEARS = { min: 2, max: 5 };

function invalid(message: string, field: string, value: string | null): ResolveOutcome {
  return { ok: false, error: { errorType: 'INVALID_INPUT', errorField: field, errorValue: value, message } };
}

/**
 * Matches the record to its contract (CONTRACT_NOT_FOUND when there is none or it belongs to another
 * carrier) and decides the commission year: RECRUIT is 1; MAINTAIN is the mapped year or the
 * domain's commission year of the contract in the settle month, and must be 2 to 5.
 */
export function resolveLedgerRow(
  record: MappedRecord,
  contract: ContractMatch | undefined,
  companyCode: string,
  settleMonth: string,
): ResolveOutcome {
  if (!contract || contract.companyCode !== companyCode) {
    return {
      ok: false,
      error: {
        errorType: 'CONTRACT_NOT_FOUND',
        errorField: 'policy_no',
        errorValue: record.policyNo,
        message: contract
          ? `policy ${record.policyNo} belongs to a product of company ${contract.companyCode}, not ${companyCode}`
          : `no contract with policy number ${record.policyNo}`,
      },
    };
  }

  let commissionYear: number;
  if (record.dataType === 'RECRUIT') {
    if (record.commissionYear !== null && record.commissionYear !== 1) {
      return invalid(
        `a RECRUIT record must have commission year 1, got ${record.commissionYear}`,
        'commission_year',
        String(record.commissionYear),
      );
    }
    commissionYear = 1;
  } else if (record.commissionYear !== null) {
    commissionYear = record.commissionYear;
  } else {
    if (contract.contractDate === null) {
      return invalid(
        'the contract has no contract date, so its commission year is unknown',
        'commission_year',
        null,
      );
    }
    commissionYear = commissionYearInMonth(contract.contractDate, settleMonth);
  }
  if (
    record.dataType === 'MAINTAIN' &&
    (commissionYear < MAINTAIN_YEARS.min || commissionYear > MAINTAIN_YEARS.max)
  ) {
    return invalid(
      `commission year ${commissionYear} is not a maintain year (${MAINTAIN_YEARS.min} to ${MAINTAIN_YEARS.max})`,
      'commission_year',
      String(commissionYear),
    );
  }

  return {
    ok: true,
    row: {
      table: record.table,
      contractId: contract.contractId,
      agentId: contract.agentId,
      commissionYear,
      policyNo: contract.policyNo,
      companyCode: contract.companyCode,
      productCode: record.productCode ?? contract.productCode,
      insuranceType: record.insuranceType ?? contract.insuranceType,
      premium: contract.premium,
      payMethod: record.payMethod ?? contract.payCycle,
      reportedPremium: record.reportedPremium,
      reportedCompanyAmount: record.reportedCompanyAmount,
    },
  };
}
