// The gateway's schema (docs/GATEWAY.md, "Schema"). Times are milliseconds since 1970; tokens are
// lowercase hex. The SQL is kept to what PostgreSQL runs as well (modulo INTEGER PRIMARY KEY for
// bigserial, BLOB for bytea, json_each for unnest): the PostgreSQL store will be the same tables.
// Each version is one `SQLiteMigration`; add steps, never edit old ones.
import Storage

extension SQLiteGatewayStore {
    static let migrations = [
        SQLiteMigration(
            "1: devices, live activity tokens, api keys, notifications, deliveries",
            sql: """
                CREATE TABLE devices (
                    seq INTEGER PRIMARY KEY,  -- registration order; the expansion cursor
                    bundle_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id TEXT, locale TEXT, app_version TEXT,
                    registered_at INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason TEXT,
                    UNIQUE (bundle_id, token)
                );
                -- Expansion walks an app's devices in seq order from a cursor: without this index SQLite
                -- would read all of them and sort them in a temporary tree at every chunk.
                CREATE INDEX devices_by_app ON devices (bundle_id, seq);
                CREATE INDEX devices_by_user ON devices (bundle_id, user_id) WHERE user_id IS NOT NULL;
                CREATE TABLE device_tags (
                    device_seq INTEGER NOT NULL REFERENCES devices(seq) ON DELETE CASCADE,
                    tag TEXT NOT NULL,
                    PRIMARY KEY (device_seq, tag)
                ) WITHOUT ROWID;
                CREATE TABLE push_to_start_tokens (
                    seq INTEGER PRIMARY KEY,
                    bundle_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id TEXT,
                    attributes_type TEXT NOT NULL,
                    registered_at INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason TEXT,
                    UNIQUE (bundle_id, token)
                );
                CREATE INDEX push_to_start_by_user ON push_to_start_tokens (bundle_id, user_id, attributes_type);
                CREATE TABLE activity_tokens (
                    seq INTEGER PRIMARY KEY,
                    bundle_id TEXT NOT NULL,
                    activity_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    user_id TEXT,
                    registered_at INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('active', 'unregistered', 'invalid')),
                    status_reason TEXT,
                    UNIQUE (bundle_id, activity_id)
                );
                CREATE INDEX activity_tokens_by_token ON activity_tokens (bundle_id, token);
                CREATE TABLE api_keys (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    scope TEXT NOT NULL CHECK (scope IN ('admin', 'send', 'register')),
                    bundle_id TEXT,  -- NULL: every app
                    secret_hash BLOB NOT NULL UNIQUE,  -- SHA-256 of the secret
                    created_at INTEGER NOT NULL,
                    revoked_at INTEGER
                );
                CREATE TABLE notifications (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    bundle_id TEXT NOT NULL,
                    to_kind TEXT NOT NULL
                        CHECK (to_kind IN ('tokens', 'users', 'tags', 'activity', 'push-to-start', 'channel')),
                    to_values TEXT NOT NULL,  -- a JSON array of strings
                    to_detail TEXT,           -- push-to-start: the attributes type
                    push_type TEXT NOT NULL, priority INTEGER, expiration INTEGER, collapse_id TEXT,
                    payload BLOB NOT NULL,
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    send_at INTEGER,
                    idempotency_key TEXT,
                    state TEXT NOT NULL CHECK (state IN ('scheduled', 'sending', 'done', 'cancelled')),
                    created_at INTEGER NOT NULL,
                    expansion_cursor INTEGER NOT NULL DEFAULT 0,  -- last device seq (or list position) expanded
                    expanded INTEGER NOT NULL DEFAULT 0,
                    recipients INTEGER NOT NULL DEFAULT 0,
                    pending INTEGER NOT NULL DEFAULT 0,
                    succeeded INTEGER NOT NULL DEFAULT 0,
                    failed INTEGER NOT NULL DEFAULT 0,
                    cancelled INTEGER NOT NULL DEFAULT 0
                );
                CREATE UNIQUE INDEX notifications_by_idempotency_key ON notifications (bundle_id, idempotency_key)
                    WHERE idempotency_key IS NOT NULL;
                CREATE INDEX notifications_scheduled ON notifications (send_at) WHERE state = 'scheduled';
                CREATE INDEX notifications_expanding ON notifications (seq) WHERE state = 'sending' AND expanded = 0;
                CREATE TABLE deliveries (
                    seq INTEGER PRIMARY KEY,  -- creation order; the listing cursor
                    notification_id TEXT NOT NULL REFERENCES notifications(id),
                    kind TEXT NOT NULL CHECK (kind IN ('device', 'activity', 'pushtostart', 'channel')),
                    recipient TEXT NOT NULL,  -- token hex, or the channel id
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    apns_id TEXT NOT NULL,    -- fixed here: every attempt carries it
                    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
                    reason TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL,  -- a claim moves it to the end of the lease
                    last_attempt_at INTEGER,
                    apns_unique_id TEXT,
                    claimed_by TEXT,
                    claimed_until INTEGER
                );
                CREATE INDEX deliveries_by_notification ON deliveries (notification_id, seq);
                CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
                """),
        // A delivery row is written twice per send (made, then its outcome) on the store's one
        // thread, which bounds a fan-out's rate: the row names its notification by the integer seq
        // (a rowid, not the 36-character id, in the row and in deliveries_by_notification) and
        // keeps its apns-id as 16 bytes, drawn by one randomblob(16) (`SQLiteAPNsID`).
        SQLiteMigration(
            "2: deliveries by notification seq, apns-ids as 16 bytes",
            sql: """
                CREATE TABLE deliveries_2 (
                    seq INTEGER PRIMARY KEY,  -- creation order; the listing cursor
                    notification_seq INTEGER NOT NULL REFERENCES notifications(seq),
                    kind TEXT NOT NULL CHECK (kind IN ('device', 'activity', 'pushtostart', 'channel')),
                    recipient TEXT NOT NULL,  -- token hex, or the channel id
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    apns_id BLOB NOT NULL,    -- 16 bytes, fixed here: every attempt carries it (`SQLiteAPNsID`)
                    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
                    reason TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL,  -- a claim moves it to the end of the lease
                    last_attempt_at INTEGER,
                    apns_unique_id TEXT,
                    claimed_by TEXT,
                    claimed_until INTEGER
                );
                INSERT INTO deliveries_2
                    SELECT d.seq, n.seq, d.kind, d.recipient, d.environment, d.apns_id, d.status, d.reason,
                        d.attempts, d.next_attempt_at, d.last_attempt_at, d.apns_unique_id, d.claimed_by,
                        d.claimed_until
                    FROM deliveries d JOIN notifications n ON n.id = d.notification_id;
                DROP TABLE deliveries;
                ALTER TABLE deliveries_2 RENAME TO deliveries;
                CREATE INDEX deliveries_by_notification ON deliveries (notification_seq, seq);
                CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
                """, then: SQLiteAPNsID.convertTextIDs),
        SQLiteMigration(
            "3: deliveries by recipient",
            sql: """
                -- A device's history (deliveries to one token, newest first) reads one recipient's rows
                -- backwards instead of every delivery.
                CREATE INDEX deliveries_by_recipient ON deliveries (recipient, seq);
                """),
        // Each delivery row written once (docs/GATEWAY.md, "Chunks"): a worker claims a chunk of a
        // notification's recipients as one row, and a delivery row is inserted only with its outcome
        // (or a retry's pending state). A delivery's apns-id is derived from the notification's
        // apns_base and the recipient's cursor (`SQLiteChunkDelivery`), so a chunk claimed again after
        // its lease ran out sends the same ids. Rows made claimed by an older Herald stay rows: the
        // claim of due rows takes them when their leases run out, as before.
        SQLiteMigration(
            "4: delivery chunks, apns-ids derived per notification",
            sql: """
                ALTER TABLE notifications ADD COLUMN apns_base BLOB;  -- 16 random bytes
                UPDATE notifications SET apns_base = randomblob(16);
                CREATE TABLE delivery_chunks (
                    seq INTEGER PRIMARY KEY,
                    notification_seq INTEGER NOT NULL REFERENCES notifications(seq),
                    after_cursor INTEGER NOT NULL,  -- the recipients after this cursor ...
                    last_cursor INTEGER NOT NULL,   -- ... up to this one, included
                    unrecorded INTEGER NOT NULL,    -- members of the current claim without a row yet
                    claimed_by TEXT NOT NULL,
                    claimed_until INTEGER NOT NULL
                );
                CREATE INDEX delivery_chunks_due ON delivery_chunks (claimed_until);
                CREATE INDEX delivery_chunks_by_notification ON delivery_chunks (notification_seq);
                """),
        // A chunk's successes are one row per recorded batch, its members packed in a blob
        // (`SQLiteSuccessBatch`): a row each dirtied a random page of deliveries_by_recipient per
        // success, the store thread's largest cost in a fan-out. Failures, retries and rows made by
        // an older Herald stay `deliveries` rows; a batch's seq is drawn from the same numbers as
        // theirs, so a notification's listing is one order over both.
        SQLiteMigration(
            "5: delivery successes recorded in batches",
            sql: """
                CREATE TABLE delivery_successes (
                    seq INTEGER PRIMARY KEY,  -- shares the numbers of deliveries.seq (`SQLiteSuccessBatch`)
                    notification_seq INTEGER NOT NULL REFERENCES notifications(seq),
                    chunk_seq INTEGER NOT NULL,  -- the chunk whose members these are
                    kind TEXT NOT NULL CHECK (kind IN ('device', 'activity', 'pushtostart', 'channel')),
                    recorded_at INTEGER NOT NULL,
                    members BLOB NOT NULL
                );
                CREATE INDEX delivery_successes_by_notification ON delivery_successes (notification_seq, seq);
                -- A chunk claimed again reads its recorded members by it (and by the notification: a
                -- chunk's seq may be used again once the chunk is gone).
                CREATE INDEX delivery_successes_by_chunk ON delivery_successes (chunk_seq);
                """),
    ]
}
