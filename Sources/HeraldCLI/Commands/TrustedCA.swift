/// The CA file a command that connects trusts: `--ca-file` (or `HERALD_CA_FILE`), else, for an
/// https endpoint on this machine, the local emulator's `./herald-data/ca.pem` when it exists, so
/// `herald device`, `send` and `channels` reach `herald emulator` with no flag; nil: the system's.
enum TrustedCA {
    /// Where `herald emulator` writes its CA with the default `--data-dir`.
    static let emulatorCA = "herald-data/ca.pem"

    /// Throws when the given file cannot be read, naming `--ca-file` (the transport would only say
    /// that some file could not be read).
    static func path(given: String?, host: String, usesTLS: Bool, context: CommandContext) throws(InputError) -> String?
    {
        if let given {
            do {
                _ = try context.read(given)
            } catch {
                throw InputError("--ca-file: \(error)")
            }
            return given
        }
        guard usesTLS, ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) else { return nil }
        return (try? context.read(emulatorCA)) == nil ? nil : emulatorCA
    }

    /// `message` with a hint when it is a failed certificate verification: which flag mends it.
    static func explaining(_ message: String) -> String {
        guard message.contains("certificate verification failed") else { return message }
        return message + "; pass --ca-file with the server's CA (for herald emulator: herald-data/ca.pem)"
    }
}
