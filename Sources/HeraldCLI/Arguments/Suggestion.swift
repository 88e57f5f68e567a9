// "Did you mean" for unknown options and commands.
//
// Plain Levenshtein distance misses the commonest slip, a truncated name: `--prio` is 4 edits from
// `--priority`, above the max(2, length / 3) threshold. So a word that is a prefix of exactly one
// candidate suggests that candidate first; otherwise the nearest candidate within the threshold wins,
// ties going to the earlier one. Names are compared without leading dashes, so `-topic` finds `topic`.

/// The candidate closest to `word`, or `nil` if none is near enough to be a likely typo.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    let typed = Substring(word).drop { $0 == "-" }
    guard !typed.isEmpty else { return nil }
    let prefixed = candidates.filter { $0.hasPrefix(typed) && $0.count > typed.count }
    if prefixed.count == 1 { return prefixed[0] }

    let threshold = max(2, typed.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(Array(typed), Array(candidate))
        if distance <= threshold, distance < (best?.distance ?? Int.max) {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}

/// The Levenshtein distance: insertions, deletions and substitutions, one each.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
