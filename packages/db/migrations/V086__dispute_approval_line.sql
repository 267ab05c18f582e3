-- Issue 15: a dispute IN_REVIEW can be decided through the approval workflow (target DISPUTE); the
-- ledger-settlement consumer applies the decision (disputes/dispute-events.ts). A reviewer starts it with
-- POST /api/approvals/requests {targetType: DISPUTE, targetId, approvalLineCode: DISPUTE_DEFAULT}.
INSERT INTO approval_line (line_code, line_name, target_type, step_roles, description) VALUES
  ('DISPUTE_DEFAULT', 'Commission dispute', 'DISPUTE', '["ADMIN"]', 'One administrator')
ON CONFLICT (line_code) DO NOTHING;

