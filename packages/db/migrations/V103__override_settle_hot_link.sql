-- The aggregate step points every receiver's override_settle row at its settle_master row (settle_id, empty
-- until then: SPEC step 7). With settle_id indexed (the index behind the ON DELETE SET NULL foreign key) that
-- UPDATE writes a new row version on another page plus an entry in each of the table's indexes for every row:
-- 83,042 rows took 6.7 s on the 5M-contract bench book, 0.4 s for the 16,592 rows of the 1M book (16x for 5x),
-- because the index pages it dirties no longer stay in shared buffers. Without an index on settle_id and with
-- half-empty pages the update is heap-only (HOT): the new version stays on the same page and no index changes.
-- The link is kept by the step itself (it sets settle_id from a join on the receiver's (agent_id,
-- settle_month) settle row, which is unique and never deleted by the application), so the constraint goes
-- with its index: without the index, deleting a settle row would scan override_settle for each one.
-- The same half-empty pages make confirm/hold/release/PAID (status only) heap-only as well.
DROP INDEX override_settle_settle_idx;
ALTER TABLE override_settle DROP CONSTRAINT override_settle_settle_id_fkey;
ALTER TABLE override_settle SET (fillfactor = 50);
COMMENT ON COLUMN override_settle.settle_id IS 'Receiver''s settle_master row (set by the aggregate step from (to_agent_id, settle_month); empty before; not a constraint: V103)';
