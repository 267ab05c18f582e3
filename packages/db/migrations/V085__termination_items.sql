-- Issue 15, termination settlement (the rule: packages/domain/src/correction-termination.ts). Every amount a
-- termination counts is recorded here once; the primary key makes sure no row is taken by two terminations.
-- On approval the rows leave their regular channel: unpaid confirmed settle rows are withheld (HOLD, reason
-- TERMINATION), future chargeback installments CANCELLED (accelerated), pending deductions CANCELLED and
-- pending/unbooked exceptions CANCELLED; the final net is then carried by ONE item: a receivable deduction
-- (negative) or a correction booked into the first open month (positive).

CREATE TABLE termination_settlement_item (
  item_kind     varchar(20)   NOT NULL CHECK (item_kind IN ('UNPAID_CONFIRMED', 'FUTURE_CHARGEBACK', 'PENDING_DEDUCTION', 'PENDING_EXCEPTION')),
  item_id       bigint        NOT NULL,
  term_id       bigint        NOT NULL REFERENCES termination_settlement (term_id),
  settle_month  char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  amount        numeric(15,2) NOT NULL,
  created_at    timestamptz   NOT NULL DEFAULT now(),
  PRIMARY KEY (item_kind, item_id)
);
CREATE INDEX termination_settlement_item_term_idx ON termination_settlement_item (term_id);
COMMENT ON TABLE termination_settlement_item IS 'Rows an approved termination settlement took over (each at most once): their signed amounts sum to its final net.';
COMMENT ON COLUMN termination_settlement_item.item_kind IS 'UNPAID_CONFIRMED (settle_master, withheld), FUTURE_CHARGEBACK (chargeback, accelerated: CANCELLED), PENDING_DEDUCTION (agent_deduction, CANCELLED), PENDING_EXCEPTION (exception_ledger, CANCELLED)';
COMMENT ON COLUMN termination_settlement_item.item_id IS 'settle_id, cb_id, deduction_id or ledger_id (by item_kind)';
COMMENT ON COLUMN termination_settlement_item.amount IS 'Signed contribution to the final net (+ owed to the agent, - owed by the agent)';

ALTER TABLE termination_settlement
  ADD COLUMN correction_id bigint REFERENCES settle_correction (correction_id),
  ADD COLUMN decision_note varchar(1000);
COMMENT ON COLUMN termination_settlement.correction_id IS 'The correction paying a positive final net (booked into the first OPEN month from settle_month on)';
COMMENT ON COLUMN termination_settlement.decision_note IS 'Note of the approval, or the reason of the cancellation';
COMMENT ON COLUMN termination_settlement.unpaid_confirmed IS 'Gross of the CONFIRMED settle rows of open months without a live payment (withheld on approval)';
COMMENT ON COLUMN termination_settlement.future_chargebacks IS 'CALCULATED chargeback installments due after settle_month (accelerated)';
COMMENT ON COLUMN termination_settlement.pending_deductions IS 'PENDING deductions of settle_month and earlier';
COMMENT ON COLUMN termination_settlement.pending_exceptions IS 'Signed exceptions of open months up to settle_month that a CONFIRMED or PAID row has not counted (PENDING, or approved after its calculation)';
COMMENT ON COLUMN termination_settlement.deduction_id IS 'The receivable (agent_deduction CHARGEBACK_PENDING, amount -final_net) written when final_net is negative';

INSERT INTO common_code (group_code, code, code_name, code_name_en, sort_order) VALUES
  ('HOLD_REASON', 'TERMINATION', 'Settled by a termination settlement', 'Settled by a termination settlement', 9)
ON CONFLICT (group_code, code) DO NOTHING;
