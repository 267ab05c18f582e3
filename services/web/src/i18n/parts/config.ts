/** Catalog keys of the config area: add each key to both objects. */
export const en = {
} as const;

export const ko: Record<keyof typeof en, string> = {
};
