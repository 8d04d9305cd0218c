-- Integrations with third parties (issue 29 item 5, docs/integrations.md): an account's
-- Konekt hubs, a project's Konekt and Autodesk configurations, a user's Autodesk connection,
-- the pending Autodesk sign-ins, and the integration links of annotations.

-- A Konekt hub configured on an account. `token` null: disconnected (the record stays).
CREATE TABLE account_konekt_integrations (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  konekt_id text NOT NULL,
  name text NOT NULL,
  beta boolean NOT NULL,
  token text,
  allow_create_new_users boolean NOT NULL,
  sync_strategy text NOT NULL CHECK (sync_strategy IN ('CONFIG_ON_PROJECT', 'BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT')),
  -- [{id, name}]: the hub's projects as Konekt listed them at the last connection.
  konekt_projects jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  UNIQUE (account_id, konekt_id)
);

-- A project's configuration with Konekt (one per project).
CREATE TABLE project_konekt_integrations (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  hub_id text NOT NULL,
  konekt_project_id integer NOT NULL,
  allow_invite_users boolean NOT NULL,
  sync_strategy text NOT NULL CHECK (sync_strategy IN ('BOTH_WAY', 'UPDATES_ONLY_FROM_KONEKT')),
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);

-- A project's configuration with Autodesk (one per project).
CREATE TABLE project_autodesk_integrations (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  autodesk_hub_id text NOT NULL,
  autodesk_project_id text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);

-- A user's connection to Autodesk (the OAuth flow's result), across accounts.
CREATE TABLE autodesk_connections (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  email text,
  user_name text,
  first_name text,
  last_name text,
  -- [{autodeskId, name, projects: [{autodeskId, name}]}] as Autodesk listed them at connection.
  hubs jsonb NOT NULL DEFAULT '[]',
  access_token text NOT NULL,
  refresh_token text,
  expires_at timestamptz,
  connected_at timestamptz NOT NULL
);

-- An Autodesk sign-in under way: the state sent to Autodesk (stored hashed), single use.
CREATE TABLE autodesk_connection_states (
  state_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX autodesk_connection_states_expiry ON autodesk_connection_states (expires_at);

-- An annotation's link to a third party: `url` null while the link is pending.
CREATE TABLE annotation_integration_links (
  annotation_id uuid NOT NULL REFERENCES annotations (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  integration_type text NOT NULL CHECK (integration_type IN ('AUTODESK', 'NEWFORMA_KONEKT', 'PROCORE')),
  url text,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (annotation_id, integration_type)
);
CREATE INDEX annotation_integration_links_project ON annotation_integration_links (project_id);
