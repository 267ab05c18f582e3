-- Issue 27 (1): the month tables are declaratively partitioned by settle month (LIST, one partition per month
-- named <table>_p<YYYYMM>, plus <table>_pdefault for a month nobody created yet). A month's inserts then land in
-- that month's small indexes however many years the book holds, and every `settle_month = M` query reads one
-- partition. Converted here: recruit_ledger, maintain_ledger, exception_ledger, settle_master, override_settle,
-- other_commission_ledger, contract_accounting_entry, commission_master. chargeback stays one table: its rows
-- are keyed by (contract, lapse month, installment) and are written for months ahead of the run (each
-- installment's due month), and it holds lapses only (a small fraction of a month).
--
-- A partitioned table's primary key and unique keys must hold the partition key, so the ids become
-- (id, settle_month) keys; the ids stay globally unique (one shared sequence per table, as before). Foreign
-- keys into settle_master become (settle_id, month) composite keys where the referrer knows the month
-- (payment, deduction_carry_forward, commission_dispute, settle_hold); settle_approval (no month) and the
-- exception_ledger self reference (recurring_parent_id) keep a logical reference only, as V103 did for
-- override_settle: settle and ledger rows are never deleted by the application (data dictionary says so).
-- contract_accounting_entry's key (ledger_type, ledger_id, debit, credit) gains settle_month: an entry's month
-- is its ledger row's (or payment's) month, so the key means the same.
--
-- Partitions are created by ensure_settle_month_partitions(month) only (packages/db partitions.ts
-- ensureMonthPartitions): by the run before a month's steps write and by the maintenance job ahead of time.

CREATE SCHEMA IF NOT EXISTS archive;
COMMENT ON SCHEMA archive IS 'Detached month partitions of closed years (archive_settle_month / restore_settle_month); read through archive_read';
CREATE SCHEMA IF NOT EXISTS archive_read;
COMMENT ON SCHEMA archive_read IS 'One view per month-partitioned table: the live table plus its archived months (includeArchive reads)';

-- The tables partitioned by settle month (the list ensure/archive work on; packages/db SETTLE_MONTH_TABLES).
CREATE FUNCTION settle_month_tables() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['recruit_ledger', 'maintain_ledger', 'exception_ledger', 'settle_master', 'override_settle',
               'other_commission_ledger', 'contract_accounting_entry', 'commission_master']
$$;

-- A partition's indexes (and the keys they back) are named after the parent's: <parent index>_<p202501|pdefault>,
-- so an error naming a partition's key names the table's key plus the partition (intake strips the suffix).
CREATE FUNCTION name_partition_indexes(p_part regclass, p_suffix text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT ci.relname AS child, cp.relname AS parent
             FROM pg_index x
             JOIN pg_class ci ON ci.oid = x.indexrelid
             JOIN pg_inherits h ON h.inhrelid = x.indexrelid
             JOIN pg_class cp ON cp.oid = h.inhparent
            WHERE x.indrelid = p_part LOOP
    CONTINUE WHEN r.child = left(r.parent || '_' || p_suffix, 63);
    EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', (SELECT relnamespace::regnamespace::text FROM pg_class WHERE oid = p_part),
                   r.child, left(r.parent || '_' || p_suffix, 63));
  END LOOP;
END $$;

