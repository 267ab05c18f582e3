/** Catalog keys of the portal area: add each key to both objects. */
export const en = {
} as const;

export const ko: Record<keyof typeof en, string> = {
};
