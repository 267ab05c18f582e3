// Route modules of master-data, one folder per business area. Two groups are owned by different
// authors; each group registers its own areas from its index file.
export { registerPeopleAndContractAreas } from './people-contracts.js';
export { registerRuleAreas } from './rules-areas.js';
