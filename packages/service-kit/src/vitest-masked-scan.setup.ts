import { inject } from 'vitest';
import { installMaskedScan } from './masked-scan.js';

// vitest setupFile (vitest.shared.ts `maskedScan`): every test database this file drops is scanned first.
const dir = inject('maskedScanDir');
if (dir) installMaskedScan(dir);
