-- Issue 16: incentive results are approved through the approval workflow (target INCENTIVE). The line a
-- submission uses when it names none: system_config INCENTIVE_APPROVAL_LINE (default INCENTIVE_DEFAULT).
INSERT INTO approval_line (line_code, line_name, target_type, step_roles, description) VALUES
  ('INCENTIVE_DEFAULT', 'Incentive payment', 'INCENTIVE', '["ADMIN"]', 'One administrator')
ON CONFLICT (line_code) DO NOTHING;

INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('INCENTIVE_APPROVAL_LINE', 'INCENTIVE_DEFAULT', 'SETTLE', 'Approval line of an incentive submission that names none', 'N')
ON CONFLICT (config_key) DO NOTHING;
