-- Every part of gross in the KPI and reports (issue 23, DECISIONS "Settlement lifecycle"): the other
-- commission types (settle_master.other_total) and the approved corrections (correction_total) were
-- summed into gross without a figure of their own. With them the parts add up to gross:
-- recruit + maintain + override + other + correction + exception plus - exception minus - chargeback.
ALTER TABLE kpi_monthly
  ADD COLUMN other_total      numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN correction_total numeric(18,2) NOT NULL DEFAULT 0;
ALTER TABLE kpi_org_monthly
  ADD COLUMN other_total      numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN correction_total numeric(18,2) NOT NULL DEFAULT 0;
ALTER TABLE kpi_agent_monthly
  ADD COLUMN other_amount      numeric(18,2) NOT NULL DEFAULT 0,
  ADD COLUMN correction_amount numeric(18,2) NOT NULL DEFAULT 0;
COMMENT ON COLUMN kpi_monthly.other_total IS 'Other commission types, incentives and adjustments (settle_master.other_total), part of gross';
COMMENT ON COLUMN kpi_monthly.correction_total IS 'Approved settlement corrections booked into the month (settle_master.correction_total), part of gross';
COMMENT ON COLUMN kpi_org_monthly.other_total IS 'Other commission types of the subtree (settle_master.other_total), part of gross';
COMMENT ON COLUMN kpi_org_monthly.correction_total IS 'Corrections of the subtree (settle_master.correction_total), part of gross';
COMMENT ON COLUMN kpi_agent_monthly.other_amount IS 'settle_master.other_total of the agent and month, part of gross';
COMMENT ON COLUMN kpi_agent_monthly.correction_amount IS 'settle_master.correction_total of the agent and month, part of gross';
