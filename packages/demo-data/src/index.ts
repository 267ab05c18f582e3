// The seeded demo book (organizations, agents, companies, products, contracts): used by the
// launcher's --demo, `pnpm demo-data`, the benches and the end-to-end tests.
export { generateDemoBook, DemoDataExistsError, type DemoBookResult } from './generate.js';
export { runDemoDataCli } from './cli.js';
export { writeCarrierFiles, seedCarrierProfiles, type CarrierFilesResult } from './carrier-files.js';
