import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { maskedScanFailure, readMaskedScanReports } from './masked-scan.js';

declare module 'vitest' {
  export interface ProvidedContext {
    maskedScanDir: string;
  }
}

/**
 * vitest globalSetup (vitest.shared.ts `maskedScan`): gives the workers a folder for their scans
 * (vitest-masked-scan.setup.ts) and, after the whole suite, fails the run when any test database
 * held a masked value in a masked or encrypted column.
 */
export function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'csp-masked-scan-'));
  project.provide('maskedScanDir', dir);
  return () => {
    const summary = readMaskedScanReports(dir);
    rmSync(dir, { recursive: true, force: true });
    const failure = maskedScanFailure(summary);
    if (failure) {
      process.exitCode = 1;
      throw new Error(failure);
    }
    console.log(
      `masked-column scan: ${summary.databases} test database(s), ${summary.columns.length} column(s) ` +
        `(${summary.columns.join(', ')}): 0 values containing '*'`,
    );
  };
}
