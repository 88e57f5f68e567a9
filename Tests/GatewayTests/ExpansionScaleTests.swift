import APNs
import Foundation
import Gateway
import Testing

/// A fan-out's expansion at scale: 100,000 devices behind one tag, expanded chunk by chunk.
@Suite(.timeLimit(.minutes(3)))
struct ExpansionScaleTests {
    @Test(arguments: StoreKind.allCases)
    func aTagOfAHundredThousandDevicesExpandsInBoundedChunks(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let count = 100_000
        let chunk = 1_000
        let clock = ContinuousClock()
        let importStart = clock.now
        // Read lazily: no array of 100,000 registrations is built.
        let registrations = (1...count).lazy.compactMap {
            try? registration($0, tags: $0 % 2 == 0 ? ["all", "even"] : ["all"])
        }
        #expect(try await fixture.store.importDevices(registrations, batchSize: 10_000, now: Clock.start) == count)
        let imported = clock.now - importStart

        _ = try await fixture.store.createNotification(
            request(to: .tags(["all", "even"])), id: "fan", now: Clock.start)
        let residentBefore = residentBytes()
        let expandStart = clock.now
        var chunks = 0
        var largest = 0
        while true {
            let step = try await fixture.store.expandNotification(
                id: "fan", chunkSize: chunk, maximumChunks: 1, now: Clock.start)
            largest = max(largest, step.inserted)
            chunks += step.chunks
            if step.finished { break }
            await Task.yield()  // as a worker would between chunks: other tests share the pool
        }
        let expanded = clock.now - expandStart
        let growth = residentBytes() - residentBefore

        #expect(largest <= chunk)
        #expect(
            try await fixture.store.notification(id: "fan")?.recipients == count, "each device once, two tags or one")
        #expect(try await fixture.store.counts(id: "fan").pending == count)
        print(
            "\(kind): imported \(count) devices in \(imported), expanded in \(expanded) (\(chunks) chunks of \(chunk)); "
                + "resident memory grew \(growth / 1_048_576) MB during the expansion")
    }

    /// The process's resident set size (Linux), 0 where unknown.
    private func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }
}