-- One-off conversion of a table into a LIST-partitioned one (same columns, defaults, checks, comments, indexes,
-- foreign keys, triggers and sequence; keys widened by settle_month); incoming foreign keys are dropped and
-- re-created below. Dropped at the end of this migration.
CREATE FUNCTION v130_partition_by_settle_month(p_table text, p_pk text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old_name text := p_table || '_v130_old';
  old_oid  regclass;
  seq      text;
  opts     text;
  tcomment text;
  defs     text[] := '{}';
  d        text;
  r        record;
BEGIN
  EXECUTE format('ALTER TABLE public.%I RENAME TO %I', p_table, old_name);
  old_oid := format('public.%I', old_name)::regclass;
  seq := pg_get_serial_sequence(format('public.%I', old_name), p_pk);
  SELECT coalesce(' WITH (' || array_to_string(reloptions, ', ') || ')', ''), obj_description(oid, 'pg_class')
    INTO opts, tcomment FROM pg_class WHERE oid = old_oid;

  -- key and foreign key constraints (a self reference is dropped: the referrer does not know the parent's month)
  FOR r IN SELECT conname, contype, pg_get_constraintdef(oid) AS def, confrelid FROM pg_constraint
            WHERE conrelid = old_oid AND contype IN ('p', 'u', 'f') ORDER BY contype DESC, conname LOOP
    IF r.contype = 'p' THEN
      defs := defs || format('ALTER TABLE public.%I ADD CONSTRAINT %I PRIMARY KEY (%I, settle_month)', p_table, r.conname, p_pk);
    ELSIF r.contype = 'u' THEN
      d := r.def;
      IF d !~ 'settle_month' THEN d := regexp_replace(d, '\)$', ', settle_month)'); END IF;
      defs := defs || format('ALTER TABLE public.%I ADD CONSTRAINT %I %s', p_table, r.conname, d);
    ELSIF r.confrelid <> old_oid THEN
      defs := defs || format('ALTER TABLE public.%I ADD CONSTRAINT %I %s', p_table, r.conname, r.def);
    END IF;
  END LOOP;
  -- indexes that back no constraint
  FOR r IN SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique FROM pg_index i
            WHERE i.indrelid = old_oid
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = old_oid) LOOP
    IF r.indisunique AND r.def !~ 'settle_month' THEN
      RAISE EXCEPTION 'unique index without settle_month on %: %', p_table, r.def;
    END IF;
    defs := defs || replace(r.def, format(' ON public.%s ', old_name), format(' ON public.%s ', p_table));
  END LOOP;
  -- triggers
  FOR r IN SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = old_oid AND NOT tgisinternal LOOP
    defs := defs || replace(r.def, format(' ON public.%s ', old_name), format(' ON public.%s ', p_table));
  END LOOP;

  EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS '
                 'INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY LIST (settle_month)', p_table, old_name);
  EXECUTE format('CREATE TABLE public.%I PARTITION OF public.%I DEFAULT%s', p_table || '_pdefault', p_table, opts);
  FOR r IN EXECUTE format('SELECT DISTINCT settle_month AS m FROM public.%I ORDER BY 1', old_name) LOOP
    EXECUTE format('CREATE TABLE public.%I PARTITION OF public.%I FOR VALUES IN (%L)%s',
                   p_table || '_p' || r.m, p_table, r.m, opts);
  END LOOP;
  EXECUTE format('INSERT INTO public.%I SELECT * FROM public.%I', p_table, old_name);

  -- incoming foreign keys: the five known ones into settle_master are re-created below; any other would be lost
  FOR r IN SELECT conname FROM pg_constraint WHERE confrelid = old_oid AND conrelid <> old_oid
              AND conname NOT IN ('payment_settle_id_fkey', 'deduction_carry_forward_settle_id_fkey',
                                  'settle_approval_settle_id_fkey', 'commission_dispute_settle_id_fkey',
                                  'settle_hold_settle_id_fkey') LOOP
    RAISE EXCEPTION 'foreign key % references %: decide its month key in V130 first', r.conname, p_table;
  END LOOP;
  EXECUTE format('ALTER SEQUENCE %s OWNED BY NONE', seq);
  EXECUTE format('DROP TABLE public.%I CASCADE', old_name);
  FOREACH d IN ARRAY defs LOOP
    EXECUTE d;
  END LOOP;
  FOR r IN SELECT i.inhrelid AS part, substring(c.relname FROM '_(p[0-9]{6}|pdefault)$') AS suffix
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = format('public.%I', p_table)::regclass LOOP
    PERFORM name_partition_indexes(r.part, r.suffix);
  END LOOP;
  EXECUTE format('ALTER SEQUENCE %s OWNED BY public.%I.%I', seq, p_table, p_pk);
  IF tcomment IS NOT NULL THEN
    EXECUTE format('COMMENT ON TABLE public.%I IS %L', p_table, tcomment || ' Partitioned by settle_month (V130).');
  END IF;
END $$;

SELECT v130_partition_by_settle_month('recruit_ledger', 'ledger_id');
SELECT v130_partition_by_settle_month('maintain_ledger', 'ledger_id');
SELECT v130_partition_by_settle_month('exception_ledger', 'ledger_id');
SELECT v130_partition_by_settle_month('settle_master', 'settle_id');
SELECT v130_partition_by_settle_month('override_settle', 'os_id');
SELECT v130_partition_by_settle_month('other_commission_ledger', 'ledger_id');
SELECT v130_partition_by_settle_month('contract_accounting_entry', 'entry_id');
SELECT v130_partition_by_settle_month('commission_master', 'cm_id');
DROP FUNCTION v130_partition_by_settle_month(text, text);

