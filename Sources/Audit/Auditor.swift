// `herald audit` as a library call: find the Swift files, Info.plist and entitlements under the given
// paths, parse the Swift with the toolchain's compiler, and run every rule of docs/AUDIT-RULES.md.
import Glibc

/// What to audit.
public struct AuditRequest: Sendable {
    /// Swift files and directories (searched recursively for .swift, Info.plist and .entitlements).
    public var paths: [String]
    /// The app's Info.plist; when nil, those found under `paths` are read.
    public var infoPlist: String?
    /// The app's .entitlements; when nil, those found under `paths` are read.
    public var entitlements: String?

    public init(paths: [String], infoPlist: String? = nil, entitlements: String? = nil) {
        self.paths = paths
        self.infoPlist = infoPlist
        self.entitlements = entitlements
    }
}

/// What the audit found, and what it read.
public struct AuditReport: Sendable {
    /// Every finding, by file, then line and column.
    public let findings: [AuditFinding]
    public let swiftFiles: [String]
    public let infoPlists: [String]
    public let entitlements: [String]

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// A path that could not be audited at all.
public struct AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

public enum Auditor {
    /// Audits the files under `request.paths` with `compiler`.
    public static func audit(_ request: AuditRequest, compiler: SwiftCompiler) throws(AuditError) -> AuditReport {
        var swiftFiles: [String] = []
        var infoPlists: [String] = []
        var entitlementFiles: [String] = []
        for path in request.paths {
            try collect(path, swift: &swiftFiles, infoPlists: &infoPlists, entitlements: &entitlementFiles)
        }
        if let given = request.infoPlist { infoPlists = [given] }
        if let given = request.entitlements { entitlementFiles = [given] }
        var findings: [AuditFinding] = []
        func readPlists(_ paths: [String]) -> [PropertyList] {
            paths.compactMap { path in
                switch PropertyList.read(path) {
                case .success(let plist): return plist
                case .failure(let failure):
                    findings.append(
                        AuditFinding(
                            rule: .parse, path: path, location: SourceLocation(line: 1, column: 1),
                            message: failure.message))
                    return nil
                }
            }
        }
        let plists = readPlists(infoPlists)
        let entitlements = readPlists(entitlementFiles)
        var files: [SourceFile] = []
        for result in SourceParser(compiler: compiler).parse(swiftFiles) {
            switch result {
            case .success(let file): files.append(file)
            case .failure(let failure):
                findings.append(
                    AuditFinding(
                        rule: .parse, path: failure.path, location: SourceLocation(line: 1, column: 1),
                        message: failure.message))
            }
        }
        findings += audit(files, infoPlists: plists, entitlements: entitlements)
        return AuditReport(
            findings: sorted(findings), swiftFiles: swiftFiles, infoPlists: infoPlists, entitlements: entitlementFiles)
    }

    /// Runs every rule over parsed files and property lists; pure.
    public static func audit(_ files: [SourceFile], infoPlists: [PropertyList], entitlements: [PropertyList])
        -> [AuditFinding]
    {
        let app = AppModel(files: files)
        let findings =
            app.registrationFindings() + app.delegateFindings() + app.handlerFindings()
            + app.configurationFindings(infoPlists: infoPlists, entitlements: entitlements)
        return sorted(Array(Set(findings)))
    }

    private static func sorted(_ findings: [AuditFinding]) -> [AuditFinding] {
        findings.sorted { ($0.path, $0.location, $0.rule.id) < ($1.path, $1.location, $1.rule.id) }
    }

    /// Directories that hold build products or other people's code, not the app's.
    private static let skippedDirectories: Set<String> = ["Pods", "Carthage", "DerivedData", "build", "node_modules"]

    private static func collect(
        _ path: String, swift: inout [String], infoPlists: inout [String], entitlements: inout [String]
    ) throws(AuditError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AuditError(message: "\(path): \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            if path.hasSuffix(".swift") {
                swift.append(path)
            } else if path.hasSuffix(".entitlements") {
                entitlements.append(path)
            } else if path.hasSuffix(".plist") {
                infoPlists.append(path)
            } else {
                throw AuditError(message: "\(path): not a .swift, .plist or .entitlements file, nor a directory")
            }
            return
        }
        guard let directory = opendir(path) else {
            throw AuditError(message: "\(path): \(String(cString: strerror(errno)))")
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        closedir(directory)
        for name in names.sorted() where !name.hasPrefix(".") && !skippedDirectories.contains(name) {
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            var childInfo = stat()
            guard stat(child, &childInfo) == 0 else { continue }
            if (childInfo.st_mode & S_IFMT) == S_IFDIR {
                try collect(child, swift: &swift, infoPlists: &infoPlists, entitlements: &entitlements)
            } else if name.hasSuffix(".swift") {
                swift.append(child)
            } else if name.hasSuffix(".entitlements") {
                entitlements.append(child)
            } else if name == "Info.plist" || name.hasSuffix("-Info.plist") {
                infoPlists.append(child)
            }
        }
    }
}
