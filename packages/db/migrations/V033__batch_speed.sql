-- V033: monthly settlement batch speed.
--
-- The contract/agent foreign keys of the batch-written ledger tables are checked row by row (one
-- SELECT ... FOR KEY SHARE on contract and one on agent per inserted row). Measured on the 1,000,000-contract
-- bench book: 300,000 maintain_ledger rows insert in 3.8 s without them and 7.3 s with them, and step 9
-- (contract_accounting_entry) spends about a third of its time in the same two checks. These tables are
-- written by the settlement batch only (calcRecruit/calcMaintain/transformData copy contract_id/agent_id from
-- contract rows read in the same transaction; accountingEntryGenerate copies them from the ledger rows), and
-- contracts and agents are never deleted (they are retired by status), so the checks guard nothing the batch
-- does not already guarantee. The account-code foreign keys of contract_accounting_entry stay (ON UPDATE
-- CASCADE keeps renamed account codes in step), as do all indexes and unique keys.

ALTER TABLE recruit_ledger
  DROP CONSTRAINT IF EXISTS recruit_ledger_contract_id_fkey,
  DROP CONSTRAINT IF EXISTS recruit_ledger_agent_id_fkey;

ALTER TABLE maintain_ledger
  DROP CONSTRAINT IF EXISTS maintain_ledger_contract_id_fkey,
  DROP CONSTRAINT IF EXISTS maintain_ledger_agent_id_fkey;

ALTER TABLE contract_accounting_entry
  DROP CONSTRAINT IF EXISTS contract_accounting_entry_contract_id_fkey,
  DROP CONSTRAINT IF EXISTS contract_accounting_entry_agent_id_fkey;
