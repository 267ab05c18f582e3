import { defineStep, UnrecoverableError, type StepContext, type StepCounts } from '@csp/batch';
import { intakeDb } from '../db.js';
import { createReceiverRegistry, type ReceiverRegistry } from '../receive/registry.js';
import {
  ReceiveError,
  RECEIVE_METHODS,
  type ReceiveMethod,
  type ReceiveTarget,
} from '../receive/receiver.js';

interface CompanyRow {
  company_code: string;
  company_active: boolean;
  has_profile: boolean;
  profile_active: boolean | null;
  receive_method: string | null;
  data_format: string | null;
  file_encoding: string | null;
  api_url: string | null;
  ftp_host: string | null;
  ftp_path: string | null;
}

async function loadCompanies(ctx: StepContext): Promise<CompanyRow[]> {
  const rows = await intakeDb(ctx.db)
    .selectFrom('insurance_company as ic')
    .leftJoin('company_profile as cp', 'cp.company_code', 'ic.company_code')
    .select((eb) => [
      'ic.company_code',
      'ic.is_active as company_active',
      eb('cp.company_code', 'is not', null).as('has_profile'),
      'cp.is_active as profile_active',
      'cp.receive_method',
      'cp.data_format',
      'cp.file_encoding',
      'cp.api_url',
      'cp.ftp_host',
      'cp.ftp_path',
    ])
    .$if(ctx.companyCode === undefined, (qb) => qb.where('ic.is_active', '=', true))
    .$if(ctx.companyCode !== undefined, (qb) => qb.where('ic.company_code', '=', ctx.companyCode!))
    .orderBy('ic.company_code')
    .execute();
  if (ctx.companyCode !== undefined && rows.length === 0) {
    throw new UnrecoverableError(`insurance company ${ctx.companyCode} does not exist`);
  }
  return rows as CompanyRow[];
}

function targetOf(row: CompanyRow): ReceiveTarget {
  return {
    companyCode: row.company_code,
    // A carrier without a profile delivers by manual upload.
    receiveMethod: (row.receive_method ?? 'MANUAL') as ReceiveMethod,
    dataFormat: row.data_format ?? 'EXCEL',
    fileEncoding: row.file_encoding ?? 'UTF-8',
    apiUrl: row.api_url,
    ftpHost: row.ftp_host,
    ftpPath: row.ftp_path,
  };
}

/**
 * Step 1: one receiver per active carrier, chosen by company_profile.receive_method. Counts are
 * carriers: success = received, error = the receiver failed for that carrier (for example an
 * unsupported method; logged, the other carriers go on), skipped = carrier or profile inactive.
 */
export function createReceiveDataStep(registry: ReceiverRegistry = createReceiverRegistry()) {
  return defineStep({
    name: 'receiveData',
    run: async (ctx) => {
      const companies = await loadCompanies(ctx);
      const counts: Required<StepCounts> = { total: companies.length, success: 0, error: 0, skipped: 0 };
      let records = 0;
      let pending = 0;
      for (const row of companies) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('receiveData aborted');
        const log = ctx.logger.child({ companyCode: row.company_code });
        if (!row.company_active || (row.has_profile && row.profile_active === false)) {
          log.info('carrier or its intake profile is inactive; not received');
          counts.skipped++;
          continue;
        }
        const target = targetOf(row);
        const receiver = registry.get(target.receiveMethod);
        if (!receiver || !RECEIVE_METHODS.includes(target.receiveMethod)) {
          throw new UnrecoverableError(`no receiver for receive method ${target.receiveMethod}`);
        }
        try {
          const result = await ctx.db
            .transaction()
            .execute((trx) =>
              receiver.receive({
                trx,
                runId: ctx.runId,
                settleMonth: ctx.settleMonth,
                target,
                logger: log,
                signal: ctx.signal,
              }),
            );
          records += result.records;
          pending += result.pending;
          counts.success++;
          log.info({ method: target.receiveMethod, ...result }, 'carrier data received');
        } catch (err) {
          if (!(err instanceof ReceiveError)) throw err;
          counts.error++;
          log.warn({ method: target.receiveMethod, reason: err.message }, 'carrier data not received');
        }
        ctx.progress(1);
      }
      ctx.logger.info({ ...counts, records, pending }, 'receiveData finished');
      return counts;
    },
  });
}

export const receiveData = createReceiveDataStep();
