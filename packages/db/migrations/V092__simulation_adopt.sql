-- Issue 26 item 4: adopting a simulation goes through the approval workflow (target SIMULATION): the
-- simulation is ADOPTION_PENDING while the request runs, ADOPTED once approved (its changes become real rule
-- revisions carrying simulation_id), back to DONE when rejected. The line a request uses: system_config
-- SIMULATION_APPROVAL_LINE (default SIMULATION_DEFAULT).
ALTER TABLE approval_line DROP CONSTRAINT approval_line_target_type_check;
ALTER TABLE approval_line ADD CONSTRAINT approval_line_target_type_check
  CHECK (target_type IN ('WITHDRAW', 'SETTLE', 'DISPUTE', 'INCENTIVE', 'SIMULATION'));
ALTER TABLE approval_request DROP CONSTRAINT approval_request_target_type_check;
ALTER TABLE approval_request ADD CONSTRAINT approval_request_target_type_check
  CHECK (target_type IN ('WITHDRAW', 'SETTLE', 'DISPUTE', 'INCENTIVE', 'SIMULATION'));

INSERT INTO common_code (group_code, code, code_name, code_name_en, sort_order) VALUES
  ('APPROVAL_TARGET', 'SIMULATION', '시뮬레이션 반영', 'Simulation adoption', 5)
ON CONFLICT DO NOTHING;

INSERT INTO approval_line (line_code, line_name, target_type, step_roles, description) VALUES
  ('SIMULATION_DEFAULT', 'Simulation adoption', 'SIMULATION', '["ADMIN"]', 'One administrator other than the author')
ON CONFLICT (line_code) DO NOTHING;

INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('SIMULATION_APPROVAL_LINE', 'SIMULATION_DEFAULT', 'SETTLE', 'Approval line of a simulation adoption', 'N')
ON CONFLICT (config_key) DO NOTHING;
