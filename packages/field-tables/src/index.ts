// Field tables (kit v2) and save bodies of resources whose rows another service imports: declared
// once here, used by the owning service's resource and by intake's spreadsheet import (which
// validates each imported row with the owner's save schema). Services never import each other.
export { agentFields } from './agent.fields.js';
export { contractFields } from './contract.fields.js';
export { commissionRateFields } from './commission-rate.fields.js';
export { payoutRuleFields, INSURANCE_TYPE_CODE } from './payout-rule.fields.js';
export { chargebackRuleFields } from './chargeback-rule.fields.js';
export { exceptionRegisterReq } from './exception-register.js';
export { nonNegative } from './refinements.js';
export { revisableRuleTail } from './revisable-rule-tail.js';
