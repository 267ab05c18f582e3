/** `202512` -> `202601` */
export function nextMonth(settleMonth: string): string {
  const year = Number(settleMonth.slice(0, 4));
  const month = Number(settleMonth.slice(4, 6));
  return month === 12 ? `${year + 1}01` : `${year}${String(month + 1).padStart(2, '0')}`;
}

/**
 * The month a withdraw counts for (spec 8: cut-off the 25th, system_config WITHDRAW_CUTOFF_DAY): a request on
 * or before the cut-off day counts for its own month, a later one for the next month.
 */
export function withdrawMonth(requestDate: string, cutoffDay: number): string {
  const month = requestDate.slice(0, 4) + requestDate.slice(5, 7);
  return Number(requestDate.slice(8, 10)) <= cutoffDay ? month : nextMonth(month);
}
