import APNs
import Keys

/// `herald jwt`: prints a provider token signed with a .p8 key. The key never appears in output.
struct JWTCommand {
    let options: JWTOptions
    let context: CommandContext

    func run() -> Int32 {
        let key: P256PrivateKey
        do {
            let pem = try context.read(options.authKeyPath)
            key = try P256PrivateKey(pem: String(decoding: pem, as: UTF8.self))
        } catch let error as KeysError {
            context.standardError("herald jwt: --auth-key '\(options.authKeyPath)': \(error)\n")
            return ExitStatus.failure
        } catch {
            context.standardError("herald jwt: --auth-key: \(error)\n")
            return ExitStatus.failure
        }
        do {
            let signer = try ProviderTokenSigner(key: key, keyID: options.keyID, teamID: options.teamID)
            let token = try signer.sign(issuedAt: options.issuedAt ?? context.now())
            context.standardOutput(token.value + "\n")
            return ExitStatus.success
        } catch {
            context.standardError("herald jwt: \(error)\n")
            return ExitStatus.failure
        }
    }
}
