// The gateway's schema on PostgreSQL: SQLiteGatewayStore+Schema.swift's tables in PostgreSQL's
// types (docs/GATEWAY.md, "Schema"): `seq` is an identity column, blobs are `bytea`, times are
// `bigint` milliseconds since 1970, tokens lowercase hex. Each version is one `PostgresMigration`;
// add steps, never edit old ones. `to_values` stays the JSON array SQLite keeps (the queries take
// the decoded list as a `text[]` parameter); `expanded` is a boolean.
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
                """),
        PostgresMigration(
            "2: notifications, deliveries",
            sql: """
                CREATE TABLE notifications (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    bundle_id text NOT NULL,
                    to_kind text NOT NULL
                        CHECK (to_kind IN ('tokens', 'users', 'tags', 'activity', 'push-to-start', 'channel')),
                    to_values text NOT NULL,  -- a JSON array of strings
                    to_detail text,           -- push-to-start: the attributes type
                    push_type text NOT NULL, priority integer, expiration bigint, collapse_id text,
                    payload bytea NOT NULL,
                    environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    send_at bigint,
                    idempotency_key text,
                    state text NOT NULL CHECK (state IN ('scheduled', 'sending', 'done', 'cancelled')),
                    created_at bigint NOT NULL,
                    expansion_cursor bigint NOT NULL DEFAULT 0,  -- last device seq (or list position) expanded
                    expanded boolean NOT NULL DEFAULT false,
                    recipients bigint NOT NULL DEFAULT 0,
                    pending bigint NOT NULL DEFAULT 0,
                    succeeded bigint NOT NULL DEFAULT 0,
                    failed bigint NOT NULL DEFAULT 0,
                    cancelled bigint NOT NULL DEFAULT 0
                );
                CREATE UNIQUE INDEX notifications_by_idempotency_key ON notifications (bundle_id, idempotency_key)
                    WHERE idempotency_key IS NOT NULL;
                CREATE INDEX notifications_scheduled ON notifications (send_at) WHERE state = 'scheduled';
                CREATE INDEX notifications_expanding ON notifications (seq) WHERE state = 'sending' AND NOT expanded;
                CREATE TABLE deliveries (
                    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- creation order; the listing cursor
                    notification_id text NOT NULL REFERENCES notifications(id),
                    kind text NOT NULL CHECK (kind IN ('device', 'activity', 'pushtostart', 'channel')),
                    recipient text NOT NULL,  -- token hex, or the channel id
                    environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    apns_id text NOT NULL,    -- fixed here: every attempt carries it
                    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
                    reason text,
                    attempts integer NOT NULL DEFAULT 0,
                    next_attempt_at bigint NOT NULL,  -- a claim moves it to the end of the lease
                    last_attempt_at bigint,
                    apns_unique_id text,
                    claimed_by text,
                    claimed_until bigint
                );
                CREATE INDEX deliveries_by_notification ON deliveries (notification_id, seq);
                -- The claim's ORDER BY (next_attempt_at, seq) is this index's order: no sort.
                CREATE INDEX deliveries_due ON deliveries (next_attempt_at, seq) WHERE status = 'pending';
                """),
        PostgresMigration(
            "3: deliveries by recipient",
            sql: """
                -- A device's history (deliveries to one token, newest first) reads one recipient's rows
                -- backwards instead of every delivery.
                CREATE INDEX deliveries_by_recipient ON deliveries (recipient, seq);
                """),
    ]
}