-- Foreign keys into settle_master, now with the month (the referrer's own month column).
ALTER TABLE payment
  ADD CONSTRAINT payment_settle_fk FOREIGN KEY (settle_id, settle_month) REFERENCES settle_master (settle_id, settle_month);
ALTER TABLE deduction_carry_forward
  ADD CONSTRAINT deduction_carry_forward_settle_fk FOREIGN KEY (settle_id, from_month) REFERENCES settle_master (settle_id, settle_month);
ALTER TABLE commission_dispute
  ADD CONSTRAINT commission_dispute_settle_fk FOREIGN KEY (settle_id, settle_month) REFERENCES settle_master (settle_id, settle_month);
ALTER TABLE settle_hold
  ADD CONSTRAINT settle_hold_settle_fk FOREIGN KEY (settle_id, settle_month) REFERENCES settle_master (settle_id, settle_month);
COMMENT ON COLUMN settle_approval.settle_id IS 'settle_master row decided (logical reference, no constraint since V130: the row has no month column)';
COMMENT ON COLUMN exception_ledger.recurring_parent_id IS 'The recurring row this batch-created row continues (logical reference, no constraint since V130)';

-- ---------------------------------------------------------------------------------------------
-- The month's partitions of every month table, idempotent and safe to call concurrently (one advisory lock);
-- rows of the month already in the default partition are moved into the new partition. Returns the number of
-- partitions created. An archived month is refused (restore it instead).
CREATE FUNCTION ensure_settle_month_partitions(p_month text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t        text;
  part     text;
  opts     text;
  has_rows boolean;
  created  integer := 0;
BEGIN
  IF p_month IS NULL OR p_month !~ '^[0-9]{4}(0[1-9]|1[0-2])$' THEN
    RAISE EXCEPTION 'settle month % is not YYYYMM', p_month USING ERRCODE = '22023';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('settle_month_partitions'));
  FOREACH t IN ARRAY settle_month_tables() LOOP
    part := t || '_p' || p_month;
    CONTINUE WHEN to_regclass(format('public.%I', part)) IS NOT NULL;
    IF to_regclass(format('archive.%I', part)) IS NOT NULL THEN
      RAISE EXCEPTION 'settle month % is archived (%); restore it first', p_month, part USING ERRCODE = '55000';
    END IF;
    SELECT coalesce(' WITH (' || array_to_string(reloptions, ', ') || ')', '') INTO opts
      FROM pg_class WHERE oid = format('public.%I', t || '_pdefault')::regclass;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I WHERE settle_month = %L)', t || '_pdefault', p_month)
      INTO has_rows;
    IF has_rows THEN
      EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)%s', part, t, opts);
      EXECUTE format('WITH moved AS (DELETE FROM public.%I WHERE settle_month = %L RETURNING *) INSERT INTO public.%I SELECT * FROM moved',
                     t || '_pdefault', p_month, part);
      EXECUTE format('ALTER TABLE public.%I ATTACH PARTITION public.%I FOR VALUES IN (%L)', t, part, p_month);
    ELSE
      EXECUTE format('CREATE TABLE public.%I PARTITION OF public.%I FOR VALUES IN (%L)%s', part, t, p_month, opts);
    END IF;
    PERFORM name_partition_indexes(format('public.%I', part)::regclass, 'p' || p_month);
    created := created + 1;
  END LOOP;
  RETURN created;
END $$;
COMMENT ON FUNCTION ensure_settle_month_partitions(text) IS 'Creates the month''s partition of every settle_month_tables() table (idempotent, serialized by an advisory lock)';

-- ---------------------------------------------------------------------------------------------
-- archive_read.<table>: the live table plus every archived month of it. A CHECK on each archived table lets
-- a month filter skip the others (constraint_exclusion = partition covers UNION ALL branches).
CREATE FUNCTION refresh_archive_read_views() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t    text;
  body text;
  r    record;
BEGIN
  FOREACH t IN ARRAY settle_month_tables() LOOP
    body := format('SELECT * FROM public.%I', t);
    FOR r IN SELECT c.relname FROM pg_class c
              WHERE c.relnamespace = 'archive'::regnamespace AND c.relkind = 'r'
                AND c.relname ~ ('^' || t || '_p[0-9]{6}$') ORDER BY c.relname LOOP
      body := body || format(' UNION ALL SELECT * FROM archive.%I', r.relname);
    END LOOP;
    EXECUTE format('CREATE OR REPLACE VIEW archive_read.%I AS %s', t, body);
  END LOOP;
END $$;

