-- Carrier steps 2-3 (issue 28): what each transformed raw row costs PostgreSQL.
--
-- 1. A raw row is updated once when it is transformed (PENDING -> OK/ERROR, its ledger row, the reported amount).
--    parse_status was a column of raw_commission_data_month_status_idx, so every such update was a new row
--    version on another page with an entry in each of the table's five indexes: 13.4-15.3 s for the 600,000
--    rows of the intake bench in one statement. With the status out of every index and pages half empty the
--    update stays on its page (HOT, no index entry): 4.5-5.3 s on the same rows. A chunk's PENDING rows are
--    found by their raw_id range, through (settle_month, raw_id) for the whole month or (company_code,
--    settle_month, raw_id) for one carrier, and the status is filtered on the heap. Both indexes give the range
--    whatever the statistics say: with the carrier index on (company_code, settle_month) alone, a chunk planned
--    on the statistics of an empty table read the carrier's whole month (600,000 index entries) for its 2,000
--    rows. Only pages written from now on are half empty.
DROP INDEX raw_commission_data_month_status_idx;
DROP INDEX raw_commission_data_company_month_idx;
CREATE INDEX raw_commission_data_month_idx ON raw_commission_data (settle_month, raw_id);
CREATE INDEX raw_commission_data_company_month_idx ON raw_commission_data (company_code, settle_month, raw_id);
ALTER TABLE raw_commission_data SET (fillfactor = 45);

-- 2. Since V130 a ledger month is a partition of its own, where settle_month is one value: (settle_month,
--    agent_id) orders a partition exactly as (agent_id, settle_month) does, and (settle_month, contract_id) is
--    the prefix of the unique key (contract_id, settle_month, commission_year). The two copies cost every
--    ledger insert two index entries (600,000 carrier rows into the month's partition: 11.4 s with six indexes,
--    7.6 s with four). They stay on the default partition only, where months mix. The partial index on raw_id
--    (1.05 s of those 600,000 inserts) served one join only, replacing an upload, which now reaches the ledger
--    row through the raw row's mapped_ledger_id (primary key).
DROP INDEX recruit_ledger_month_agent_idx;
DROP INDEX recruit_ledger_month_contract_idx;
DROP INDEX maintain_ledger_month_agent_idx;
DROP INDEX maintain_ledger_month_contract_idx;
DROP INDEX recruit_ledger_raw_idx;
DROP INDEX maintain_ledger_raw_idx;
CREATE INDEX recruit_ledger_pdefault_month_agent_idx ON recruit_ledger_pdefault (settle_month, agent_id);
CREATE INDEX recruit_ledger_pdefault_month_contract_idx ON recruit_ledger_pdefault (settle_month, contract_id);
CREATE INDEX maintain_ledger_pdefault_month_agent_idx ON maintain_ledger_pdefault (settle_month, agent_id);
CREATE INDEX maintain_ledger_pdefault_month_contract_idx ON maintain_ledger_pdefault (settle_month, contract_id);
