-- Issue 24 item 6 (DECISIONS "Settlement lifecycle", agents serve themselves): the agent portal ("my settlement")
-- reads the agent's own statements (and downloads them), its own payments (the month's deductions and net paid) and
-- its withdraw requests with the balance, and creates a withdraw request within that balance. Every one of these
-- resources is row-scoped to the user's agent (agentScope; the balance, withdraw create and statement download check
-- the agent themselves): another agent's row is E403 or not found. Generating, cancelling and paying stay with the
-- back office.
INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, mp.menu_id, mp.perm_code, 'Y'
FROM menu_permission mp
JOIN menu m ON m.menu_id = mp.menu_id
JOIN role r ON r.role_code = 'AGENT'
WHERE (m.menu_code IN ('STATEMENT', 'PAYMENT') AND mp.perm_code = 'READ')
   OR (m.menu_code = 'WITHDRAW' AND mp.perm_code IN ('READ', 'CREATE'))
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;
