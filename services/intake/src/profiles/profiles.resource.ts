import { DATA_FORMATS, RECEIVE_METHODS } from '@csp/db';
import { defineResource, f, invalid } from '@csp/service-kit';
import { isSupportedEncoding } from '../parsing/csv-reader.js';
import { compileDateFormat } from '../transform/date-format.js';

/**
 * company_profile (spec 2.5): how a carrier delivers its data (format CSV/XLSX/fixed, encoding such
 * as CP949/EUC-KR, delimiter, header and data rows, sheet, date and amount formats, receive method
 * and schedule). One per carrier; menu RECEIVE_MAPPING (the carrier setup screen).
 */
export const profileResource = defineResource({
  name: 'CompanyProfile',
  path: '/api/mapping/profiles',
  table: 'company_profile',
  alias: 'cp',
  menu: 'RECEIVE_MAPPING',
  tags: ['Intake: carrier profiles'],
  baseQuery: (db) =>
    db
      .selectFrom('company_profile as cp')
      .innerJoin('insurance_company as ic', 'ic.company_code', 'cp.company_code'),
  fields: {
    profileId: f.id(),
    companyCode: f.code({ max: 20 }).required().createOnly().sort().search().filter().label('Company code'),
    companyName: f.joined('ic.company_name', 'text').sort().search().label('Company'),
    dataFormat: f.enum(DATA_FORMATS).save({ default: 'EXCEL' }).filter().label('Data format'),
    receiveMethod: f.enum(RECEIVE_METHODS).save({ default: 'MANUAL' }).filter().label('Receive method'),
    fileEncoding: f
      .text({ max: 20 })
      .save({ default: 'UTF-8' })
      .refine((s) =>
        s.refine(
          (v) => v == null || isSupportedEncoding(String(v)),
          'is not a supported character set (UTF-8, CP949, EUC-KR, ...)',
        ),
      )
      .label('File encoding'),
    delimiter: f
      .text({ max: 5 })
      .save()
      .describe("CSV field delimiter; 'TAB' for a tab; default ','")
      .label('Delimiter'),
    headerRow: f
      .int({ min: 0, max: 1000 })
      .save({ default: 1 })
      .describe('0 = no header row')
      .label('Header row'),
    dataStartRow: f.int({ min: 1, max: 1000 }).save({ default: 2 }).label('First data row'),
    sheetName: f.text({ max: 100 }).save().describe('NULL = the first sheet').label('Sheet'),
    dateFormat: f
      .text({ max: 30 })
      .save({ default: 'yyyy-MM-dd' })
      .refine((s) =>
        s.refine((v) => {
          if (v == null) return true;
          try {
            compileDateFormat(String(v));
            return true;
          } catch {
            return false;
          }
        }, 'must contain yyyy, MM and dd once each (e.g. yyyyMMdd)'),
      )
      .label('Date format'),
    amountFormat: f.text({ max: 30 }).save().label('Amount format'),
    apiUrl: f.text({ max: 500 }).save().label('API URL'),
    ftpHost: f.text({ max: 200 }).save().label('FTP host'),
    ftpPath: f.text({ max: 500 }).save().label('FTP path'),
    receiveSchedule: f.text({ max: 100 }).save().label('Receive schedule'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'companyCode',
  validate: async (body, ctx, existing) => {
    if (!existing) {
      const company = await ctx.trx
        .selectFrom('insurance_company')
        .select('company_code')
        .where('company_code', '=', body.companyCode)
        .executeTakeFirst();
      if (!company)
        throw invalid('companyCode', `insurance company ${String(body.companyCode)} does not exist`);
    }
    if (body.headerRow >= body.dataStartRow) throw invalid('dataStartRow', 'must be after headerRow');
  },
});
