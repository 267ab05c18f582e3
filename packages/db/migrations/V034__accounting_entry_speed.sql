-- V034: step 9 (accountingEntryGenerate) speed.
--
-- The two account-code foreign keys of contract_accounting_entry are checked row by row (one
-- SELECT ... FOR KEY SHARE on account_code per key and row). Measured on the 1,000,000-contract bench book:
-- 611,585 entries insert in 6.2 s with them and 2.6 s without. Entries are written by step 9 only, which checks
-- once per run that its account codes exist before writing. What the foreign keys did on the account_code side
-- stays, set-based, in one trigger: a renamed code is carried over to the entries (it was ON UPDATE CASCADE) and
-- a code still used by an entry cannot be deleted (23503, as before).

ALTER TABLE contract_accounting_entry
  DROP CONSTRAINT IF EXISTS contract_accounting_entry_debit_account_code_fkey,
  DROP CONSTRAINT IF EXISTS contract_accounting_entry_credit_account_code_fkey;

CREATE FUNCTION account_code_keep_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE contract_accounting_entry SET debit_account_code = NEW.account_code
     WHERE debit_account_code = OLD.account_code;
    UPDATE contract_accounting_entry SET credit_account_code = NEW.account_code
     WHERE credit_account_code = OLD.account_code;
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM contract_accounting_entry
              WHERE debit_account_code = OLD.account_code OR credit_account_code = OLD.account_code) THEN
    RAISE EXCEPTION 'account code % is still used by accounting entries', OLD.account_code
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN OLD;
END
$$;

CREATE TRIGGER account_code_rename_entries AFTER UPDATE OF account_code ON account_code
  FOR EACH ROW WHEN (OLD.account_code IS DISTINCT FROM NEW.account_code)
  EXECUTE FUNCTION account_code_keep_entries();

CREATE TRIGGER account_code_delete_guard BEFORE DELETE ON account_code
  FOR EACH ROW EXECUTE FUNCTION account_code_keep_entries();
