-- Every part of gross on a commission statement (issue 23, DECISIONS "Settlement lifecycle"): the sums
-- over the settlement rows the statement's payments pay, so that recruit + maintain + override + other +
-- correction + exception plus - exception minus - chargeback = gross_amount.
ALTER TABLE commission_statement
  ADD COLUMN recruit_total    numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN maintain_total   numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN override_total   numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN other_total      numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN correction_total numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN exception_plus   numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN exception_minus  numeric(15,2) NOT NULL DEFAULT 0,
  ADD COLUMN chargeback_total numeric(15,2) NOT NULL DEFAULT 0;
COMMENT ON COLUMN commission_statement.other_total IS 'Other commission types, incentives and adjustments of the paid settlement rows (part of gross)';
COMMENT ON COLUMN commission_statement.correction_total IS 'Approved corrections booked into the paid settlement rows (part of gross)';
