import { formatMoney, sum, toDec } from '@csp/domain';
import { AppError, type FieldCipher } from '@csp/service-kit';
import { sql } from 'kysely';
import { NoHolidayCalendarError, nextBusinessDay, todayInKorea } from '../calc/business-day.js';
import { formatTransferFile, TransferFormatError, type BankFormat, type TransferLine } from '../calc/transfer-file-format.js';
import { FileStore, insertFileRow, type StoredFile } from '../common/file-store.js';
import { readBankClosedDays } from '../common/system-config.js';
import type { PaymentTaxDb } from '../db.js';

export interface TransferFileRequest {
  settleMonth: string;
  bankFormat: BankFormat;
  /** Requested pay date (default: today in Korea); moved to the next business day when needed. */
  transferDate?: string | undefined;
}

export interface TransferFileResult {
  fileId: number;
  fileName: string;
  bankFormat: BankFormat;
  settleMonth: string;
  transferDate: string;
  /** Days skipped to reach the transfer date (weekends, holidays, configured closed days). */
  daysSkipped: string[];
  count: number;
  totalAmount: string;
  paymentIds: number[];
  /** PENDING payments of the month left out: taxes not calculated yet. */
  skippedWithoutTax: number;
  /** PENDING payments of the month left out: net amount 0 or less (deductions above the payment). */
  skippedNotPositive: number;
}

interface PendingRow {
  payment_id: number;
  agent_id: number;
  agent_name: string | null;
  bank_code: string | null;
  account_no: string | null;
  net_amount: string;
  taxed: boolean;
  positive: boolean;
}

/**
 * Writes the bank transfer file of a month (DECISIONS "Transfer file"): every PENDING payment with taxes
 * calculated and a positive net, one line each, header and trailer; stored as a file_storage row; those
 * payments become SENT with pay_file_ref and the transfer date, in one transaction. When the file cannot
 * be built or stored nothing changes (and a file already on disk is removed).
 */
export async function writeTransferFile(
  deps: { db: PaymentTaxDb; cipher: FieldCipher; store: FileStore },
  input: TransferFileRequest,
  userId: number | null,
): Promise<TransferFileResult> {
  const { db, cipher, store } = deps;
  let businessDay;
  try {
    businessDay = await nextBusinessDay(input.transferDate ?? todayInKorea(), await readBankClosedDays(db));
  } catch (err) {
    if (err instanceof NoHolidayCalendarError) throw new AppError('BAD_REQUEST', err.message);
    throw err;
  }
  const createdOn = todayInKorea();
  const ext = input.bankFormat === 'CSV' ? 'csv' : 'txt';
  const fileName = `transfer-${input.settleMonth}-${input.bankFormat}-${businessDay.date.replaceAll('-', '')}.${ext}`;

  let stored: StoredFile | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      const { rows } = await sql<PendingRow>`
        SELECT p.payment_id, p.agent_id, a.agent_name, p.bank_code, p.account_no, p.net_amount,
               p.tax_calculated_at IS NOT NULL AS taxed, p.net_amount > 0 AS positive
        FROM payment p JOIN agent a ON a.agent_id = p.agent_id
        WHERE p.settle_month = ${input.settleMonth} AND p.status = 'PENDING'
        ORDER BY p.payment_id
        FOR UPDATE OF p`.execute(trx);
      const eligible = rows.filter((r) => r.taxed && r.positive);
      const skippedWithoutTax = rows.filter((r) => !r.taxed).length;
      const skippedNotPositive = rows.filter((r) => r.taxed && !r.positive).length;
      if (eligible.length === 0) {
        throw new AppError(
          'BAD_REQUEST',
          `No transfer file written: ${input.settleMonth} has no PENDING payment with taxes calculated and a positive net ` +
            `(${rows.length} PENDING, ${skippedWithoutTax} without taxes, ${skippedNotPositive} with net <= 0)`,
        );
      }
      const lines: TransferLine[] = eligible.map((r) => {
        let accountNo = '';
        try {
          accountNo = r.account_no ? cipher.decrypt(r.account_no) : '';
        } catch {
          accountNo = '';
        }
        if (!r.bank_code || !accountNo.trim()) {
          throw new AppError('BAD_REQUEST', `No transfer file written: payment ${r.payment_id} has no usable bank account`);
        }
        return {
          paymentId: Number(r.payment_id),
          agentId: Number(r.agent_id),
          accountHolder: r.agent_name ?? '',
          bankCode: r.bank_code,
          accountNo: accountNo.trim(),
          amount: formatMoney(r.net_amount),
        };
      });
      const totalAmount = formatMoney(sum(lines.map((l) => toDec(l.amount, 'amount'))));
      let content: Buffer;
      try {
        content = formatTransferFile(
          input.bankFormat,
          { createdOn, transferDate: businessDay.date, settleMonth: input.settleMonth, count: lines.length, total: totalAmount },
          lines,
        );
      } catch (err) {
        if (err instanceof TransferFormatError) throw new AppError('BAD_REQUEST', `No transfer file written: ${err.message}`);
        throw err;
      }
      try {
        stored = await store.writeBuffer(fileName, content);
      } catch {
        throw new AppError('FILE_UPLOAD_FAIL', 'The transfer file could not be stored: no payment was changed');
      }
      const fileId = await insertFileRow(trx, stored, {
        groupId: `TRANSFER-${input.settleMonth}`,
        originalName: fileName,
        contentType: input.bankFormat === 'CSV' ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8',
        createdBy: userId,
      });
      const paymentIds = lines.map((l) => l.paymentId);
      await sql`
        UPDATE payment p SET status = 'SENT', pay_file_ref = ${fileId}, transfer_date = ${businessDay.date}::date,
          updated_at = now(), updated_by = ${userId}::bigint, version = p.version + 1
        WHERE p.payment_id = ANY(${paymentIds}::bigint[])`.execute(trx);
      return {
        fileId,
        fileName,
        bankFormat: input.bankFormat,
        settleMonth: input.settleMonth,
        transferDate: businessDay.date,
        daysSkipped: businessDay.skipped,
        count: lines.length,
        totalAmount,
        paymentIds,
        skippedWithoutTax,
        skippedNotPositive,
      };
    });
  } catch (err) {
    if (stored) await store.remove(stored.filePath).catch(() => undefined);
    throw err;
  }
}
