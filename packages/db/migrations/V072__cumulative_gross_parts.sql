-- Every part of gross in the cumulative KPI too (issue 23, DECISIONS "Settlement lifecycle"), as V071
-- did for the monthly KPI: year-to-date sums of other commission, corrections and exception plus and
-- minus, so that recruit + maintain + override + other + correction + exception plus - exception minus
-- - chargeback = gross_total on every row.
ALTER TABLE kpi_cumulative
  ADD COLUMN other_total           numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN correction_total      numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN exception_plus_total  numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN exception_minus_total numeric(18,2) NOT NULL DEFAULT 0;
COMMENT ON COLUMN kpi_cumulative.other_total IS 'Year-to-date other commission types (settle_master.other_total), part of gross';
COMMENT ON COLUMN kpi_cumulative.correction_total IS 'Year-to-date approved corrections (settle_master.correction_total), part of gross';
COMMENT ON COLUMN kpi_cumulative.exception_plus_total IS 'Year-to-date exception additions, part of gross';
COMMENT ON COLUMN kpi_cumulative.exception_minus_total IS 'Year-to-date exception deductions, subtracted from gross';
