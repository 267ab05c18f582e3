-- Every column of every base table in schema public, read from the catalog at query time (tables of later
-- migrations appear without changing this view), with comments, primary/foreign keys, the data_dictionary row
-- and its data_domain. Columns without a dictionary row still appear (dictionary and domain fields NULL).
-- is_fk / fk_reference come from the dictionary row, falling back to the real foreign-key constraint.
CREATE OR REPLACE VIEW v_data_dictionary_full AS
WITH cols AS (
  SELECT c.oid AS table_oid,
         c.relname::varchar(100) AS table_name,
         a.attname::varchar(100) AS column_name,
         a.attnum AS attnum,
         format_type(a.atttypid, a.atttypmod) AS pg_type,
         NOT a.attnotnull AS nullable,
         pg_get_expr(d.adbin, d.adrelid) AS column_default
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
  WHERE n.nspname = 'public'
    AND c.relkind IN ('r', 'p')
    AND NOT c.relispartition
    AND c.relname <> 'schema_migration'
),
fks AS (
  SELECT con.conrelid AS table_oid,
         k.attnum,
         min(rc.relname || '.' || ra.attname) AS fk_reference
  FROM pg_constraint con
  CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS k(attnum, ref_attnum)
  JOIN pg_class rc ON rc.oid = con.confrelid
  JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.ref_attnum
  WHERE con.contype = 'f'
  GROUP BY con.conrelid, k.attnum
),
pks AS (
  SELECT con.conrelid AS table_oid, k.attnum
  FROM pg_constraint con
  CROSS JOIN LATERAL unnest(con.conkey) AS k(attnum)
  WHERE con.contype = 'p'
)
SELECT col.table_name,
       col.column_name,
       col.attnum::integer AS ordinal_position,
       regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(col.pg_type,
         '^character varying', 'varchar'),
         '^character', 'char'),
         '^(timestamp|time)(\(\d+\))? with time zone', '\1tz\2'),
         '^(timestamp|time)(\(\d+\))? without time zone', '\1\2'),
         '^double precision', 'float8')::varchar(100) AS data_type,
       CASE WHEN col.nullable THEN 'Y' ELSE 'N' END::char(1) AS is_nullable,
       col.column_default,
       obj_description(col.table_oid, 'pg_class') AS table_comment,
       col_description(col.table_oid, col.attnum::integer) AS column_comment,
       CASE WHEN pk.attnum IS NOT NULL THEN 'Y' ELSE 'N' END::char(1) AS is_pk,
       dd.dict_id,
       dd.column_label,
       dd.domain_code,
       COALESCE(NULLIF(dd.is_fk, 'N'), CASE WHEN fk.attnum IS NOT NULL THEN 'Y' ELSE 'N' END)::char(1) AS is_fk,
       COALESCE(dd.fk_reference, fk.fk_reference)::varchar(200) AS fk_reference,
       dd.business_rule,
       dd.sample_value,
       dom.domain_name,
       dom.category,
       dom.masking_type,
       dom.encrypted
FROM cols col
LEFT JOIN pks pk ON pk.table_oid = col.table_oid AND pk.attnum = col.attnum
LEFT JOIN fks fk ON fk.table_oid = col.table_oid AND fk.attnum = col.attnum
LEFT JOIN data_dictionary dd ON dd.table_name = col.table_name AND dd.column_name = col.column_name
LEFT JOIN data_domain dom ON dom.domain_code = dd.domain_code;

COMMENT ON VIEW v_data_dictionary_full IS
  'Every column of every base table in schema public with comments, keys, data_dictionary row and data_domain';

COMMENT ON TABLE users IS 'Login users (BCrypt passwords)';
COMMENT ON TABLE role IS 'Roles';
COMMENT ON TABLE user_role IS 'Roles of a user';
COMMENT ON TABLE menu IS 'Menu tree of the web client';
COMMENT ON TABLE menu_permission IS 'Permission codes a menu offers';
COMMENT ON TABLE role_menu_permission IS 'Grants of a role per menu and permission code';
COMMENT ON TABLE common_code_group IS 'Common-code groups';
COMMENT ON TABLE common_code IS 'Common codes';
COMMENT ON TABLE login_log IS 'Login attempts';
COMMENT ON TABLE api_access_log IS 'REST calls';
COMMENT ON TABLE data_change_log IS 'Change log of data-changing operations';
COMMENT ON TABLE audit_log IS 'Audit trail';
COMMENT ON TABLE file_storage IS 'Stored files';
COMMENT ON TABLE notification IS 'Notifications of a user';
COMMENT ON TABLE notice IS 'Notices';
COMMENT ON TABLE system_config IS 'System configuration';
COMMENT ON TABLE data_domain IS 'Data domains of the data dictionary';
COMMENT ON TABLE data_dictionary IS 'Data dictionary rows';
COMMENT ON TABLE external_call_log IS 'Bank and message adapter calls';
COMMENT ON TABLE refresh_token IS 'Refresh tokens (hash only, single use)';
