-- The language a commission statement is written in (issue 24, DECISIONS "The web client speaks the user's
-- language"): decided when the statement is issued (the issuer's request language, Korean unless English is
-- asked for) and kept with the statement, so that the row says which words its file carries. Statements issued
-- before this column were written in English; new ones default to Korean.
ALTER TABLE commission_statement
  ADD COLUMN lang varchar(2) NOT NULL DEFAULT 'en' CHECK (lang IN ('ko', 'en'));
ALTER TABLE commission_statement ALTER COLUMN lang SET DEFAULT 'ko';
COMMENT ON COLUMN commission_statement.lang IS 'Language of the statement file: ko | en, the issuer''s request language at issue time';
