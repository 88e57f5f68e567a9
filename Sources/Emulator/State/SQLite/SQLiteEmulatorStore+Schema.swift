// The emulator's schema (docs/EMULATOR.md, "State and storage"). Times are milliseconds since 1970;
// tokens are lowercase hex. Each version is one `SQLiteMigration`; add steps, never edit old ones.
import Storage

extension SQLiteEmulatorStore {
    static let migrations = [
        SQLiteMigration(
            "1: deliveries, unregistered tokens, channels, devices",
            sql: """
                CREATE TABLE deliveries (
                    seq INTEGER PRIMARY KEY,  -- contiguous; only the newest `capacity` rows are kept
                    received_at INTEGER NOT NULL,
                    token TEXT, topic TEXT, push_type TEXT, priority INTEGER, apns_id TEXT, unique_id TEXT,
                    status INTEGER NOT NULL, reason TEXT, payload BLOB NOT NULL, channel TEXT, fault TEXT
                );
                CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE unregistered_tokens (
                    token TEXT PRIMARY KEY, unregistered_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE channel_ids (id TEXT PRIMARY KEY) WITHOUT ROWID;  -- every id ever issued
                CREATE TABLE channels (
                    seq INTEGER PRIMARY KEY,  -- creation order
                    id TEXT NOT NULL UNIQUE REFERENCES channel_ids(id),
                    bundle_id TEXT NOT NULL,
                    storage_policy INTEGER NOT NULL CHECK (storage_policy IN (0, 1)),
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE devices (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    token TEXT NOT NULL UNIQUE,
                    bundle_id TEXT NOT NULL,
                    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE device_tokens (
                    seq INTEGER PRIMARY KEY,
                    token TEXT NOT NULL UNIQUE,
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('liveactivity', 'pushtostart')),
                    detail TEXT,  -- the activity id or the attributes type
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX device_tokens_by_device ON device_tokens (device_id);
                CREATE TABLE stored_notifications (
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    bundle_id TEXT NOT NULL,
                    apns_id TEXT NOT NULL, push_type TEXT NOT NULL, priority INTEGER NOT NULL, collapse_id TEXT,
                    payload BLOB NOT NULL, stored_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
                    PRIMARY KEY (device_id, bundle_id)
                ) WITHOUT ROWID;
                CREATE TABLE subscriptions (
                    seq INTEGER PRIMARY KEY,  -- subscription order
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
                    subscribed_at INTEGER NOT NULL,
                    UNIQUE (device_id, channel_id)
                );
                CREATE INDEX subscriptions_by_channel ON subscriptions (channel_id);
                CREATE TABLE stored_broadcasts (
                    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
                    request_id TEXT NOT NULL, priority INTEGER NOT NULL, payload BLOB NOT NULL,
                    stored_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """),
        SQLiteMigration(
            "2: stored notifications and subscriptions shaped as the device registry keeps them",
            sql: """
                -- A stored push or broadcast keeps everything its notification line carries; broadcasts
                -- are stored per device (as the registry keeps them), so the per-channel table goes (nothing
                -- wrote it: the registry was not connected to the store before this version).
                CREATE TABLE stored_notifications_2 (
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    bundle_id TEXT NOT NULL,
                    channel_id TEXT NOT NULL,  -- '' for a device push (the latest per app)
                    apns_id TEXT NOT NULL, token TEXT NOT NULL, topic TEXT NOT NULL, push_type TEXT NOT NULL,
                    priority INTEGER NOT NULL, collapse_id TEXT,
                    expiration INTEGER,  -- apns-expiration in seconds; NULL: the request had none
                    payload BLOB NOT NULL, stored_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
                    PRIMARY KEY (device_id, bundle_id, channel_id)
                ) WITHOUT ROWID;
                INSERT INTO stored_notifications_2
                    SELECT n.device_id, n.bundle_id, '', n.apns_id, d.token, n.bundle_id, n.push_type, n.priority,
                        n.collapse_id, n.expires_at / 1000, n.payload, n.stored_at, n.expires_at
                    FROM stored_notifications n JOIN devices d ON d.id = n.device_id;
                DROP TABLE stored_notifications;
                ALTER TABLE stored_notifications_2 RENAME TO stored_notifications;
                CREATE INDEX stored_notifications_by_expiry ON stored_notifications (expires_at);
                DROP TABLE stored_broadcasts;
                -- Subscriptions name the app and keep any channel id a device gave, live or not.
                CREATE TABLE subscriptions_2 (
                    seq INTEGER PRIMARY KEY,  -- subscription order
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    bundle_id TEXT NOT NULL,
                    channel_id TEXT NOT NULL,
                    subscribed_at INTEGER NOT NULL,
                    UNIQUE (device_id, bundle_id, channel_id)
                );
                INSERT INTO subscriptions_2 (device_id, bundle_id, channel_id, subscribed_at)
                    SELECT s.device_id, d.bundle_id, s.channel_id, s.subscribed_at
                    FROM subscriptions s JOIN devices d ON d.id = s.device_id ORDER BY s.seq;
                DROP TABLE subscriptions;
                ALTER TABLE subscriptions_2 RENAME TO subscriptions;
                """),
        SQLiteMigration(
            "3: the delivery log in batches, one row and one blob each",
            sql: """
                -- Entries are numbered 1, 2, ... in write order; a row holds entries first_seq...last_seq,
                -- encoded back to back in `records` (Sources/Emulator/DeliveryRecord+Encoding.swift).
                -- counters['deliveries.first_kept'] is the oldest entry kept; older ones are never read.
                CREATE TABLE delivery_batches (
                    last_seq INTEGER PRIMARY KEY,
                    first_seq INTEGER NOT NULL,
                    count INTEGER NOT NULL CHECK (count > 0 AND count = last_seq - first_seq + 1),
                    records BLOB NOT NULL
                );
                -- Then `convertDeliveryRows` moves the rows of `deliveries` into batches and drops it.
                """,
            then: { try convertDeliveryRows($0) }),
        SQLiteMigration(
            "4: a delivery record may give its payload as the previous record's",
            sql: """
                -- No table changes: records in `delivery_batches.records` may now set flags bit 1 (the
                -- payload is the previous record's, not repeated). Version 3 blobs read unchanged; a
                -- Herald that knows only version 3 refuses this file instead of misreading it.
                SELECT 1;
                """),
        SQLiteMigration(
            "5: new rows of the delivery log in the compact record format 5",
            sql: """
                -- Rows written from now on hold format-5 records (varints, a string field equal to the
                -- previous record's given by reference: Sources/Emulator/DeliveryRecord+CompactEncoding.swift);
                -- rows written before keep format 4 and read as before.
                ALTER TABLE delivery_batches ADD COLUMN format INTEGER NOT NULL DEFAULT 4;
                """),
    ]
}
