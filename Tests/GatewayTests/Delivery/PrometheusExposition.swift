/// A strict reader of Prometheus's text format (0.0.4), for checking what `/metrics` writes: every
/// sample's family has `# HELP` and `# TYPE` before it, names and labels are well formed, label
/// values are unescaped. Anything else throws.
struct PrometheusExposition {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var problem: String
        var description: String { "\(problem): \(line)" }
    }

    var helps: [String: String] = [:]
    var types: [String: String] = [:]
    var samples: [Sample] = []

    init(parsing text: String) throws {
        guard text.hasSuffix("\n") else { throw Malformed(line: "", problem: "no newline at the end") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) {
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst(7)
                let name = String(rest.prefix { $0 != " " })
                guard Self.isName(name), helps[name] == nil else { throw Malformed(line: line, problem: "HELP") }
                helps[name] = String(rest.dropFirst(name.count + 1))
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                guard parts.count == 2, Self.isName(String(parts[0])), types[String(parts[0])] == nil,
                    ["counter", "gauge", "histogram", "summary", "untyped"].contains(String(parts[1]))
                else { throw Malformed(line: line, problem: "TYPE") }
                types[String(parts[0])] = String(parts[1])
            } else {
                let sample = try Self.sample(line)
                let family = family(of: sample.name)
                guard types[family] != nil, helps[family] != nil else {
                    throw Malformed(line: line, problem: "a sample before its family's HELP and TYPE")
                }
                samples.append(sample)
            }
        }
    }

    /// The family a sample belongs to (a histogram's `_bucket`, `_sum`, `_count` are its own).
    func family(of name: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return name
    }

    /// The value of the one sample with this name and these labels.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == ":" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == ":" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    private static func sample(_ line: String) throws -> Sample {
        var scalars = Substring(line).unicodeScalars[...]
        let name = String(String.UnicodeScalarView(scalars.prefix { $0 != "{" && $0 != " " }))
        guard isName(name) else { throw Malformed(line: line, problem: "metric name") }
        scalars = scalars.dropFirst(name.unicodeScalars.count)
        var labels: [String: String] = [:]
        if scalars.first == "{" {
            scalars = scalars.dropFirst()
            while scalars.first != "}" {
                let label = String(String.UnicodeScalarView(scalars.prefix { $0 != "=" }))
                guard isName(label), labels[label] == nil else { throw Malformed(line: line, problem: "label name") }
                scalars = scalars.dropFirst(label.unicodeScalars.count)
                guard scalars.first == "=", scalars.dropFirst().first == "\"" else {
                    throw Malformed(line: line, problem: "label value")
                }
                scalars = scalars.dropFirst(2)
                var value = String.UnicodeScalarView()
                while let scalar = scalars.first, scalar != "\"" {
                    scalars = scalars.dropFirst()
                    guard scalar == "\\" else {
                        guard scalar != "\n" else { throw Malformed(line: line, problem: "raw newline") }
                        value.append(scalar)
                        continue
                    }
                    switch scalars.first {
                    case "\\": value.append("\\")
                    case "\"": value.append("\"")
                    case "n": value.append("\n")
                    default: throw Malformed(line: line, problem: "escape")
                    }
                    scalars = scalars.dropFirst()
                }
                guard scalars.first == "\"" else { throw Malformed(line: line, problem: "unterminated label value") }
                scalars = scalars.dropFirst()
                labels[label] = String(value)
                if scalars.first == "," { scalars = scalars.dropFirst() }
            }
            scalars = scalars.dropFirst()
        }
        guard scalars.first == " " else { throw Malformed(line: line, problem: "no space before the value") }
        let text = String(String.UnicodeScalarView(scalars.dropFirst()))
        let value: Double? =
            switch text {
            case "NaN": .nan
            case "+Inf": .infinity
            case "-Inf": -.infinity
            default: Double(text)
            }
        guard let value else { throw Malformed(line: line, problem: "value") }
        return Sample(name: name, labels: labels, value: value)
    }
}
