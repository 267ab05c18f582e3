-- What-if simulations (issue 26): a simulation, its proposed rule changes and its per-agent results. The
-- calculation itself runs in a scratch schema sim_<id> dropped afterwards; only these tables keep results.

CREATE TABLE simulation (
  simulation_id   bigserial    PRIMARY KEY,
  name            varchar(100) NOT NULL,
  base_month      char(6)      NOT NULL CHECK (base_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  scope_type      varchar(10)  NOT NULL CHECK (scope_type IN ('ALL', 'ORG', 'AGENTS')),
  scope_org_id    bigint       REFERENCES organization (org_id),
  scope_agent_ids bigint[]     NOT NULL DEFAULT '{}',
  status          varchar(20)  NOT NULL DEFAULT 'DRAFT'
                  CHECK (status IN ('DRAFT', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'ADOPTION_PENDING', 'ADOPTED')),
  processed       integer      NOT NULL DEFAULT 0,
  total           integer      NOT NULL DEFAULT 0,
  eta_seconds     integer,
  error_message   varchar(1000),
  approval_id     bigint,
  adopt_from      date,
  created_by      bigint,
  created_at      timestamptz  NOT NULL DEFAULT now(),
  updated_at      timestamptz  NOT NULL DEFAULT now(),
  started_at      timestamptz,
  finished_at     timestamptz,
  CHECK (scope_type <> 'ORG' OR scope_org_id IS NOT NULL)
);
CREATE INDEX simulation_month_idx ON simulation (base_month, simulation_id);

CREATE TABLE simulation_change (
  change_id     bigserial   PRIMARY KEY,
  simulation_id bigint      NOT NULL REFERENCES simulation (simulation_id) ON DELETE CASCADE,
  seq           integer     NOT NULL,
  rule_table    varchar(40) NOT NULL,
  action        varchar(10) NOT NULL CHECK (action IN ('ADD', 'REPLACE', 'END')),
  target_id     bigint,
  values        jsonb,
  end_date      date,
  label         varchar(300) NOT NULL,
  amount_moved  numeric(18, 2),
  UNIQUE (simulation_id, seq)
);

-- Gross/net before (the real month) and after (the simulated month) per agent in scope.
CREATE TABLE simulation_agent_result (
  simulation_id bigint         NOT NULL REFERENCES simulation (simulation_id) ON DELETE CASCADE,
  agent_id      bigint         NOT NULL,
  org_id        bigint,
  gross_before  numeric(18, 2) NOT NULL,
  gross_after   numeric(18, 2) NOT NULL,
  net_before    numeric(18, 2) NOT NULL,
  net_after     numeric(18, 2) NOT NULL,
  PRIMARY KEY (simulation_id, agent_id)
);
CREATE INDEX simulation_agent_result_diff_idx ON simulation_agent_result (simulation_id, (gross_after - gross_before));

-- The simulated month's settle row of each agent in scope, and for the agents whose gross moved (the 500 largest
-- moves) the simulated explain, computed on the scratch schema before it is dropped.
CREATE TABLE simulation_settle (
  simulation_id bigint NOT NULL REFERENCES simulation (simulation_id) ON DELETE CASCADE,
  agent_id      bigint NOT NULL,
  settle        jsonb  NOT NULL,
  explain       jsonb,
  PRIMARY KEY (simulation_id, agent_id)
);

-- A rule revision adopted from a simulation links back to it.
ALTER TABLE commission_rate    ADD COLUMN simulation_id bigint;
ALTER TABLE payout_rule        ADD COLUMN simulation_id bigint;
ALTER TABLE override_rule      ADD COLUMN simulation_id bigint;
ALTER TABLE chargeback_rule    ADD COLUMN simulation_id bigint;
ALTER TABLE collection_rule    ADD COLUMN simulation_id bigint;
ALTER TABLE renewal_rule       ADD COLUMN simulation_id bigint;
ALTER TABLE reinstatement_rule ADD COLUMN simulation_id bigint;
ALTER TABLE persistency_rule   ADD COLUMN simulation_id bigint;
ALTER TABLE appointment_rule   ADD COLUMN simulation_id bigint;

-- Menu SIMULATION under RULES: READ/CREATE/DELETE, granted to SUPER_ADMIN and ADMIN.
INSERT INTO menu (parent_menu_id, menu_code, menu_name, menu_type, menu_path, menu_level, sort_order)
SELECT parent.menu_id, 'SIMULATION', 'What-if Simulations', 'PAGE', 'rules/simulations', parent.menu_level + 1, 900
FROM menu parent WHERE parent.menu_code = 'RULES'
ON CONFLICT (menu_code) DO NOTHING;

INSERT INTO menu_permission (menu_id, perm_code, perm_name, sort_order)
SELECT m.menu_id, p.perm_code, p.perm_name, p.sort_order
FROM menu m
CROSS JOIN (VALUES ('READ', 'Read', 1), ('CREATE', 'Create', 2), ('DELETE', 'Delete', 4)) AS p (perm_code, perm_name, sort_order)
WHERE m.menu_code = 'SIMULATION'
ON CONFLICT (menu_id, perm_code) DO NOTHING;

-- MANAGER: READ and CREATE, as every menu outside SYSTEM (docs/menus-and-routing.md "Grants"); never DELETE.
INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, mp.menu_id, mp.perm_code, 'Y'
FROM menu_permission mp
JOIN menu m ON m.menu_id = mp.menu_id
JOIN role r ON r.role_code IN ('SUPER_ADMIN', 'ADMIN') OR (r.role_code = 'MANAGER' AND mp.perm_code IN ('READ', 'CREATE'))
WHERE m.menu_code = 'SIMULATION'
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;
