/**
 * Records per chunk of the split steps (PERFORMANCE-NOTES: 1,000-5,000), and ledger rows per COPY batch /
 * upsert statement inside a chunk (`writeBatch`). The worker may tune them from its validated configuration;
 * tests make them small to get several chunks and batches out of a small book.
 */
const sizes = { contracts: 4_000, agents: 2_000, writeBatch: 1_000 };

export function chunkSizes(): Readonly<typeof sizes> {
  return sizes;
}

export function setChunkSizes(next: Partial<typeof sizes>): void {
  for (const [key, value] of Object.entries(next) as [keyof typeof sizes, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`chunk size ${key} must be a positive integer`);
    sizes[key] = value;
  }
}
