-- Platform tables (spec 2.8). Owned by auth-platform.

CREATE TABLE users (
  user_id             bigserial PRIMARY KEY,
  login_id            varchar(50)  NOT NULL UNIQUE,
  password            varchar(100) NOT NULL,
  user_name           varchar(100) NOT NULL,
  agent_id            bigint,
  email               varchar(200),
  phone               varchar(30),
  status              varchar(20)  NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'LOCKED', 'RETIRED', 'EXPIRED')),
  last_login_at       timestamptz,
  fail_count          integer      NOT NULL DEFAULT 0,
  password_changed_at timestamptz,
  created_at          timestamptz  NOT NULL DEFAULT now(),
  updated_at          timestamptz  NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint
);

CREATE TABLE role (
  role_id    bigserial PRIMARY KEY,
  role_code  varchar(30)  NOT NULL UNIQUE,
  role_name  varchar(100) NOT NULL,
  role_desc  varchar(500),
  role_level integer      NOT NULL DEFAULT 0,
  is_system  char(1)      NOT NULL DEFAULT 'N' CHECK (is_system IN ('Y', 'N')),
  is_active  boolean      NOT NULL DEFAULT true,
  created_at timestamptz  NOT NULL DEFAULT now(),
  updated_at timestamptz  NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint
);

CREATE TABLE user_role (
  user_role_id bigserial PRIMARY KEY,
  user_id      bigint NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  role_id      bigint NOT NULL REFERENCES role (role_id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, role_id)
);

CREATE TABLE menu (
  menu_id        bigserial PRIMARY KEY,
  parent_menu_id bigint REFERENCES menu (menu_id),
  menu_code      varchar(50)  NOT NULL UNIQUE,
  menu_name      varchar(100) NOT NULL,
  menu_type      varchar(20)  NOT NULL CHECK (menu_type IN ('DIRECTORY', 'PAGE', 'LINK')),
  menu_path      varchar(200),
  menu_icon      varchar(50),
  component_path varchar(200),
  menu_level     integer      NOT NULL DEFAULT 1,
  sort_order     integer      NOT NULL DEFAULT 0,
  is_visible     boolean      NOT NULL DEFAULT true,
  is_active      boolean      NOT NULL DEFAULT true,
  description    varchar(500),
  created_at     timestamptz  NOT NULL DEFAULT now(),
  updated_at     timestamptz  NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint
);

CREATE TABLE menu_permission (
  menu_perm_id bigserial PRIMARY KEY,
  menu_id      bigint      NOT NULL REFERENCES menu (menu_id) ON DELETE CASCADE,
  perm_code    varchar(20) NOT NULL CHECK (perm_code IN ('READ', 'CREATE', 'UPDATE', 'DELETE', 'APPROVE', 'EXPORT', 'PRINT', 'EXECUTE')),
  perm_name    varchar(50) NOT NULL,
  sort_order   integer     NOT NULL DEFAULT 0,
  UNIQUE (menu_id, perm_code)
);

