-- Intake (issue 11): fixed-width carrier files (field positions and lengths in the field mapping,
-- measured in bytes of the profile's encoding, as Korean carriers lay out CP949/EUC-KR records)
-- and streamed JSON-array files.

ALTER TABLE company_field_mapping
  ADD COLUMN source_length integer CHECK (source_length BETWEEN 1 AND 4000);
COMMENT ON COLUMN company_field_mapping.source_length IS
  'FIXED profiles: length of the field in bytes of the file encoding; source_col_index is then its 0-based byte offset';

ALTER TABLE receive_file DROP CONSTRAINT receive_file_file_kind_check;
ALTER TABLE receive_file ADD CONSTRAINT receive_file_file_kind_check
  CHECK (file_kind IN ('XLSX', 'CSV', 'FIXED', 'JSON'));
COMMENT ON COLUMN receive_file.file_kind IS 'XLSX or CSV (detected from the bytes), FIXED or JSON (the profile''s data format)';

INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('company_field_mapping', 'source_length', NULL, 'Field length (bytes)', 'N', 'N', NULL,
   'FIXED profiles: the field is bytes [source_col_index, source_col_index + source_length) of a record', '10')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
