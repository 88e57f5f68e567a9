import APNs
import APNsClient

/// `herald lint --requests FILE|-`: checks every line of an NDJSON requests file as
/// `herald send --requests` would send it, without sending: each line's findings (or why it cannot
/// be sent) with its line number, then a summary; exit 1 if any line has an error.
struct LintRequestsCommand {
    let options: LintOptions
    let context: CommandContext

    func run() -> Int32 {
        let reader: any LineReader
        do {
            reader = try context.openLines(options.input)
        } catch {
            context.standardError("herald lint: --requests: \(error)\n")
            return ExitStatus.failure
        }
        let decoder = NDJSONRequestDecoder(
            topic: options.topic, pushType: options.pushType, priority: options.priority,
            expiration: options.expiration, collapseID: options.collapseID, refuseLintErrors: false,
            now: context.now())
        var tally = Tally()
        var number = 0
        do throws(LineReaderError) {
            while true {
                var outcome: Result<NDJSONRequestDecoder.Decoded, NDJSONRequestDecoder.LineError>?
                let read = try reader.withNextLine { line in
                    guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
                    outcome = Result { () throws(NDJSONRequestDecoder.LineError) in
                        try decoder.decode(line, number: number + 1)
                    }
                }
                if read == .end { break }
                number += 1
                if read == .tooLong {
                    outcome = .failure(.init(line: number, message: "longer than \(reader.maximumLineBytes) bytes"))
                }
                guard let outcome else { continue }
                print(outcome, line: number, into: &tally)
            }
        } catch {
            context.standardError("herald lint: --requests: \(error)\n")
            return ExitStatus.failure
        }
        let summary =
            "\(tally.lines) request(s): \(tally.clean) clean, \(tally.withWarnings) with warnings only, "
            + "\(tally.withErrors) with errors"
        if options.json {
            var object = JSONObject()
            object["requests"] = .number(JSONNumber(tally.lines))
            object["clean"] = .number(JSONNumber(tally.clean))
            object["with-warnings"] = .number(JSONNumber(tally.withWarnings))
            object["with-errors"] = .number(JSONNumber(tally.withErrors))
            context.standardOutput(#"{"summary":"# + JSONValue.object(object).encodedString + "}\n")
        } else {
            context.standardOutput(summary + "\n")
        }
        return tally.withErrors > 0 ? ExitStatus.failure : ExitStatus.success
    }

    private struct Tally {
        var lines = 0
        var clean = 0
        var withWarnings = 0
        var withErrors = 0
    }

    private func print(
        _ outcome: Result<NDJSONRequestDecoder.Decoded, NDJSONRequestDecoder.LineError>, line: Int,
        into tally: inout Tally
    ) {
        tally.lines += 1
        switch outcome {
        case .failure(let error):
            tally.withErrors += 1
            if options.json {
                var object = JSONObject()
                object["line"] = .number(JSONNumber(line))
                object["severity"] = .string(Severity.error.rawValue)
                object["message"] = .string(error.message)
                context.standardOutput(JSONValue.object(object).encodedString + "\n")
            } else {
                context.standardOutput("line \(line): error  \(error.message)\n")
            }
        case .success(let decoded):
            let findings = decoded.lint.findings
            if decoded.lint.firstError != nil {
                tally.withErrors += 1
            } else if findings.isEmpty {
                tally.clean += 1
            } else {
                tally.withWarnings += 1
            }
            for finding in findings {
                if options.json {
                    var object = JSONObject()
                    object["line"] = .number(JSONNumber(line))
                    object["rule"] = .string(finding.rule.id)
                    object["severity"] = .string(finding.severity.rawValue)
                    object["path"] = .string(finding.path)
                    object["message"] = .string(finding.message)
                    object["fix"] = finding.fix.map(JSONValue.string) ?? .null
                    context.standardOutput(JSONValue.object(object).encodedString + "\n")
                } else {
                    context.standardOutput("line \(line): \(finding.description.escapingInvisibleCharacters())\n")
                }
            }
        }
    }
}