CREATE TABLE role_menu_permission (
  rmp_id     bigserial PRIMARY KEY,
  role_id    bigint      NOT NULL REFERENCES role (role_id) ON DELETE CASCADE,
  menu_id    bigint      NOT NULL REFERENCES menu (menu_id) ON DELETE CASCADE,
  perm_code  varchar(20) NOT NULL,
  is_granted char(1)     NOT NULL DEFAULT 'Y' CHECK (is_granted IN ('Y', 'N')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (role_id, menu_id, perm_code)
);

CREATE TABLE common_code_group (
  group_code  varchar(20)  PRIMARY KEY,
  group_name  varchar(100) NOT NULL,
  description varchar(500),
  is_system   char(1)      NOT NULL DEFAULT 'N' CHECK (is_system IN ('Y', 'N')),
  is_active   boolean      NOT NULL DEFAULT true,
  sort_order  integer      NOT NULL DEFAULT 0,
  created_at  timestamptz  NOT NULL DEFAULT now(),
  updated_at  timestamptz  NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_by  bigint
);

CREATE TABLE common_code (
  code_id      bigserial PRIMARY KEY,
  group_code   varchar(20)  NOT NULL REFERENCES common_code_group (group_code) ON UPDATE CASCADE ON DELETE CASCADE,
  code         varchar(30)  NOT NULL,
  code_name    varchar(100) NOT NULL,
  code_name_en varchar(100),
  code_desc    varchar(500),
  attr1        varchar(100),
  attr2        varchar(100),
  attr3        varchar(100),
  ref_code     varchar(30),
  sort_order   integer      NOT NULL DEFAULT 0,
  is_active    boolean      NOT NULL DEFAULT true,
  created_at   timestamptz  NOT NULL DEFAULT now(),
  updated_at   timestamptz  NOT NULL DEFAULT now(),
  created_by   bigint,
  updated_by   bigint,
  UNIQUE (group_code, code)
);

CREATE TABLE login_log (
  log_id      bigserial PRIMARY KEY,
  user_id     bigint,
  login_id    varchar(50) NOT NULL,
  login_type  varchar(10) NOT NULL DEFAULT 'PWD' CHECK (login_type IN ('PWD', 'SSO')),
  result      varchar(10) NOT NULL CHECK (result IN ('SUCCESS', 'FAIL')),
  fail_reason varchar(200),
  ip_address  varchar(64),
  user_agent  varchar(500),
  login_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_log_login_at_idx ON login_log (login_at DESC);

CREATE TABLE api_access_log (
  access_id        bigserial PRIMARY KEY,
  user_id          bigint,
  request_id       varchar(64),
  service_name     varchar(50),
  request_uri      varchar(1000) NOT NULL,
  http_method      varchar(10)   NOT NULL,
  params           text,
  response_code    integer,
  response_time_ms integer,
  ip_address       varchar(64),
  created_at       timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX api_access_log_created_at_idx ON api_access_log (created_at DESC);

CREATE TABLE data_change_log (
  change_id   bigserial PRIMARY KEY,
  user_id     bigint,
  menu_code   varchar(50),
  table_name  varchar(100) NOT NULL,
  record_id   varchar(100),
  before_data jsonb,
  after_data  jsonb,
  action      varchar(20)  NOT NULL CHECK (action IN ('CREATE', 'UPDATE', 'DELETE', 'APPROVE')),
  request_id  varchar(64),
  created_at  timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX data_change_log_table_record_idx ON data_change_log (table_name, record_id);

CREATE TABLE audit_log (
  audit_id     bigserial PRIMARY KEY,
  user_id      bigint,
  action_type  varchar(50)  NOT NULL,
  target_table varchar(100),
  target_id    varchar(100),
  before_data  jsonb,
  after_data   jsonb,
  ip_address   varchar(64),
  user_agent   varchar(500),
  created_at   timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE file_storage (
  file_id        bigserial PRIMARY KEY,
  group_id       varchar(100),
  original_name  varchar(500) NOT NULL,
  stored_name    varchar(200) NOT NULL,
  file_path      varchar(1000) NOT NULL,
  file_size      bigint       NOT NULL,
  content_type   varchar(200),
  download_count integer      NOT NULL DEFAULT 0,
  is_deleted     boolean      NOT NULL DEFAULT false,
  created_by     bigint,
  created_at     timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX file_storage_group_idx ON file_storage (group_id) WHERE NOT is_deleted;

CREATE TABLE notification (
  noti_id    bigserial PRIMARY KEY,
  user_id    bigint       NOT NULL,
  noti_type  varchar(30)  NOT NULL,
  title      varchar(200) NOT NULL,
  content    text,
  link_url   varchar(500),
  is_read    boolean      NOT NULL DEFAULT false,
  read_at    timestamptz,
  created_at timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX notification_user_unread_idx ON notification (user_id) WHERE NOT is_read;

CREATE TABLE notice (
  notice_id  bigserial PRIMARY KEY,
  title      varchar(200) NOT NULL,
  content    text         NOT NULL,
  is_pinned  boolean      NOT NULL DEFAULT false,
  is_active  boolean      NOT NULL DEFAULT true,
  view_count integer      NOT NULL DEFAULT 0,
  post_from  date,
  post_to    date,
  created_at timestamptz  NOT NULL DEFAULT now(),
  updated_at timestamptz  NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint
);

CREATE TABLE system_config (
  config_key   varchar(50)  PRIMARY KEY,
  config_value text         NOT NULL,
  config_group varchar(50)  NOT NULL DEFAULT 'GENERAL',
  description  varchar(500),
  is_encrypted char(1)      NOT NULL DEFAULT 'N' CHECK (is_encrypted IN ('Y', 'N')),
  updated_by   bigint,
  updated_at   timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE data_domain (
  domain_code      varchar(50)  PRIMARY KEY,
  domain_name      varchar(100) NOT NULL,
  category         varchar(30)  NOT NULL CHECK (category IN ('IDENTIFIER', 'PII', 'MONEY', 'RATE', 'DATE', 'CODE', 'TEXT', 'JSON', 'AUDIT', 'WORKFLOW', 'SETTLEMENT_BIZ', 'FILE', 'TAX', 'BANKING', 'PROFILE', 'RESUME')),
  data_type        varchar(30)  NOT NULL,
  length           integer,
  precision        integer,
  scale            integer,
  format_pattern   varchar(100),
  validation_regex varchar(500),
  masking_type     varchar(30),
  encrypted        char(1)      NOT NULL DEFAULT 'N' CHECK (encrypted IN ('Y', 'N')),
  description      varchar(500),
  is_active        char(1)      NOT NULL DEFAULT 'Y' CHECK (is_active IN ('Y', 'N')),
  created_at       timestamptz  NOT NULL DEFAULT now(),
  updated_at       timestamptz  NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint
);

CREATE TABLE data_dictionary (
  dict_id        bigserial PRIMARY KEY,
  table_name     varchar(100) NOT NULL,
  column_name    varchar(100) NOT NULL,
  domain_code    varchar(50)  REFERENCES data_domain (domain_code) ON UPDATE CASCADE,
  column_label   varchar(200),
  is_pk          char(1)      NOT NULL DEFAULT 'N' CHECK (is_pk IN ('Y', 'N')),
  is_fk          char(1)      NOT NULL DEFAULT 'N' CHECK (is_fk IN ('Y', 'N')),
  fk_reference   varchar(200),
  business_rule  varchar(1000),
  sample_value   varchar(200),
  created_at     timestamptz  NOT NULL DEFAULT now(),
  updated_at     timestamptz  NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  UNIQUE (table_name, column_name)
);

CREATE TABLE external_call_log (
  call_id          bigserial PRIMARY KEY,
  call_type        varchar(20)  NOT NULL CHECK (call_type IN ('BANK', 'MESSAGE', 'OTHER')),
  adapter_name     varchar(100) NOT NULL,
  method_name      varchar(100) NOT NULL,
  success          boolean      NOT NULL,
  duration_ms      integer      NOT NULL,
  target_ref       varchar(100),
  request_summary  text,
  response_summary text,
  error_message    varchar(1000),
  called_at        timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX external_call_log_called_at_idx ON external_call_log (called_at DESC);

-- Refresh tokens: single use (rotation). Only a hash of the token is stored.
CREATE TABLE refresh_token (
  token_id    bigserial PRIMARY KEY,
  user_id     bigint      NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  token_hash  char(64)    NOT NULL UNIQUE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_token_user_idx ON refresh_token (user_id);
