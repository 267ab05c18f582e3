import { YN_VALUES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const CONFIG_MENU = 'SYSTEM_CONFIG';
export const MASKED_VALUE = '********';

/**
 * System configuration entries (menu SYSTEM_CONFIG): one un-paged list (config.routes.ts) in group
 * and key order. Encrypted values never leave the service, in clear or in cipher text: they are
 * masked (an unset one shows as '').
 */
export const configResource = defineResource({
  name: 'SystemConfig',
  path: '/api/system/config',
  table: 'system_config',
  alias: 'sc',
  menu: CONFIG_MENU,
  tags: ['system-config'],
  fields: {
    configKey: f.text({ max: 50 }).key(),
    configValue: f.text({ max: 4000 }).nullable(false),
    configGroup: f.text({ max: 50 }).nullable(false).filter(),
    description: f.text(),
    isEncrypted: f.enum(YN_VALUES).nullable(false),
    updatedBy: f.updatedBy(),
    updatedAt: f.updatedAt(),
  },
  defaultSort: 'configGroup',
  mapResponse: (resp) =>
    resp.isEncrypted === 'Y' ? { ...resp, configValue: resp.configValue === '' ? '' : MASKED_VALUE } : resp,
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});