-- Detaches the month's partitions (every month table but settle_master, which payments, holds and disputes
-- reference) into schema archive. Returns the tables moved. The caller checks that the month is closed.
CREATE FUNCTION archive_settle_month(p_month text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  t     text;
  part  text;
  moved text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('settle_month_partitions'));
  FOREACH t IN ARRAY settle_month_tables() LOOP
    CONTINUE WHEN t = 'settle_master';
    part := t || '_p' || p_month;
    CONTINUE WHEN to_regclass(format('public.%I', part)) IS NULL;
    EXECUTE format('ALTER TABLE public.%I DETACH PARTITION public.%I', t, part);
    EXECUTE format('ALTER TABLE public.%I ADD CONSTRAINT %I CHECK (settle_month = %L)', part, part || '_month_ck', p_month);
    EXECUTE format('ALTER TABLE public.%I SET SCHEMA archive', part);
    moved := moved || t;
  END LOOP;
  PERFORM refresh_archive_read_views();
  RETURN moved;
END $$;

-- Re-attaches the month's archived partitions. Returns the tables moved back.
CREATE FUNCTION restore_settle_month(p_month text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  t     text;
  part  text;
  moved text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('settle_month_partitions'));
  FOREACH t IN ARRAY settle_month_tables() LOOP
    part := t || '_p' || p_month;
    CONTINUE WHEN to_regclass(format('archive.%I', part)) IS NULL;
    IF to_regclass(format('public.%I', part)) IS NOT NULL THEN
      RAISE EXCEPTION 'settle month % of % exists both live and archived', p_month, t USING ERRCODE = '55000';
    END IF;
    EXECUTE format('ALTER TABLE archive.%I SET SCHEMA public', part);
    -- the CHECK proves the partition constraint, so the attach does not scan the table
    EXECUTE format('ALTER TABLE public.%I ATTACH PARTITION public.%I FOR VALUES IN (%L)', t, part, p_month);
    EXECUTE format('ALTER TABLE public.%I DROP CONSTRAINT %I', part, part || '_month_ck');
    moved := moved || t;
  END LOOP;
  PERFORM refresh_archive_read_views();
  RETURN moved;
END $$;

SELECT refresh_archive_read_views();

-- ---------------------------------------------------------------------------------------------
-- Data dictionary: the widened keys and the references that are logical only.
UPDATE data_dictionary SET business_rule = 'Globally unique (shared sequence); key (id, settle_month): partitioned by settle month (V130)'
 WHERE (table_name, column_name) IN (('recruit_ledger', 'ledger_id'), ('maintain_ledger', 'ledger_id'),
       ('exception_ledger', 'ledger_id'), ('settle_master', 'settle_id'), ('override_settle', 'os_id'),
       ('contract_accounting_entry', 'entry_id'));
UPDATE data_dictionary SET is_fk = 'N', business_rule = 'Logical reference to exception_ledger.ledger_id (no constraint since V130: partitioned by month); one child per parent and month'
 WHERE table_name = 'exception_ledger' AND column_name = 'recurring_parent_id';
UPDATE data_dictionary SET fk_reference = 'settle_master.(settle_id, settle_month)'
 WHERE (table_name, column_name) IN (('payment', 'settle_id'));
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('other_commission_ledger', 'ledger_id', 'ID', 'Ledger ID', 'Y', 'N', NULL, 'Globally unique (shared sequence); key (id, settle_month): partitioned by settle month (V130)', '1'),
  ('commission_master', 'cm_id', 'ID', 'Commission master ID', 'Y', 'N', NULL, 'Globally unique (shared sequence); key (id, settle_month): partitioned by settle month (V130)', '1'),
  ('settle_approval', 'settle_id', 'ID', 'Settlement', 'N', 'N', 'settle_master.settle_id', 'Logical reference (no constraint since V130: settle_master is partitioned by month and this row has no month); settle rows are never deleted', '1'),
  ('settle_hold', 'settle_id', 'ID', 'Settlement', 'N', 'Y', 'settle_master.(settle_id, settle_month)', 'Composite key with the hold''s settle_month (V130)', '1'),
  ('commission_dispute', 'settle_id', 'ID', 'Settlement', 'N', 'Y', 'settle_master.(settle_id, settle_month)', 'Composite key with the dispute''s settle_month (V130)', '1'),
  ('deduction_carry_forward', 'settle_id', 'ID', 'Origin settlement', 'N', 'Y', 'settle_master.(settle_id, settle_month)', 'Composite key with from_month (V130)', '1')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO UPDATE SET is_fk = excluded.is_fk, fk_reference = excluded.fk_reference,
  business_rule = excluded.business_rule;

ANALYZE recruit_ledger, maintain_ledger, exception_ledger, settle_master, override_settle, other_commission_ledger,
  contract_accounting_entry, commission_master;
