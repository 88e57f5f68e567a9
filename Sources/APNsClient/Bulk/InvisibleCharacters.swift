extension String {
    /// This text with the characters a terminal does not show escaped (`\r`, `\t`, other controls,
    /// zero-width and direction marks, the byte-order mark: `\r`, `\u{200B}`), so a message that
    /// quotes outside input (a file's line, a token) shows what is really there.
    public func escapingInvisibleCharacters() -> String {
        guard unicodeScalars.contains(where: \.isInvisible) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case _ where scalar.isInvisible: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// A control character, or one that takes no space on screen (format characters: zero-width
    /// space and joiners, direction marks and overrides, the byte-order mark, soft hyphen).
    fileprivate var isInvisible: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
