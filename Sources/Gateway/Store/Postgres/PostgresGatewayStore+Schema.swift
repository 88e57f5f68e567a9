// The gateway's schema on PostgreSQL: SQLiteGatewayStore+Schema.swift's tables in PostgreSQL's
// types (docs/GATEWAY.md, "Schema"): `seq` is an identity column, blobs are `bytea`, times are
// `bigint` milliseconds since 1970, tokens lowercase hex. Each version is one `PostgresMigration`;
// add steps, never edit old ones. Version 2 will add notifications and deliveries with the code
// that uses them.
import Postgres

extension PostgresGatewayStore {
    static let migrations = [
        PostgresMigration(
            "1: devices, live activity tokens, api keys",
            sql: """
                CREATE TABLE devices (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- registration order; the expansion cursor
                    bundle_id text NOT NULL,
                    token text NOT NULL,
                    environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id text, locale text, app_version text,
                    registered_at bigint NOT NULL,
                    status text NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason text,
                    UNIQUE (bundle_id, token)
                );
                CREATE INDEX devices_by_app ON devices (bundle_id, seq);
                CREATE INDEX devices_by_user ON devices (bundle_id, user_id) WHERE user_id IS NOT NULL;
                CREATE TABLE device_tags (
                    device_seq bigint NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
                    tag text NOT NULL,
                    PRIMARY KEY (device_seq, tag)
                );
                CREATE TABLE push_to_start_tokens (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    bundle_id text NOT NULL,
                    token text NOT NULL,
                    environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id text,
                    attributes_type text NOT NULL,
                    registered_at bigint NOT NULL,
                    status text NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason text,
                    UNIQUE (bundle_id, token)
                );
                CREATE INDEX push_to_start_by_user ON push_to_start_tokens (bundle_id, user_id, attributes_type);
                CREATE TABLE activity_tokens (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    bundle_id text NOT NULL,
                    activity_id text NOT NULL,
                    token text NOT NULL,
                    environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id text,
                    registered_at bigint NOT NULL,
                    status text NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason text,
                    UNIQUE (bundle_id, activity_id)
                );
                CREATE INDEX activity_tokens_by_token ON activity_tokens (bundle_id, token);
                CREATE TABLE api_keys (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    name text NOT NULL,
                    scope text NOT NULL CHECK (scope IN ('admin', 'send', 'register')),
                    bundle_id text,  -- NULL: every app
                    secret_hash bytea NOT NULL UNIQUE,  -- SHA-256 of the secret
                    created_at bigint NOT NULL,
                    revoked_at bigint
                );
                """)
    ]
}
