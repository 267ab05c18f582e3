-- Search on the big master-data lists (issue 9: 1,000,000 contracts, 10,000 agents). searchKeyword is an
-- ILIKE '%kw%' on these columns, which a b-tree cannot serve; trigram GIN indexes can. The default order of
-- both lists is the primary key, so an unfiltered first page reads 20 rows of the pk index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX IF NOT EXISTS contract_policy_no_trgm_idx ON contract USING gin (policy_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS contract_contractor_name_trgm_idx ON contract USING gin (contractor_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS contract_insured_name_trgm_idx ON contract USING gin (insured_name gin_trgm_ops);

CREATE INDEX IF NOT EXISTS agent_name_trgm_idx ON agent USING gin (agent_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS agent_license_no_trgm_idx ON agent USING gin (license_no gin_trgm_ops);
CREATE INDEX IF NOT EXISTS agent_phone_trgm_idx ON agent USING gin (phone gin_trgm_ops);
