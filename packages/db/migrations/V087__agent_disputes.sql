-- Issue 23 (DECISIONS "Settlement lifecycle", agents serve themselves): an AGENT user raises a dispute on its own
-- settle row or ledger line and reads its own disputes. The rows are scoped by the service (raiseDispute and the
-- resource's agentScope: another agent's row is E403); review, approve and reject stay with the back office.
INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, mp.menu_id, mp.perm_code, 'Y'
FROM menu_permission mp
JOIN menu m ON m.menu_id = mp.menu_id AND m.menu_code = 'DISPUTE'
JOIN role r ON r.role_code = 'AGENT'
WHERE mp.perm_code IN ('READ', 'CREATE')
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;
