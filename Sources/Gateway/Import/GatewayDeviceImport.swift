// `herald gateway devices import`: device registrations from NDJSON, one a line, into the store in
// batches, as a library so the command stays thin. A line has the fields of the PUT body plus
// `token` and `bundle-id`, read by the same parser (`DeviceRegistrationBody`), so a line is
// refused for exactly what a PUT would be refused for, naming the same field.
import APNs
import APNsClient

/// Imports device registrations from NDJSON lines: memory is bounded by one batch, not the input.
///
/// Thread-safety: a value type; `Sendable`. The line reader it is given is used by one task.
public struct GatewayDeviceImport: Sendable {
    /// The app of lines without `bundle-id` (nil: such a line is refused).
    public var bundleID: String?
    /// The environment of lines without `environment` (nil: such a line is refused; the importer
    /// does not know which environments the gateway serves an app in, so it does not guess).
    public var environment: Environment?
    /// Registrations per transaction.
    public var batchSize: Int

    public static let fields = ["bundle-id", "token"] + DeviceRegistrationBody.fields

    public init(bundleID: String? = nil, environment: Environment? = nil, batchSize: Int = 10_000) {
        self.bundleID = bundleID
        self.environment = environment
        self.batchSize = max(1, batchSize)
    }

    /// A line that was not imported: its number (from 1) and the field at fault, when one is.
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let field: String?
        public let message: String

        public init(line: Int, field: String?, message: String) {
            self.line = line
            self.field = field
            self.message = message
        }

        public var description: String { "line \(line): " + (field.map { "\($0): " } ?? "") + message }
    }

    /// What an import (or a check) went through.
    public struct Summary: Sendable, Equatable {
        /// Lines read, blank ones included.
        public var lines = 0
        /// Registrations written (a token given twice is written twice).
        public var imported = 0
        public var refused = 0
        /// Transactions committed.
        public var batches = 0
        /// The devices of each app the lines named (whatever their status): before the import's first
        /// write to it, and after the last. Other writers (a running gateway) count in the difference.
        public var devicesBefore: [String: Int] = [:]
        public var devicesAfter: [String: Int] = [:]
    }

    /// The registration one line makes; the error names the field as the line writes it.
    public func registration(_ line: [UInt8]) throws(FieldError) -> DeviceRegistration {
        do {
            let body = try GatewayJSONBody(parsing: line, fields: Self.fields, kind: "device")
            guard let bundleID = try body.string("bundle-id") ?? bundleID else {
                throw FieldError(field: "bundle-id", message: "is missing; give it on the line or with --topic")
            }
            if let problem = Topic.bundleIDProblem(bundleID) { throw FieldError(field: "bundle-id", message: problem) }
            let token = try DeviceToken(hex: try body.requiredString("token"))
            let fields = try DeviceRegistrationBody(body)
            guard let environment = fields.environment ?? environment else {
                throw FieldError(
                    field: "environment", message: "is missing; give it on the line, or --sandbox or --production")
            }
            return DeviceRegistration(
                bundleID: bundleID, token: token, environment: environment, user: fields.user, tags: fields.tags,
                locale: fields.locale, appVersion: fields.appVersion)
        } catch let error as GatewayAPIError {
            // A body-level problem (not JSON, not an object) is the line's, not a field's.
            throw FieldError(field: error.field == "body" ? "" : error.field ?? "", message: error.message)
        } catch let error as FieldError {
            throw error
        } catch {
            throw FieldError(field: "", message: "\(error)")
        }
    }

    /// Reads every line and reports each refused one, writing nothing (`--strict`'s first pass).
    public func check(_ reader: any LineReader, onRefusal: (Refusal) -> Void) throws(LineReaderError) -> Summary {
        var summary = Summary()
        while try nextLine(reader, &summary, onRefusal) != nil {}
        return summary
    }

    /// Imports every line that makes a registration, `batchSize` per transaction, reporting each
    /// refused line and going on. Batches committed before a store failure stay committed.
    public func run(_ reader: any LineReader, into store: any DeviceStore, now: Int, onRefusal: (Refusal) -> Void)
        async throws(GatewayDeviceImportError) -> Summary
    {
        var summary = Summary()
        var batch: [DeviceRegistration] = []
        batch.reserveCapacity(batchSize)
        while true {
            let next: DeviceRegistration??
            do {
                next = try nextLine(reader, &summary, onRefusal)
            } catch {
                throw .input(error)
            }
            guard let next else { break }
            guard let registration = next else { continue }
            do throws(GatewayStoreError) {
                if summary.devicesBefore[registration.bundleID] == nil {
                    // Counted before the batch holding its first device commits.
                    summary.devicesBefore[registration.bundleID] = try await Self.count(registration.bundleID, store)
                }
                batch.append(registration)
                if batch.count >= batchSize {
                    try await commit(&batch, store, now: now, &summary)
                    // SQLite's batch ran without suspending: let other tasks have the thread.
                    await Task.yield()
                }
            } catch {
                throw .store(error, imported: summary.imported)
            }
        }
        do throws(GatewayStoreError) {
            if !batch.isEmpty { try await commit(&batch, store, now: now, &summary) }
            try await store.finishImport()
            for bundleID in summary.devicesBefore.keys {
                summary.devicesAfter[bundleID] = try await Self.count(bundleID, store)
            }
        } catch {
            throw .store(error, imported: summary.imported)
        }
        return summary
    }

    private func commit(
        _ batch: inout [DeviceRegistration], _ store: any DeviceStore, now: Int, _ summary: inout Summary
    ) async throws(GatewayStoreError) {
        try await store.importDevices(batch, now: now)
        summary.imported += batch.count
        summary.batches += 1
        batch.removeAll(keepingCapacity: true)
    }

    private static func count(_ bundleID: String, _ store: any DeviceStore) async throws(GatewayStoreError) -> Int {
        try await store.deviceCounts(bundleID: bundleID).values.reduce(0, +)
    }

    /// The next line: nil at the end, `.some(nil)` for a blank or refused line.
    private func nextLine(_ reader: any LineReader, _ summary: inout Summary, _ onRefusal: (Refusal) -> Void)
        throws(LineReaderError) -> DeviceRegistration??
    {
        var outcome: Result<DeviceRegistration?, FieldError> = .success(nil)
        let read = try reader.withNextLine { line in
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            outcome = Result { () throws(FieldError) in try registration(Array(line)) }
        }
        switch read {
        case .end:
            return nil
        case .tooLong:
            summary.lines += 1
            summary.refused += 1
            onRefusal(
                Refusal(
                    line: summary.lines, field: nil, message: "is longer than \(reader.maximumLineBytes) bytes"))
            return .some(nil)
        case .line:
            summary.lines += 1
            switch outcome {
            case .success(let registration):
                return .some(registration)
            case .failure(let error):
                summary.refused += 1
                onRefusal(
                    Refusal(line: summary.lines, field: error.field.isEmpty ? nil : error.field, message: error.message)
                )
                return .some(nil)
            }
        }
    }
}

/// Why an import stopped: the input could not be read, or the store failed (`imported`
/// registrations were committed before it did).
public enum GatewayDeviceImportError: Error, Sendable, CustomStringConvertible {
    case input(LineReaderError)
    case store(GatewayStoreError, imported: Int)

    public var description: String {
        switch self {
        case .input(let error): "\(error)"
        case .store(let error, let imported): "the store failed after \(imported) registrations: \(error)"
        }
    }
}
