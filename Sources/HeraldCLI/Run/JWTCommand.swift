import APNs

/// `herald jwt`: prints a provider token signed with a .p8 key. The key never appears in output.
struct JWTCommand {
    let options: JWTOptions
    let context: CommandContext

    func run() -> Int32 {
        do {
            let signer = try ProviderTokenSigner(authKeyPath: options.authKeyPath, keyID: options.keyID, teamID: options.teamID)
            let token = try signer.sign(issuedAt: options.issuedAt ?? context.now())
            context.standardOutput(token.value + "\n")
            return ExitStatus.success
        } catch {
            context.standardError("herald jwt: \(error)\n")
            return ExitStatus.failure
        }
    }
}
